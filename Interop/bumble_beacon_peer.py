#!/usr/bin/env python3
"""SwiftBLE beacon interop peer: a Bumble host on one H4-over-TCP controller (a stock Bumble
controller of bumble_controllers.py, or a device of `ble sim serve`), printing one JSON object
per line on stdout.

    bumble_beacon_peer.py --port P ibeacon [--uuid U] [--major M] [--minor N] [--power DBM] [--seconds S]
    bumble_beacon_peer.py --port P scan    [--seconds S] [--until-uuid U]

ibeacon advertises `02 01 06 1A FF 4C 00 02 15` + UUID + major + minor (big-endian) + measured
power as a non-connectable, non-scannable advertisement every 100 ms and prints
{"event": "advertising", "data": hex}. (On a stock Bumble controller the Bumble host uses the
extended commands with legacy PDUs, and the controller ignores the event properties: the frame
reaches scanners as a "connectable" report. The octets are what matter.)

scan scans passively with duplicates and decodes every report whose advertising data holds an
iBeacon frame, independently of SwiftBLE's decoder (Apple's layout: company 0x004C, type 0x02,
length 0x15), printing {"event": "ibeacon", "address" (no type suffix), "public", "rssi", "connectable", "uuid", "major",
"minor", "measured_power", "data"}; the last line is {"event": "summary", "reports", "ibeacons"}.

Exit status 0 means the role did what it was asked (scan --until-uuid: that UUID was heard).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import struct
import sys
import time
import uuid as uuidlib

from bumble import hci
from bumble.device import AdvertisingType, Device, DeviceConfiguration
from bumble.transport import open_transport

ROLE_ADDRESSES = {'ibeacon': 'C0:BE:AC:00:00:01', 'scan': 'C0:BE:AC:00:00:02'}
START = time.monotonic()


def say(event: str, **fields) -> None:
    """One JSON line, flushed, so a parent reading the pipe sees it at once."""
    sys.stdout.write(json.dumps({'event': event, 'elapsed': round(time.monotonic() - START, 3), **fields}) + '\n')
    sys.stdout.flush()


def ibeacon_frame(proximity_uuid: str, major: int, minor: int, power: int) -> bytes:
    """Flags (LE General Discoverable, BR/EDR not supported) and Apple's iBeacon structure."""
    payload = struct.pack('<H', 0x004C) + bytes([0x02, 0x15]) + uuidlib.UUID(proximity_uuid).bytes
    payload += struct.pack('>HHb', major, minor, power)
    return bytes([0x02, 0x01, 0x06, len(payload) + 1, 0xFF]) + payload


def decode_ibeacon(data: bytes) -> dict | None:
    """The iBeacon in advertising data, walked structure by structure; None if there is none."""
    index = 0
    while index < len(data):
        length = data[index]
        if length == 0 or index + 1 + length > len(data):
            return None
        ad_type, payload = data[index + 1], data[index + 2:index + 1 + length]
        if ad_type == 0xFF and len(payload) == 25 and payload[:4] == b'\x4c\x00\x02\x15':
            major, minor, power = struct.unpack('>HHb', payload[20:25])
            return {'uuid': str(uuidlib.UUID(bytes=bytes(payload[4:20]))).upper(), 'major': major, 'minor': minor,
                    'measured_power': power}
        index += 1 + length
    return None


async def open_device(args):
    transport = await open_transport(f'tcp-client:127.0.0.1:{args.port}')
    config = DeviceConfiguration()
    config.name = 'SwiftBLE beacon peer'
    config.address = hci.Address(ROLE_ADDRESSES[args.role])
    device = Device.from_config_with_hci(config, transport.source, transport.sink)
    await device.power_on()
    say('powered_on', role=args.role, address=str(config.address), port=args.port)
    return device, transport


async def ibeacon(args) -> int:
    device, transport = await open_device(args)
    data = ibeacon_frame(args.uuid, args.major, args.minor, args.power)
    await device.start_advertising(advertising_type=AdvertisingType.UNDIRECTED, advertising_data=data,
                                   scan_response_data=b'', advertising_interval_min=100, advertising_interval_max=100)
    say('advertising', data=data.hex())
    if args.seconds > 0:
        await asyncio.sleep(args.seconds)
    else:
        await asyncio.get_running_loop().create_future()  # until killed
    await device.stop_advertising()
    await transport.close()
    return 0


async def scan(args) -> int:
    device, transport = await open_device(args)
    reports = 0
    heard: set[str] = set()
    found = asyncio.Event()

    def on_advertisement(advertisement) -> None:
        nonlocal reports
        reports += 1
        data = bytes(advertisement.data_bytes)
        beacon = decode_ibeacon(data)
        if beacon is None:
            return
        heard.add(beacon['uuid'])
        address = advertisement.address
        say('ibeacon', address=address.to_string(with_type_qualifier=False), public=bool(address.is_public),
            rssi=advertisement.rssi,
            connectable=bool(advertisement.is_connectable), data=data.hex(), **beacon)
        if args.until_uuid and beacon['uuid'] == args.until_uuid.upper():
            found.set()

    device.on('advertisement', on_advertisement)
    await device.start_scanning(active=False, filter_duplicates=False)
    say('scanning')
    try:
        await asyncio.wait_for(found.wait(), timeout=args.seconds)
    except asyncio.TimeoutError:
        pass
    await device.stop_scanning()
    say('summary', reports=reports, ibeacons=sorted(heard))
    await transport.close()
    return 0 if not args.until_uuid or args.until_uuid.upper() in heard else 1


def main() -> int:
    parser = argparse.ArgumentParser(description='Bumble iBeacon advertiser and decoder for SwiftBLE interop tests.')
    parser.add_argument('--port', type=int, required=True, help='controller port on 127.0.0.1')
    parser.add_argument('-v', '--verbose', action='store_true')
    roles = parser.add_subparsers(dest='role', required=True)
    sub = roles.add_parser('ibeacon')
    sub.add_argument('--uuid', default='E2C56DB5-DFFB-48D2-B060-D0F5A71096E0')
    sub.add_argument('--major', type=int, default=1)
    sub.add_argument('--minor', type=int, default=2)
    sub.add_argument('--power', type=int, default=-59)
    sub.add_argument('--seconds', type=float, default=0, help='stop after S seconds (default: run until killed)')
    sub = roles.add_parser('scan')
    sub.add_argument('--seconds', type=float, default=10)
    sub.add_argument('--until-uuid', help='stop as soon as an iBeacon with this UUID is heard (exit 1 if never)')
    args = parser.parse_args()
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.ERROR, stream=sys.stderr)
    return asyncio.run(ibeacon(args) if args.role == 'ibeacon' else scan(args))


if __name__ == '__main__':
    sys.exit(main())
