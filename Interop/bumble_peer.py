#!/usr/bin/env python3
"""SwiftBLE interop peer: a Bumble host on one H4-over-TCP controller (e.g. a device of
`ble sim serve`), playing one role and printing one JSON object per line on stdout.

    bumble_peer.py --port P advertise   [--name N] [--seconds S] [--name-in-advertising] [--manufacturer HEX]
    bumble_peer.py --port P connect     ADDRESS [--hold S] [--reason R]
    bumble_peer.py --port P scan        [--seconds S] [--until-name N]
    bumble_peer.py --port P gatt-server [--name N] [--seconds S]
    bumble_peer.py --port P gatt-client ADDRESS [--mtu M]

Every line has "event"; the last line of scan and gatt-client is "summary" or "done". connect also
reports "parameters_updated" when the connection's parameters change (e.g. after the peripheral's
L2CAP Connection Parameter Update Request, which Bumble's central accepts and applies itself).
L2CAP roles (credit-based channels, broken signaling) are in bumble_l2cap_peer.py.
Exit status 0 means the role did everything it was asked; failures print {"event": "error"}.
With --stdin-lifeline a role also ends at end of file on stdin: a test that starts a peer with
a pipe as its stdin then never leaves it running after the test died.
Diagnostics go to stderr (-v for Bumble's logs).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import struct
import sys
import time

from bumble import gatt, hci
from bumble.core import ProtocolError
from bumble.device import Device, DeviceConfiguration, Peer
from bumble.pairing import PairingConfig, PairingDelegate
from bumble.transport import open_transport

# Random static addresses (top two bits set), one per role, so two peers never collide.
ROLE_ADDRESSES = {
    'advertise': 'C0:5B:00:00:00:01',
    'gatt-server': 'C0:5B:00:00:00:02',
    'scan': 'C0:5B:00:00:00:03',
    'gatt-client': 'C0:5B:00:00:00:04',
    'connect': 'C0:5B:00:00:00:05',
}

SERVICE = 'A7E3C0DE-5B1E-4E6B-9F00-000000000001'
PLAIN_CHARACTERISTIC = 'A7E3C0DE-5B1E-4E6B-9F00-000000000002'
SECRET_CHARACTERISTIC = 'A7E3C0DE-5B1E-4E6B-9F00-000000000003'
PLAIN_VALUE = b'hello from bumble'
SECRET_VALUE = b'encrypted hello'

START = time.monotonic()


def say(event: str, **fields) -> None:
    """One JSON line, flushed, so a parent reading the pipe sees it at once."""
    record = {'event': event, 'elapsed': round(time.monotonic() - START, 3), **fields}
    sys.stdout.write(json.dumps(record) + '\n')
    sys.stdout.flush()


def structure(ad_type: int, payload: bytes) -> bytes:
    return bytes([len(payload) + 1, ad_type]) + payload


def structures(data: bytes) -> list[tuple[int, bytes]]:
    """AD structures of advertising data, stopping at padding or a truncated one."""
    result, index = [], 0
    while index < len(data):
        length = data[index]
        if length == 0 or index + 1 + length > len(data):
            break
        result.append((data[index + 1], data[index + 2:index + 1 + length]))
        index += 1 + length
    return result


def local_name(data: bytes) -> str | None:
    for ad_type, payload in structures(data):
        if ad_type in (0x08, 0x09):
            return payload.decode('utf-8', errors='replace')
    return None


def uuid_text(uuid) -> str:
    return uuid.to_hex_str() if len(uuid.uuid_bytes) <= 4 else str(uuid).upper()


async def open_device(args, name: str, advertising: bytes = b'', scan_response: bytes = b'') -> tuple[Device, object]:
    transport = await open_transport(f'tcp-client:127.0.0.1:{args.port}')
    config = DeviceConfiguration()
    config.name = name
    config.address = hci.Address(args.address or ROLE_ADDRESSES[args.role])
    config.advertising_data = advertising
    config.scan_response_data = scan_response
    config.advertising_interval_min = 100
    config.advertising_interval_max = 100
    device = Device.from_config_with_hci(config, transport.source, transport.sink)
    await device.power_on()
    say('powered_on', role=args.role, address=str(config.address), port=args.port)
    return device, transport


def accept_secure_connections(device: Device) -> None:
    """LE Secure Connections, Just Works, with bonding: both sides use this."""
    device.pairing_config_factory = lambda connection: PairingConfig(
        sc=True, mitm=False, bonding=True, delegate=PairingDelegate())


def report_connections(device: Device) -> None:
    def on_connection(connection):
        say('connected', peer=str(connection.peer_address), handle=connection.handle)
        connection.on('disconnection', lambda reason: say('disconnected', reason=int(reason)))
        connection.on('pairing', lambda keys: say('paired', peer=str(connection.peer_address)))
        connection.on('pairing_failure', lambda reason: say('pairing_failure', reason=int(reason)))
    device.on('connection', on_connection)


async def wait(seconds: float) -> None:
    if seconds > 0:
        await asyncio.sleep(seconds)
    else:
        await asyncio.get_running_loop().create_future()  # until killed


async def advertise(args) -> int:
    advertising = structure(0x01, b'\x06') + structure(0x03, struct.pack('<H', 0x180F))
    scan_response = structure(0x09, args.name.encode())
    if args.name_in_advertising:
        # For controllers that never send scan responses (stock Bumble, NOTES.md §3.13 #5).
        advertising += scan_response
    if args.manufacturer:
        advertising += structure(0xFF, bytes.fromhex(args.manufacturer))
    device, transport = await open_device(args, args.name, advertising, scan_response)
    report_connections(device)
    await device.start_advertising(auto_restart=True)
    say('advertising', name=args.name, data=advertising.hex(), scan_response=scan_response.hex())
    await wait(args.seconds)
    await transport.close()
    return 0


async def scan(args) -> int:
    device, transport = await open_device(args, 'SwiftBLE scanner')
    names: set[str] = set()
    count = 0
    found = asyncio.Event()

    def on_advertisement(advertisement) -> None:
        nonlocal count
        count += 1
        data = bytes(advertisement.data_bytes)
        name = local_name(data)
        if name:
            names.add(name)
        say('report', address=str(advertisement.address), rssi=advertisement.rssi,
            scan_response=bool(advertisement.is_scan_response), connectable=bool(advertisement.is_connectable),
            name=name, data=data.hex())
        if args.until_name and name == args.until_name:
            found.set()

    device.on('advertisement', on_advertisement)
    await device.start_scanning(legacy=True, active=True, filter_duplicates=False)
    try:
        await asyncio.wait_for(found.wait(), timeout=args.seconds)
    except asyncio.TimeoutError:
        pass
    await device.stop_scanning(legacy=True)
    say('summary', reports=count, names=sorted(names))
    await transport.close()
    return 0 if not args.until_name or args.until_name in names else 1


async def gatt_server(args) -> int:
    advertising = structure(0x01, b'\x06') + structure(0x09, args.name.encode())
    device, transport = await open_device(args, args.name, advertising)
    report_connections(device)
    accept_secure_connections(device)
    readable = gatt.Characteristic.READABLE
    read = gatt.Characteristic.Properties.READ
    device.add_services([
        gatt.Service(gatt.GATT_BATTERY_SERVICE, [
            gatt.Characteristic(gatt.GATT_BATTERY_LEVEL_CHARACTERISTIC, read, readable, bytes([87])),
        ]),
        gatt.Service(gatt.GATT_DEVICE_INFORMATION_SERVICE, [
            gatt.Characteristic(gatt.GATT_MANUFACTURER_NAME_STRING_CHARACTERISTIC, read, readable, b'SwiftBLE interop'),
        ]),
        gatt.Service(SERVICE, [
            gatt.Characteristic(PLAIN_CHARACTERISTIC, read, readable, PLAIN_VALUE),
            gatt.Characteristic(SECRET_CHARACTERISTIC, read, gatt.Characteristic.READ_REQUIRES_ENCRYPTION, SECRET_VALUE),
        ]),
    ])
    await device.start_advertising(auto_restart=True)
    say('advertising', name=args.name, address=str(device.random_address))
    await wait(args.seconds)
    await transport.close()
    return 0


async def gatt_client(args) -> int:
    device, transport = await open_device(args, 'SwiftBLE client')
    report_connections(device)
    accept_secure_connections(device)
    target = args.target
    kind = hci.Address.PUBLIC_DEVICE_ADDRESS if target.upper().endswith('/P') else hci.Address.RANDOM_DEVICE_ADDRESS
    connection = await device.connect(hci.Address(target.split('/')[0], kind), timeout=args.connect_timeout)
    peer = Peer(connection)
    mtu = await peer.request_mtu(args.mtu)
    say('mtu', mtu=mtu)
    await peer.discover_services()
    services = []
    secret = None
    for service in peer.services:
        await service.discover_characteristics()
        characteristics = []
        for characteristic in service.characteristics:
            await characteristic.discover_descriptors()
            entry = {'uuid': uuid_text(characteristic.uuid), 'handle': characteristic.handle,
                     'descriptors': [uuid_text(d.type) for d in characteristic.descriptors]}
            if uuid_text(characteristic.uuid) == SECRET_CHARACTERISTIC:
                secret = characteristic
            if characteristic.properties & gatt.Characteristic.Properties.READ:
                try:
                    entry['value'] = bytes(await characteristic.read_value()).hex()
                except ProtocolError as error:
                    entry['error'] = error.error_name or str(error.error_code)
            characteristics.append(entry)
        services.append({'uuid': uuid_text(service.uuid), 'characteristics': characteristics})
    say('discovered', services=services)
    if secret is None:
        say('error', error='the secret characteristic was not discovered')
        return 1
    await connection.pair()
    say('encrypted', encryption=int(connection.encryption))
    value = bytes(await secret.read_value())
    say('secret', value=value.hex(), text=value.decode('utf-8', errors='replace'))
    await connection.disconnect()
    say('done', ok=value == SECRET_VALUE)
    await transport.close()
    return 0 if value == SECRET_VALUE else 1


async def connect(args) -> int:
    """Connects as central, reports it, then disconnects with --reason after --hold seconds
    (or reports the peer's disconnection first)."""
    device, transport = await open_device(args, 'SwiftBLE connector')
    ended = asyncio.get_running_loop().create_future()

    def on_connection(connection) -> None:
        # Registered as the connection comes up, not after device.connect() below returns:
        # one read from the controller can carry the connection, a parameter update and the
        # peer's disconnection together, and Bumble handles them all before connect() resumes.
        connection.on('connection_parameters_update', lambda: say(
            'parameters_updated', interval_ms=connection.parameters.connection_interval,
            latency=connection.parameters.peripheral_latency, timeout_ms=connection.parameters.supervision_timeout))
        connection.on('disconnection', lambda reason: ended.done() or ended.set_result(int(reason)))

    device.on('connection', on_connection)
    target = args.target
    kind = hci.Address.PUBLIC_DEVICE_ADDRESS if target.upper().endswith('/P') else hci.Address.RANDOM_DEVICE_ADDRESS
    connection = await device.connect(hci.Address(target.split('/')[0], kind), timeout=args.connect_timeout)
    say('connected', peer=str(connection.peer_address), handle=connection.handle, role=int(connection.role))
    try:
        reason = await asyncio.wait_for(asyncio.shield(ended), timeout=args.hold)
        say('disconnected', reason=reason, by='peer')
    except asyncio.TimeoutError:
        await connection.disconnect(reason=args.reason)
        say('disconnected', reason=await ended, by='us')
    await transport.close()
    return 0


async def until_stdin_closes() -> None:
    """Returns at end of file on stdin (the parent that holds it has gone); never, when stdin is
    a file or /dev/null."""
    loop = asyncio.get_running_loop()
    closed = loop.create_future()

    def readable() -> None:
        try:
            data = os.read(sys.stdin.fileno(), 1024)
        except OSError:
            data = b''
        if not data:
            loop.remove_reader(sys.stdin.fileno())
            if not closed.done():
                closed.set_result(None)

    try:
        loop.add_reader(sys.stdin.fileno(), readable)
    except (OSError, ValueError):
        pass  # a file or /dev/null cannot be watched: nothing to outlive, run until killed
    await closed


async def run_role(handler, args) -> int:
    """The role; with --stdin-lifeline ended early (status 0) if stdin closes first."""
    if not args.stdin_lifeline:
        return await handler(args)
    role = asyncio.ensure_future(handler(args))
    parent = asyncio.ensure_future(until_stdin_closes())
    done, _ = await asyncio.wait({role, parent}, return_when=asyncio.FIRST_COMPLETED)
    if role in done:
        parent.cancel()
        return role.result()
    role.cancel()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description='SwiftBLE interop peer (Bumble host over H4/TCP).')
    parser.add_argument('--port', type=int, required=True, help='controller port on 127.0.0.1')
    parser.add_argument('--address', help='own random static address (default: one per role)')
    parser.add_argument('--stdin-lifeline', action='store_true',
                        help='end at end of file on stdin (the parent that holds it has gone)')
    parser.add_argument('-v', '--verbose', action='store_true')
    roles = parser.add_subparsers(dest='role', required=True)
    for role in ('advertise', 'gatt-server'):
        sub = roles.add_parser(role)
        sub.add_argument('--name', default='SwiftBLE-Bumble' if role == 'advertise' else 'SwiftBLE-GATT')
        sub.add_argument('--seconds', type=float, default=0, help='stop after S seconds (default: run until killed)')
        if role == 'advertise':
            sub.add_argument('--name-in-advertising', action='store_true',
                             help='also put the name in the advertising data, not only the scan response')
            sub.add_argument('--manufacturer', help='manufacturer specific data (company id first, little-endian) as hex')
    sub = roles.add_parser('connect')
    sub.add_argument('target', help='peer address, random by default; add /P for public')
    sub.add_argument('--hold', type=float, default=2, help='seconds to stay connected before disconnecting')
    sub.add_argument('--reason', type=int, default=0x13, help='HCI reason for our disconnection (default 0x13)')
    sub.add_argument('--connect-timeout', type=float, default=10)
    sub = roles.add_parser('scan')
    sub.add_argument('--seconds', type=float, default=5)
    sub.add_argument('--until-name', help='stop as soon as this local name is seen (exit 1 if never)')
    sub = roles.add_parser('gatt-client')
    sub.add_argument('target', help='peer address, random by default; add /P for public')
    sub.add_argument('--mtu', type=int, default=247)
    sub.add_argument('--connect-timeout', type=float, default=10)
    args = parser.parse_args()
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING, stream=sys.stderr)
    handlers = {'advertise': advertise, 'scan': scan, 'gatt-server': gatt_server, 'gatt-client': gatt_client,
                'connect': connect}
    try:
        return asyncio.run(run_role(handlers[args.role], args))
    except KeyboardInterrupt:
        return 0
    except Exception as error:  # report, then fail: the test reads stdout
        say('error', error=repr(error))
        return 1


if __name__ == '__main__':
    sys.exit(main())
