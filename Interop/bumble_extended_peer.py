#!/usr/bin/env python3
"""SwiftBLE extended advertising interop peer: a Bumble host on one device of
`ble sim serve --extended` (whose controllers claim Bluetooth 5's extended commands), printing
one JSON object per line on stdout.

    bumble_extended_peer.py --port P advertise [--size N] [--sid S] [--seconds S]
    bumble_extended_peer.py --port P scan      [--seconds S] [--until-size N]

advertise makes one extended advertising set (non-connectable, non-scannable, not legacy; LE 2M
for the AUX packets) whose data is N octets of manufacturer-specific structures of company
0xFFFF (reserved for testing), each octet counting up, and prints
{"event": "advertising", "data": hex}.

scan scans passively with the extended commands on LE 1M. Bumble 0.0.236's host hands each
LE Extended Advertising Report fragment on as an advertisement of its own (its accumulator joins
only scan responses to advertisements), each with the fragment's Data_Status; this peer joins a
set's fragments until one is complete or truncated (Core 5.4, Vol 4, Part E, §7.7.65.13) and then
prints {"event": "advertisement", "address" (no type suffix), "legacy", "sid", "primary_phy",
"secondary_phy", "truncated", "fragments", "data"}.

advertise sends its data with one LE Set Extended Advertising Data command, as Bumble 0.0.236
does (it does not fragment), so --size is at most 251.

Exit status 0 means the role did what it was asked (scan --until-size: an advertisement of
that many octets was heard whole).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import struct
import sys
import time

from bumble import hci
from bumble.device import AdvertisingEventProperties, AdvertisingParameters, Device, DeviceConfiguration
from bumble.transport import open_transport

START = time.monotonic()


def say(event: str, **fields) -> None:
    """One JSON line, flushed, so a parent reading the pipe sees it at once."""
    sys.stdout.write(json.dumps({'event': event, 'elapsed': round(time.monotonic() - START, 3), **fields}) + '\n')
    sys.stdout.flush()


def test_data(size: int) -> bytes:
    """`size` octets of manufacturer-specific structures (company 0xFFFF), counting octets,
    each structure at most 251 octets (one command fragment) and none left with fewer than 4."""
    data, counter = b'', 0
    while len(data) < size:
        chunk = min(size - len(data), 251)
        if 0 < size - len(data) - chunk < 4:
            chunk -= 4
        payload = bytes((counter + i) & 0xFF for i in range(chunk - 4))
        counter += chunk - 4
        data += bytes([chunk - 1, 0xFF]) + struct.pack('<H', 0xFFFF) + payload
    return data


async def open_device(port: int):
    transport = await open_transport(f'tcp-client:127.0.0.1:{port}')
    config = DeviceConfiguration()
    config.name = 'SwiftBLE extended peer'
    device = Device.from_config_with_hci(config, transport.source, transport.sink)
    await device.power_on()
    say('powered_on', port=port, extended=bool(device.supports_le_extended_advertising))
    return device, transport


async def advertise(args) -> int:
    device, transport = await open_device(args.port)
    data = test_data(args.size)
    parameters = AdvertisingParameters(
        advertising_event_properties=AdvertisingEventProperties(
            is_connectable=False, is_scannable=False, is_directed=False, is_high_duty_cycle_directed_connectable=False,
            is_legacy=False, is_anonymous=False, include_tx_power=False),
        own_address_type=hci.OwnAddressType.PUBLIC, secondary_advertising_phy=hci.Phy.LE_2M, advertising_sid=args.sid,
        primary_advertising_interval_min=100, primary_advertising_interval_max=100)
    await device.create_advertising_set(advertising_parameters=parameters, advertising_data=data)
    say('advertising', data=data.hex())
    if args.seconds > 0:
        await asyncio.sleep(args.seconds)
    else:
        await asyncio.get_running_loop().create_future()  # until killed
    await transport.close()
    return 0


async def scan(args) -> int:
    device, transport = await open_device(args.port)
    found = asyncio.Event()
    pending: dict[tuple[str, int], list[bytes]] = {}

    def on_advertisement(advertisement) -> None:
        address = advertisement.address.to_string(with_type_qualifier=False)
        key = (address, advertisement.sid)
        parts = pending.setdefault(key, [])
        parts.append(bytes(advertisement.data_bytes))
        if not advertisement.is_complete and not advertisement.is_truncated:
            return
        del pending[key]
        data = b''.join(parts)
        say('advertisement', address=address, legacy=bool(advertisement.is_legacy), sid=advertisement.sid,
            primary_phy=advertisement.primary_phy, secondary_phy=advertisement.secondary_phy,
            truncated=bool(advertisement.is_truncated), fragments=len(parts), data=data.hex())
        if args.until_size and len(data) >= args.until_size and not advertisement.is_truncated:
            found.set()

    device.on('advertisement', on_advertisement)
    await device.start_scanning(legacy=False, active=False, filter_duplicates=False, scanning_phys=(hci.HCI_LE_1M_PHY,))
    say('scanning')
    try:
        await asyncio.wait_for(found.wait(), timeout=args.seconds)
    except asyncio.TimeoutError:
        pass
    await device.stop_scanning()
    await transport.close()
    return 0 if not args.until_size or found.is_set() else 1


def main() -> int:
    parser = argparse.ArgumentParser(description='Bumble extended advertiser and scanner for SwiftBLE interop tests.')
    parser.add_argument('--port', type=int, required=True, help='controller port on 127.0.0.1')
    parser.add_argument('-v', '--verbose', action='store_true')
    roles = parser.add_subparsers(dest='role', required=True)
    sub = roles.add_parser('advertise')
    sub.add_argument('--size', type=int, default=1000)
    sub.add_argument('--sid', type=int, default=5)
    sub.add_argument('--seconds', type=float, default=0, help='stop after S seconds (default: run until killed)')
    sub = roles.add_parser('scan')
    sub.add_argument('--seconds', type=float, default=10)
    sub.add_argument('--until-size', type=int, help='stop once an advertisement of this many octets is heard whole (exit 1 if never)')
    args = parser.parse_args()
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.ERROR, stream=sys.stderr)
    return asyncio.run(advertise(args) if args.role == 'advertise' else scan(args))


if __name__ == '__main__':
    sys.exit(main())
