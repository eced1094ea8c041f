#!/usr/bin/env python3
"""SwiftBLE GATT interop peer: a Bumble host on one H4-over-TCP controller (a stock Bumble
controller of bumble_controllers.py, or a device of `ble sim serve`) playing a GATT server or
a GATT client, driven by JSON lines on stdin and reporting JSON lines on stdout.

    bumble_gatt_peer.py --port P --role server [--name N] [--mtu M] [--heart-rate] [--stdin-lifeline]
    bumble_gatt_peer.py --port P --role client ADDRESS [--mtu M] [--no-mtu-exchange]

ADDRESS is random by default; add /P for a public one. Every output line is one JSON object
with "event" and "elapsed" (seconds since start). A command is one line on stdin, either a
JSON object with a "command" key ({"command": "notify", "handle": 42, "count": 10}) or the
command's name followed by a JSON object or nothing (`notify {"handle": 42, "count": 10}`).
A "handle" may be a number, a "0x.." string, or a characteristic UUID ("2A19", 128-bit
uppercase) meaning that characteristic's value handle. An "id" in a command is copied into
the event that answers it. Commands run one at a time, in order; each is answered by exactly
one event (its result or {"event": "error", ...}).

The database document (the server prints it at start, the client after discovery) is the
shape of `ble gatt dump --json` in DESIGN.md:

    {"event": "database", "address": "C0:5B:00:00:00:21", "mtu": 517, "services": [
      {"uuid": "180A", "primary": true, "startHandle": 1, "endHandle": 5,
       "includes": [{"handle": 12, "startHandle": 8, "endHandle": 11, "uuid": "180F"}],
       "characteristics": [{"uuid": "2A29", "handle": 2, "valueHandle": 3, "properties": 2,
                            "value": "4275...", "descriptors": [{"uuid": "2901", "handle": 4, "value": "..."}]}]}]}

UUIDs are "180D" for 16-bit ones and uppercase 128-bit text otherwise; values are lowercase
hex; a characteristic without the Read property has "value": null; services (secondary ones
too, primary false) are in handle order. The server's "mtu" is its preferred MTU, the client's
the negotiated one. The client adds "error": code to a characteristic or descriptor whose read
failed (then "value" is null).

Server (--role server): advertises flags, the 16-bit UUID 180A and its name every 100 ms and
serves the database of `services()` below. Events: "powered_on", "advertising", "database",
"connected" {peer, handle}, "mtu" {mtu} (after an MTU exchange), "write" {handle, uuid,
value} (every write to any attribute, a long write once when executed), "subscription"
{handle, uuid, notify, indicate} (a CCCD write), "disconnected" {reason}. Commands:
  notify {handle?, count=1, size=20}   sends COUNT notifications of SIZE octets (4..MTU-3);
      the first 4 octets are a sequence number (uint32 little-endian) that starts at 0 on each
      connection and goes on across commands; answered by "notified" {handle, count, size,
      first, last, seconds} once the controller has taken them all.
      Default handle: the notify characteristic (...A5).
  indicate {handle?, count=1, size=20} same with indications, each awaiting its confirmation;
      answered by "indicated". Default handle: the indicate characteristic (...A6).
  mtu {value}   the MTU the server offers in later MTU exchanges; answered by "preferredMtu".
  database      prints the database again, values as they are now (values written by a
      client stay for later connections; only CCCDs are per connection).
  disconnect    disconnects the current connection; answered by "disconnected".
Errors: {"event": "error", "command", "error": text}.

Client (--role client ADDRESS): connects, exchanges the MTU (--mtu, default 517), discovers
all primary services, their included services (and the secondary services they name), all
characteristics and descriptors, reads every value with the Read property and every
descriptor (Read, then Read Blob while parts are full), prints "database", then runs commands:
  write {handle, hex, withResponse=true}   Write Request (value at most MTU-3 octets) or Write
      Command; answered by "written" {handle, length, withResponse}.
  writeLong {handle, hex, offset=0}   Prepare Write Requests of MTU-5 octets, then Execute
      Write (flags 1); on an error, Execute Write (flags 0) to cancel; answered by "written"
      {handle, length, long: true}.
  read {handle, offset?}   no offset: Read then Read Blob while parts are full; an offset:
      Read Blob from there on; answered by "read" {handle, offset, value}.
  subscribe {handle, indicate=false, expect?, log=false}   writes the characteristic's CCCD
      (0001 or 0002; "cccd" gives its handle when it was not discovered); answered by
      "subscribed" {handle, cccd, indicate}. With expect N, "received" is printed by itself
      when N values have arrived; with log, each value is printed as "value" {handle, kind,
      sequence, length, value}.
  unsubscribe {handle}   writes 0000 to the CCCD; answered by "unsubscribed".
  stats {handle?}   answered by "received" for that handle, or one per handle seen.
  discover   rediscovers and rereads everything; answered by "database".
  disconnect   answered by "disconnected", then the client exits.
"received" {handle, kind ("notification" | "indication"), count, bytes, firstSequence,
lastSequence, outOfOrder, missing, inOrder, seconds (first to last value)}: sequence numbers
are the first 4 octets (uint32 LE); missing counts skipped numbers, outOfOrder values not
greater than the one before. Every notification and indication is counted, subscribed or not.
ATT errors are {"event": "error", "command", "handle", "code": N, "name"}; others
{"event": "error", "command", "error": text}. At end of file on stdin the client disconnects
and exits ("done"); the server keeps serving unless --stdin-lifeline. The peer's own
disconnection prints "disconnected" {reason}; the client then exits.

check_bumble_gatt_peer.py runs both roles against each other (Bumble against Bumble).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import struct
import sys
import time

from bumble import att, gatt, hci
from bumble.core import UUID

import bumble_peer
from bumble_peer import open_device, structure, uuid_text

bumble_peer.ROLE_ADDRESSES.update({'server': 'C0:5B:00:00:00:21', 'client': 'C0:5B:00:00:00:22'})

BASE = 'A7E3C0DE-5B1E-4E6B-9F00-0000000000'
TEST_SERVICE = BASE + 'A0'
READ_ONLY, LONG, READ_WRITE, WRITE_ONLY, NOTIFY, INDICATE, SIGNED = (BASE + f'A{index}' for index in range(1, 8))
CUSTOM_DESCRIPTOR = BASE + 'AF'
LONG_VALUE = bytes((index * 7 + 3) & 0xFF for index in range(400))
ADVERTISED_SERVICE = 0x180A
START = time.monotonic()
Props = gatt.Characteristic.Properties


def say(event: str, **fields) -> None:
    """One JSON line, flushed (bumble_peer.say with this module's start time)."""
    sys.stdout.write(json.dumps({'event': event, 'elapsed': round(time.monotonic() - START, 3), **fields}) + '\n')
    sys.stdout.flush()


class Stored:
    """A value held here and served through Bumble with the permissions enforced: Bumble's
    server sends any attribute's value and accepts any write whatever its Readable and
    Writeable permissions say (docs/bumble-quirks.md), so these raise the spec's errors."""

    def __init__(self, value: bytes, readable: bool = True, writable: bool = False) -> None:
        self.value, self.readable, self.writable = value, readable, writable

    def read(self, _connection) -> bytes:
        if not self.readable:
            raise att.ATT_Error(att.ATT_READ_NOT_PERMITTED_ERROR)
        return self.value

    def write(self, _connection, value: bytes) -> None:
        if not self.writable:
            raise att.ATT_Error(att.ATT_WRITE_NOT_PERMITTED_ERROR)
        self.value = bytes(value)

    def attribute_value(self) -> gatt.CharacteristicValue:
        return gatt.CharacteristicValue(read=self.read, write=self.write)


def characteristic(uuid, properties, value: bytes, descriptors=(), readable=True, writable=False):
    permissions = (att.Attribute.READABLE if readable else 0) | (att.Attribute.WRITEABLE if writable else 0)
    return gatt.Characteristic(uuid, properties, permissions, Stored(value, readable, writable).attribute_value(),
                               list(descriptors))


def descriptor(uuid, value: bytes, writable=False):
    permissions = att.Attribute.READABLE | (att.Attribute.WRITEABLE if writable else 0)
    return gatt.Descriptor(uuid, permissions, Stored(value, True, writable).attribute_value())


def user_description(text: str):
    return descriptor(gatt.GATT_CHARACTERISTIC_USER_DESCRIPTION_DESCRIPTOR, text.encode())


def presentation_format(format_: int, exponent: int, unit: int, namespace: int = 1, description: int = 0):
    """Characteristic Presentation Format (Core Vol 3, Part G, §3.3.3.5)."""
    return descriptor(gatt.GATT_CHARACTERISTIC_PRESENTATION_FORMAT_DESCRIPTOR,
                      struct.pack('<BbHBH', format_, exponent, unit, namespace, description))


def services() -> list[gatt.Service]:
    """The fixed database (after Bumble's own GAP 0x1800 and GATT 0x1801 services).

    Every characteristic property appears at least once; the secondary Battery service is
    included by the test service (a 16-bit UUID: Bumble writes a wrong Include declaration
    for a 128-bit included service, docs/bumble-quirks.md). Handles: 1800 1-5, 1801 6-13,
    180A 14-18, 180F (secondary) 19-23, test service 24-51."""
    battery = gatt.Service(gatt.GATT_BATTERY_SERVICE, [
        characteristic(gatt.GATT_BATTERY_LEVEL_CHARACTERISTIC, Props.READ | Props.NOTIFY, bytes([87]),
                       [presentation_format(0x04, 0, 0x27AD)]),
    ], primary=False)
    test = gatt.Service(TEST_SERVICE, [
        characteristic(READ_ONLY, Props.READ, b'SwiftBLE read-only',
                       [user_description('Read-only value'), presentation_format(0x19, 0, 0x2700)]),
        characteristic(LONG, Props.READ, LONG_VALUE, [user_description('400-octet value')]),
        characteristic(READ_WRITE, Props.READ | Props.WRITE | Props.WRITE_WITHOUT_RESPONSE | Props.EXTENDED_PROPERTIES,
                       b'initial', [# static: Bumble's Database Hash needs its bytes
                                    gatt.Descriptor(gatt.GATT_CHARACTERISTIC_EXTENDED_PROPERTIES_DESCRIPTOR,
                                                    att.Attribute.READABLE, b'\x01\x00'),
                                    user_description('Writable value'),
                                    descriptor(CUSTOM_DESCRIPTOR, b'custom descriptor', writable=True)],
                       writable=True),
        characteristic(WRITE_ONLY, Props.WRITE, b'', [user_description('Write-only value')], readable=False,
                       writable=True),
        characteristic(NOTIFY, Props.READ | Props.NOTIFY, bytes(4), [user_description('Notifications')]),
        characteristic(INDICATE, Props.READ | Props.INDICATE, bytes(4), [user_description('Indications')]),
        characteristic(SIGNED, Props.BROADCAST | Props.READ | Props.WRITE | Props.AUTHENTICATED_SIGNED_WRITES,
                       b'signed', [descriptor(gatt.GATT_SERVER_CHARACTERISTIC_CONFIGURATION_DESCRIPTOR, b'\x00\x00',
                                              writable=True)], writable=True),
    ], included_services=[battery])
    information = gatt.Service(gatt.GATT_DEVICE_INFORMATION_SERVICE, [
        characteristic(gatt.GATT_MANUFACTURER_NAME_STRING_CHARACTERISTIC, Props.READ, b'Bumble'),
        characteristic(gatt.GATT_MODEL_NUMBER_STRING_CHARACTERISTIC, Props.READ, b'SwiftBLE GATT peer'),
    ])
    # The secondary service goes in before the service that includes it: Bumble would
    # otherwise put it inside the including service's handle range (docs/bumble-quirks.md).
    return [information, battery, test]


def heart_rate_service() -> gatt.Service:
    """A Heart Rate service (HRS 1.0) for Core Bluetooth-style centrals (--heart-rate): the
    measurement notifies only (reading it is Read Not Permitted), the body sensor location
    reads 1 (chest). It goes after the fixed database, so the handles above do not move."""
    return gatt.Service(gatt.GATT_HEART_RATE_SERVICE, [
        characteristic(gatt.GATT_HEART_RATE_MEASUREMENT_CHARACTERISTIC, Props.NOTIFY, bytes(4), readable=False),
        characteristic(gatt.GATT_BODY_SENSOR_LOCATION_CHARACTERISTIC, Props.READ, bytes([1])),
    ])


def parse_handle(value, resolve) -> int:
    """A command's handle: a number, "0x..", or a characteristic UUID (its value handle)."""
    if isinstance(value, int):
        return value
    text = str(value)
    if text.lower().startswith('0x'):
        return int(text, 16)
    if text.isdigit():
        return int(text)
    return resolve(text)


def parse_command(line: str) -> dict:
    line = line.strip()
    if line.startswith('{'):
        command = json.loads(line)
        command.setdefault('command', command.pop('cmd', None))
        return command
    name, _, rest = line.partition(' ')
    command = json.loads(rest) if rest.strip() else {}
    command['command'] = name
    return command


async def stdin_lines():
    """Lines of stdin as they come, without a thread (a blocked thread would keep the process
    alive at exit); a regular file is read at once."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    try:
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    except ValueError:  # a regular file: no pipe to watch
        for line in sys.stdin.read().splitlines():
            yield line
        return
    while line := await reader.readline():
        yield line.decode(errors='replace')


async def run_commands(handlers: dict, resolve, on_eof) -> None:
    async for line in stdin_lines():
        if not line.strip():
            continue
        try:
            command = parse_command(line)
        except (ValueError, TypeError) as error:
            say('error', command=None, error=f'unreadable command: {error}')
            continue
        name = command.get('command')
        extra = {'id': command['id']} if 'id' in command else {}
        handler = handlers.get(name)
        if handler is None:
            say('error', command=name, error='unknown command', **extra)
            continue
        try:
            if 'handle' in command:
                command['handle'] = parse_handle(command['handle'], resolve)
            await handler(command, extra)
        except att.ATT_Error as error:
            say('error', command=name, handle=command.get('handle'), code=int(error.error_code),
                name=att.ErrorCode(error.error_code).name if error.error_code in att.ErrorCode._value2member_map_
                else str(error.error_code), **extra)
        except Exception as error:  # report and go on: the test reads stdout
            say('error', command=name, error=repr(error), **extra)
    await on_eof()


def address_text(address: hci.Address) -> str:
    return address.to_string(False)


# ----------------------------------------------------------------------------- server

class StandInConnection:
    """What Bumble's attribute reads look at in a connection (hashable: CCCD reads use it
    as a key), for printing the database with no client connected."""

    def __init__(self, device) -> None:
        self.device, self.encryption, self.authenticated, self.handle = device, 0, False, 0


class Server:
    """The server role: one connection at a time (the latest one)."""

    def __init__(self, args) -> None:
        self.args = args
        self.device = None
        self.connection = None
        self.sequence: dict[int, int] = {}

    async def run(self) -> int:
        advertised = [ADVERTISED_SERVICE] + ([0x180D] if self.args.heart_rate else [])
        advertising = (structure(0x01, b'\x06') + structure(0x03, struct.pack(f'<{len(advertised)}H', *advertised))
                       + structure(0x09, self.args.name.encode()))
        self.device, transport = await open_device(self.args, self.args.name, advertising)
        self.device.gatt_server.max_mtu = self.args.mtu
        self.device.add_services(services() + ([heart_rate_service()] if self.args.heart_rate else []))
        for attribute in self.device.gatt_server.attributes:
            attribute.on('write', lambda _connection, value, attribute=attribute: say(
                'write', handle=attribute.handle, uuid=uuid_text(attribute.type), value=bytes(value).hex()))
        self.device.gatt_server.on('characteristic_subscription', lambda _bearer, characteristic, notify, indicate: say(
            'subscription', handle=characteristic.handle, uuid=uuid_text(characteristic.uuid), notify=notify,
            indicate=indicate))
        self.device.on('connection', self.on_connection)
        await self.device.start_advertising(auto_restart=True)
        say('advertising', name=self.args.name, address=address_text(self.device.random_address),
            service=f'{ADVERTISED_SERVICE:04X}')
        say('database', **await self.database())

        async def at_eof() -> None:
            if not self.args.stdin_lifeline:
                await asyncio.get_running_loop().create_future()  # serve until killed

        await run_commands({'notify': self.notify, 'indicate': self.indicate, 'mtu': self.mtu,
                            'database': self.print_database, 'disconnect': self.disconnect},
                           self.value_handle, at_eof)
        await transport.close()
        return 0

    def on_connection(self, connection) -> None:
        self.connection = connection
        self.sequence = {}
        say('connected', peer=str(connection.peer_address), handle=connection.handle)
        connection.on('connection_att_mtu_update', lambda: say('mtu', mtu=connection.att_mtu))

        def on_disconnection(reason) -> None:
            if self.connection is connection:
                self.connection = None
            say('disconnected', reason=int(reason))

        connection.on('disconnection', on_disconnection)

    def value_handle(self, uuid: str) -> int:
        for attribute in self.device.gatt_server.attributes:
            if isinstance(attribute, gatt.Characteristic) and uuid_text(attribute.uuid) == uuid.upper():
                return attribute.handle
        raise ValueError(f'no characteristic {uuid}')

    async def database(self) -> dict:
        """The database as served, read through Bumble's own attribute code (a stand-in
        connection: the values do not depend on one, CCCDs read 0000)."""
        stand_in = StandInConnection(self.device)
        entries: list[dict] = []
        current_characteristic = None
        for attribute in self.device.gatt_server.attributes:
            if isinstance(attribute, gatt.Service):
                entries.append({'uuid': uuid_text(attribute.uuid), 'primary': bool(attribute.primary),
                                'startHandle': attribute.handle, 'endHandle': attribute.end_group_handle,
                                'includes': [], 'characteristics': []})
                current_characteristic = None
            elif isinstance(attribute, gatt.IncludedServiceDeclaration):
                included = attribute.service
                entries[-1]['includes'].append({'handle': attribute.handle, 'startHandle': included.handle,
                                                'endHandle': included.end_group_handle,
                                                'uuid': uuid_text(included.uuid)})
            elif isinstance(attribute, gatt.CharacteristicDeclaration):
                current_characteristic = {'uuid': uuid_text(attribute.characteristic.uuid), 'handle': attribute.handle,
                                          'valueHandle': attribute.value_handle,
                                          'properties': int(attribute.characteristic.properties), 'value': None,
                                          'descriptors': []}
                entries[-1]['characteristics'].append(current_characteristic)
            elif isinstance(attribute, gatt.Characteristic):
                if attribute.properties & Props.READ:
                    current_characteristic['value'] = bytes(await attribute.read_value(stand_in)).hex()
            elif current_characteristic is not None:
                current_characteristic['descriptors'].append({'uuid': uuid_text(attribute.type),
                                                              'handle': attribute.handle,
                                                              'value': bytes(await attribute.read_value(stand_in)).hex()})
        return {'address': address_text(self.device.random_address), 'mtu': self.device.gatt_server.max_mtu,
                'services': entries}

    async def print_database(self, _command, extra) -> None:
        say('database', **await self.database(), **extra)

    async def mtu(self, command, extra) -> None:
        value = int(command['value'])
        if not 23 <= value <= 517:
            raise ValueError('the MTU must be 23 to 517')
        self.device.gatt_server.max_mtu = value
        say('preferredMtu', mtu=value, **extra)

    async def disconnect(self, _command, extra) -> None:
        if self.connection is None:
            raise RuntimeError('not connected')
        await self.connection.disconnect()
        say('disconnected', reason=0x16, by='us', **extra)

    def subscribed(self, handle: int, bit: int) -> bool:
        cccd = self.device.gatt_server.subscribers.get(self.connection, {}).get(handle, b'')
        return len(cccd) == 2 and bool(cccd[0] & bit)

    async def wait_for_controller(self) -> None:
        """Until the host has handed every queued ACL packet to the controller and the
        controller has completed it (Number Of Completed Packets)."""
        queue = self.device.host.le_acl_packet_queue
        while queue.pending > 0 and self.connection is not None:
            flowed = asyncio.get_running_loop().create_future()
            queue.once('flow', lambda: flowed.done() or flowed.set_result(None))
            await asyncio.wait_for(flowed, timeout=30)

    async def notify(self, command, extra) -> None:
        await self.send(command, extra, indicate=False)

    async def indicate(self, command, extra) -> None:
        await self.send(command, extra, indicate=True)

    async def send(self, command, extra, indicate: bool) -> None:
        name = 'indicate' if indicate else 'notify'
        if self.connection is None:
            raise RuntimeError('not connected')
        handle = command.get('handle') or self.value_handle(INDICATE if indicate else NOTIFY)
        attribute = self.device.gatt_server.get_attribute(handle)
        if not isinstance(attribute, gatt.Characteristic):
            raise ValueError(f'handle {handle} is not a characteristic value')
        count, size = int(command.get('count', 1)), int(command.get('size', 20))
        if not 4 <= size <= self.connection.att_mtu - 3:
            raise ValueError(f'size must be 4 to MTU-3 ({self.connection.att_mtu - 3})')
        if not self.subscribed(handle, 0x02 if indicate else 0x01):
            raise RuntimeError(f'the client has not enabled {name} on handle {handle}')
        filler = bytes(index & 0xFF for index in range(4, size))
        queue = self.device.host.le_acl_packet_queue
        first = self.sequence.get(handle, 0)
        started = time.monotonic()
        for sequence in range(first, first + count):
            if self.connection is None:
                raise RuntimeError('disconnected')
            value = struct.pack('<I', sequence & 0xFFFFFFFF) + filler
            if indicate:
                await self.device.indicate_subscriber(self.connection, attribute, value)
            else:
                await self.device.notify_subscriber(self.connection, attribute, value)
                if queue.pending > 256:  # pace: keep Bumble's host queue short
                    flowed = asyncio.get_running_loop().create_future()
                    queue.once('flow', lambda: flowed.done() or flowed.set_result(None))
                    await asyncio.wait_for(flowed, timeout=30)
            self.sequence[handle] = sequence + 1
        await self.wait_for_controller()
        say('indicated' if indicate else 'notified', handle=handle, count=count, size=size, first=first,
            last=first + count - 1, seconds=round(time.monotonic() - started, 3), **extra)


# ----------------------------------------------------------------------------- client

class Failed(Exception):
    """An ATT Error Response to one of our requests."""


class Client:
    """The client role: discovery by hand (Bumble's client keeps no declaration handles and
    hides some errors), values read with Read and Read Blob, writes, subscriptions."""

    def __init__(self, args) -> None:
        self.args = args
        self.connection = None
        self.gatt = None
        self.tree: list[dict] = []
        self.received: dict[int, dict] = {}
        self.watch: dict[int, dict] = {}
        self.ended = None

    async def request(self, pdu):
        response = await self.gatt.send_request(pdu)
        if response.op_code == att.Opcode.ATT_ERROR_RESPONSE:
            raise att.ATT_Error(response.error_code, response.attribute_handle_in_error)
        return response

    @property
    def mtu(self) -> int:
        return self.gatt.mtu

    async def run(self) -> int:
        device, transport = await open_device(self.args, 'SwiftBLE GATT client')
        target = self.args.target
        kind = hci.Address.PUBLIC_DEVICE_ADDRESS if target.upper().endswith('/P') else hci.Address.RANDOM_DEVICE_ADDRESS
        address = hci.Address(target.split('/')[0], kind)
        self.ended = asyncio.get_running_loop().create_future()
        # Listened for as the connection comes up: the peer's disconnection can arrive in the
        # same read as the connection, before device.connect() resumes.
        device.once('connection', lambda connection: connection.on(
            'disconnection', lambda reason: self.ended.done() or self.ended.set_result(int(reason))))
        self.connection = await device.connect(address, timeout=self.args.connect_timeout)
        say('connected', peer=str(self.connection.peer_address), handle=self.connection.handle)
        self.gatt = self.connection.gatt_client
        self.gatt.on_att_handle_value_notification = lambda pdu: self.on_value(pdu, 'notification')
        self.gatt.on_att_handle_value_indication = self.on_indication
        if not self.args.no_mtu_exchange:
            mtu = await self.gatt.request_mtu(self.args.mtu)
            say('mtu', mtu=mtu)
        say('database', address=address.to_string(False), mtu=self.mtu, services=await self.discover())

        async def at_eof() -> None:
            if not self.ended.done():
                await self.connection.disconnect()
                say('disconnected', reason=await self.ended, by='us')

        handlers = {'write': self.write, 'writeLong': self.write_long, 'read': self.read,
                    'subscribe': self.subscribe, 'unsubscribe': self.unsubscribe, 'stats': self.stats,
                    'discover': self.rediscover, 'disconnect': self.disconnect}
        commands = asyncio.ensure_future(run_commands(handlers, self.value_handle, at_eof))
        done, _ = await asyncio.wait({commands, self.ended}, return_when=asyncio.FIRST_COMPLETED)
        if commands not in done:
            commands.cancel()
            say('disconnected', reason=self.ended.result(), by='peer')
        for handle in sorted(self.received):
            say('received', **self.summary(handle))
        say('done')
        await transport.close()
        return 0

    # --- discovery

    async def discover(self) -> list[dict]:
        primaries = await self.primary_services()
        services = {service['startHandle']: service for service in primaries}
        pending = list(primaries)
        while pending:  # included services, and the secondary services they name
            service = pending.pop(0)
            service['includes'] = await self.includes(service)
            for include in service['includes']:
                if include['startHandle'] not in services:
                    secondary = {'uuid': include['uuid'], 'primary': False, 'startHandle': include['startHandle'],
                                 'endHandle': include['endHandle'], 'includes': [], 'characteristics': []}
                    services[include['startHandle']] = secondary
                    pending.append(secondary)
        ordered = [services[handle] for handle in sorted(services)]
        for service in ordered:
            service['characteristics'] = await self.characteristics(service)
        self.tree = ordered
        return ordered

    async def primary_services(self) -> list[dict]:
        found, start = [], 0x0001
        while start <= 0xFFFF:
            try:
                response = await self.request(att.ATT_Read_By_Group_Type_Request(
                    starting_handle=start, ending_handle=0xFFFF,
                    attribute_group_type=gatt.GATT_PRIMARY_SERVICE_ATTRIBUTE_TYPE))
            except att.ATT_Error as error:
                if error.error_code == att.ATT_ATTRIBUTE_NOT_FOUND_ERROR:
                    break
                raise
            if not response.attributes:
                break
            for handle, end, value in response.attributes:
                found.append({'uuid': uuid_text(UUID.from_bytes(value)), 'primary': True, 'startHandle': handle,
                              'endHandle': end, 'includes': [], 'characteristics': []})
            start = response.attributes[-1][1] + 1
        return found

    async def by_type(self, start: int, end: int, attribute_type: UUID) -> list[tuple[int, bytes]]:
        found = []
        while start <= end:
            try:
                response = await self.request(att.ATT_Read_By_Type_Request(
                    starting_handle=start, ending_handle=end, attribute_type=attribute_type))
            except att.ATT_Error as error:
                if error.error_code == att.ATT_ATTRIBUTE_NOT_FOUND_ERROR:
                    break
                raise
            if not response.attributes:
                break
            found.extend(response.attributes)
            start = response.attributes[-1][0] + 1
        return found

    async def includes(self, service: dict) -> list[dict]:
        result = []
        for handle, value in await self.by_type(service['startHandle'], service['endHandle'],
                                                gatt.GATT_INCLUDE_ATTRIBUTE_TYPE):
            start, end = struct.unpack_from('<HH', value)
            if len(value) >= 6:
                uuid = UUID.from_bytes(value[4:])
            else:  # a 128-bit included service: its UUID is read from its declaration (§4.5.1)
                uuid = UUID.from_bytes(await self.read_long(start))
            result.append({'handle': handle, 'startHandle': start, 'endHandle': end, 'uuid': uuid_text(uuid)})
        return result

    async def characteristics(self, service: dict) -> list[dict]:
        declarations = await self.by_type(service['startHandle'], service['endHandle'],
                                          gatt.GATT_CHARACTERISTIC_ATTRIBUTE_TYPE)
        result = []
        for index, (handle, value) in enumerate(declarations):
            properties, value_handle = struct.unpack_from('<BH', value)
            end = declarations[index + 1][0] - 1 if index + 1 < len(declarations) else service['endHandle']
            entry = {'uuid': uuid_text(UUID.from_bytes(value[3:])), 'handle': handle, 'valueHandle': value_handle,
                     'properties': properties, 'value': None, 'descriptors': []}
            if properties & Props.READ:
                await self.read_into(entry, value_handle)
            for descriptor_handle, descriptor_uuid in await self.descriptors(value_handle + 1, end):
                item = {'uuid': uuid_text(descriptor_uuid), 'handle': descriptor_handle, 'value': None}
                await self.read_into(item, descriptor_handle)
                entry['descriptors'].append(item)
            result.append(entry)
        return result

    async def descriptors(self, start: int, end: int) -> list[tuple[int, UUID]]:
        found = []
        while start <= end:
            try:
                response = await self.request(att.ATT_Find_Information_Request(starting_handle=start, ending_handle=end))
            except att.ATT_Error as error:
                if error.error_code == att.ATT_ATTRIBUTE_NOT_FOUND_ERROR:
                    break
                raise
            if not response.information:
                break
            found.extend((handle, UUID.from_bytes(uuid)) for handle, uuid in response.information)
            start = response.information[-1][0] + 1
        return found

    async def read_into(self, entry: dict, handle: int) -> None:
        try:
            entry['value'] = (await self.read_long(handle)).hex()
        except att.ATT_Error as error:
            entry['error'] = int(error.error_code)

    async def read_long(self, handle: int, offset: int | None = None) -> bytes:
        """Read Characteristic Value / Read Long Characteristic Values (Core Vol 3, Part G,
        §4.8.1, §4.8.3): Read, then Read Blob while the parts fill ATT_MTU-1 octets; with an
        offset, Read Blob from there (its errors, e.g. Invalid Offset, are raised)."""
        if offset is None:
            value = (await self.request(att.ATT_Read_Request(attribute_handle=handle))).attribute_value
            if len(value) < self.mtu - 1:
                return value
        else:
            value = b''
        position = (offset or 0) + len(value)
        while True:
            try:
                part = (await self.request(att.ATT_Read_Blob_Request(attribute_handle=handle,
                                                                     value_offset=position))).part_attribute_value
            except att.ATT_Error as error:
                # A value exactly ATT_MTU-1 long: the server may say it is not long (§3.4.4.5).
                if offset is None and error.error_code == att.ATT_ATTRIBUTE_NOT_LONG_ERROR:
                    return value
                raise
            value += part
            position += len(part)
            if len(part) < self.mtu - 1:
                return value

    def value_handle(self, uuid: str) -> int:
        for service in self.tree:
            for entry in service['characteristics']:
                if entry['uuid'] == uuid.upper():
                    return entry['valueHandle']
        raise ValueError(f'no characteristic {uuid}')

    def cccd_handle(self, value_handle: int) -> int:
        for service in self.tree:
            for entry in service['characteristics']:
                if entry['valueHandle'] == value_handle:
                    for item in entry['descriptors']:
                        if item['uuid'] == '2902':
                            return item['handle']
        raise ValueError(f'no CCCD discovered for handle {value_handle}')

    # --- commands

    async def write(self, command, extra) -> None:
        handle, value = command['handle'], bytes.fromhex(command.get('hex', ''))
        with_response = bool(command.get('withResponse', True))
        if with_response:
            if len(value) > self.mtu - 3:
                raise ValueError(f'{len(value)} octets do not fit a Write Request (MTU-3 = {self.mtu - 3}); use writeLong')
            await self.request(att.ATT_Write_Request(attribute_handle=handle, attribute_value=value))
        else:
            await self.gatt.send_command(att.ATT_Write_Command(attribute_handle=handle,
                                                               attribute_value=value[:self.mtu - 3]))
        say('written', handle=handle, length=len(value), withResponse=with_response, **extra)

    async def write_long(self, command, extra) -> None:
        """Write Long Characteristic Values (Core Vol 3, Part G, §4.9.4)."""
        handle, value = command['handle'], bytes.fromhex(command.get('hex', ''))
        offset, part_size = int(command.get('offset', 0)), self.mtu - 5
        try:
            for start in range(0, max(len(value), 1), part_size):
                part = value[start:start + part_size]
                response = await self.request(att.ATT_Prepare_Write_Request(
                    attribute_handle=handle, value_offset=offset + start, part_attribute_value=part))
                if (response.attribute_handle, response.value_offset, response.part_attribute_value) != (
                        handle, offset + start, part):
                    raise RuntimeError('the Prepare Write Response does not echo the request')
        except BaseException:
            await self.gatt.send_request(att.ATT_Execute_Write_Request(flags=0x00))
            raise
        await self.request(att.ATT_Execute_Write_Request(flags=0x01))
        say('written', handle=handle, length=len(value), long=True, **extra)

    async def read(self, command, extra) -> None:
        offset = command.get('offset')
        value = await self.read_long(command['handle'], None if offset is None else int(offset))
        say('read', handle=command['handle'], offset=int(offset or 0), value=value.hex(), **extra)

    async def subscribe(self, command, extra) -> None:
        handle = command['handle']
        cccd = parse_handle(command['cccd'], self.value_handle) if 'cccd' in command else self.cccd_handle(handle)
        indicate = bool(command.get('indicate', False))
        self.watch[handle] = {'expect': command.get('expect'), 'log': bool(command.get('log', False))}
        await self.request(att.ATT_Write_Request(attribute_handle=cccd,
                                                 attribute_value=b'\x02\x00' if indicate else b'\x01\x00'))
        say('subscribed', handle=handle, cccd=cccd, indicate=indicate, **extra)

    async def unsubscribe(self, command, extra) -> None:
        handle = command['handle']
        cccd = parse_handle(command['cccd'], self.value_handle) if 'cccd' in command else self.cccd_handle(handle)
        await self.request(att.ATT_Write_Request(attribute_handle=cccd, attribute_value=b'\x00\x00'))
        self.watch.pop(handle, None)
        say('unsubscribed', handle=handle, cccd=cccd, **extra)

    async def stats(self, command, extra) -> None:
        handles = [command['handle']] if 'handle' in command else sorted(self.received)
        for handle in handles:
            say('received', **self.summary(handle), **extra)

    async def rediscover(self, _command, extra) -> None:
        say('database', address=self.connection.peer_address.to_string(False), mtu=self.mtu,
            services=await self.discover(), **extra)

    async def disconnect(self, _command, extra) -> None:
        await self.connection.disconnect()
        say('disconnected', reason=await self.ended, by='us', **extra)

    # --- values pushed by the server

    def on_indication(self, pdu) -> None:
        self.on_value(pdu, 'indication')
        self.gatt.send_confirmation(att.ATT_Handle_Value_Confirmation())

    def on_value(self, pdu, kind: str) -> None:
        handle, value = pdu.attribute_handle, bytes(pdu.attribute_value)
        now = time.monotonic()
        state = self.received.setdefault(handle, {'kind': kind, 'count': 0, 'bytes': 0, 'firstSequence': None,
                                                  'lastSequence': None, 'outOfOrder': 0, 'missing': 0,
                                                  'first': now, 'last': now})
        sequence = struct.unpack_from('<I', value)[0] if len(value) >= 4 else None
        if sequence is not None:
            previous = state['lastSequence']
            if previous is None:
                state['firstSequence'] = sequence
            elif sequence <= previous:
                state['outOfOrder'] += 1
            else:
                state['missing'] += sequence - previous - 1
            if previous is None or sequence > previous:
                state['lastSequence'] = sequence
        state['kind'] = kind
        state['count'] += 1
        state['bytes'] += len(value)
        state['last'] = now
        watch = self.watch.get(handle, {})
        if watch.get('log'):
            say('value', handle=handle, kind=kind, sequence=sequence, length=len(value), value=value.hex())
        if watch.get('expect') and state['count'] == int(watch['expect']):
            say('received', **self.summary(handle))

    def summary(self, handle: int) -> dict:
        state = self.received.get(handle)
        if state is None:
            return {'handle': handle, 'kind': None, 'count': 0, 'bytes': 0, 'firstSequence': None,
                    'lastSequence': None, 'outOfOrder': 0, 'missing': 0, 'inOrder': True, 'seconds': 0}
        return {'handle': handle, 'kind': state['kind'], 'count': state['count'], 'bytes': state['bytes'],
                'firstSequence': state['firstSequence'], 'lastSequence': state['lastSequence'],
                'outOfOrder': state['outOfOrder'], 'missing': state['missing'],
                'inOrder': state['outOfOrder'] == 0 and state['missing'] == 0,
                'seconds': round(state['last'] - state['first'], 6)}


def main() -> int:
    parser = argparse.ArgumentParser(description='SwiftBLE GATT interop peer (Bumble host over H4/TCP).')
    parser.add_argument('--port', type=int, required=True, help='controller port on 127.0.0.1')
    parser.add_argument('--address', help='own random static address (default C0:5B:00:00:00:21 server, ...22 client)')
    parser.add_argument('--role', choices=('server', 'client'), required=True)
    parser.add_argument('target', nargs='?', help='client: the server address, random by default; add /P for public')
    parser.add_argument('--name', default='Bumble-GATT', help='server: local name (GAP Device Name and advertising)')
    parser.add_argument('--mtu', type=int, default=517,
                        help='server: the MTU it offers; client: the MTU it asks for (default 517)')
    parser.add_argument('--heart-rate', action='store_true',
                        help='server: also serve (after the fixed database) and advertise a Heart Rate service (180D)')
    parser.add_argument('--no-mtu-exchange', action='store_true', help='client: keep ATT_MTU 23, send no Exchange MTU')
    parser.add_argument('--connect-timeout', type=float, default=30)
    parser.add_argument('--stdin-lifeline', action='store_true',
                        help='server: end at end of file on stdin (the client always does)')
    parser.add_argument('-v', '--verbose', action='store_true')
    args = parser.parse_args()
    if args.role == 'client' and not args.target:
        parser.error('--role client needs the server ADDRESS')
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.ERROR, stream=sys.stderr)

    async def role(arguments) -> int:
        return await (Server(arguments) if arguments.role == 'server' else Client(arguments)).run()

    try:
        # Not bumble_peer.run_role's lifeline: stdin carries the commands here.
        return asyncio.run(role(args))
    except KeyboardInterrupt:
        return 0
    except Exception as error:  # report, then fail: the test reads stdout
        say('error', error=repr(error))
        return 1


if __name__ == '__main__':
    sys.exit(main())
