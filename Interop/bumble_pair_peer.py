#!/usr/bin/env python3
"""SwiftBLE pairing interop peer: a Bumble host on one H4-over-TCP controller (a stock Bumble
controller of bumble_controllers.py) that pairs over SMP with the configuration given on its
command line, printing one JSON object per line on stdout.

    bumble_pair_peer.py --port P --role peripheral [pairing options]
    bumble_pair_peer.py --port P --role central ADDRESS [--handle H] [--connections N] [pairing options]

Pairing options: --io none|display|keyboard|yesno|kbdisplay (default none), --legacy (no
Secure Connections), --no-bond, --mitm, --passkey N (the passkey Bumble shows when it displays
and types when it enters; without it a displayed passkey is random and an entered one is read
from stdin as a line "passkey N"), --reject (answer No to Numeric Comparison).

Out of band (Core 5.4, Vol 3, Part H, §2.3.5.4, §2.3.5.6.4): --oob makes Bumble's Secure
Connections OOB context (key pair and r) at start and prints it as an "oob" event {confirm,
random, ad}; --oob-peer C:R gives it the peer's data, and a stdin line "oob C:R" gives it later
(answered by an "oobPeer" event); --oob-wait makes the central wait for that line before it
connects (a line "handle H" before it stands for --handle); --oob-tk TK sets the legacy Temporary Key. C, R and TK are 32 hex digits, the number
most significant octet first, as the specification writes it (Bumble keeps them little-endian).

Peripheral: advertises as C0:5B:00:00:00:31 (random static) with the name "Bumble pair",
serves service A7E3C0DE-5B1E-4E6B-9F00-0000000000F0 with one characteristic ...F1 whose value
"secret" (736563726574) needs an encrypted link to read, and accepts any number of connections
one after the other. Central: connects to ADDRESS (random unless /P follows) N times; on each
connection it encrypts with the stored key when it has one for the peer, else pairs, then
reads the attribute at --handle (when given) and disconnects.

Events: "powered_on", "oob" {confirm, random, ad}, "oobPeer", "advertising", "connected" {peer, handle}, "passkey" {value} (Bumble
displays it), "compare" {value}, "paired" {sc, authenticated, keySize, count, keys},
"failed" {reason}, "encrypted" {keySize}, "read" {handle, value}, "readError" {handle, code},
"disconnected" {reason}, "done". Bonds live in memory for the life of the process, so a
reconnection within one run uses them; "paired" counts pairings since start.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
import time

from bumble import gatt, hci
from bumble.core import ProtocolError
from bumble.device import Device, DeviceConfiguration, Peer
from bumble.pairing import OobData, PairingConfig, PairingDelegate
from bumble.smp import OobContext, OobLegacyContext, OobSharedData
from bumble.transport import open_transport

OUR_ADDRESS = {'peripheral': 'C0:5B:00:00:00:31', 'central': 'C0:5B:00:00:00:32'}
SERVICE = 'A7E3C0DE-5B1E-4E6B-9F00-0000000000F0'
SECRET = 'A7E3C0DE-5B1E-4E6B-9F00-0000000000F1'
SECRET_VALUE = b'secret'
CAPABILITIES = {
    'none': PairingDelegate.IoCapability.NO_OUTPUT_NO_INPUT,
    'display': PairingDelegate.IoCapability.DISPLAY_OUTPUT_ONLY,
    'keyboard': PairingDelegate.IoCapability.KEYBOARD_INPUT_ONLY,
    'yesno': PairingDelegate.IoCapability.DISPLAY_OUTPUT_AND_YES_NO_INPUT,
    'kbdisplay': PairingDelegate.IoCapability.DISPLAY_OUTPUT_AND_KEYBOARD_INPUT,
}
START = time.monotonic()
PAIRINGS = 0


def say(event: str, **fields) -> None:
    """One JSON line, flushed, so a parent reading the pipe sees it at once."""
    record = {'event': event, 'elapsed': round(time.monotonic() - START, 3), **fields}
    sys.stdout.write(json.dumps(record) + '\n')
    sys.stdout.flush()


class StdinLines:
    """Lines of stdin, read without blocking the event loop; end of file ends the process
    when --stdin-lifeline is given."""

    def __init__(self, lifeline: bool) -> None:
        self.queue: asyncio.Queue[str] = asyncio.Queue()
        self.lifeline = lifeline
        self.oob = OutOfBand()
        self.handle: int | None = None

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        descriptor = sys.stdin.fileno()
        pending = bytearray()

        def readable() -> None:
            # os.read, not sys.stdin.readline: a buffered readline may swallow two lines at
            # once, and the second would wait in Python's buffer with the descriptor quiet.
            data = os.read(descriptor, 4096)
            if not data:
                loop.remove_reader(descriptor)
                if self.lifeline:
                    say('lifeline_closed')
                    loop.stop()
                return
            pending.extend(data)
            while b'\n' in pending:
                index = pending.index(b'\n')
                line = pending[:index].decode(errors='replace')
                del pending[:index + 1]
                self.take(line)

        loop.add_reader(descriptor, readable)

    def take(self, line: str) -> None:
        parts = line.split()
        if len(parts) == 2 and parts[0] == 'oob':
            self.oob.receive(parts[1])
        elif len(parts) == 2 and parts[0] == 'handle':
            self.handle = int(parts[1], 0)
        else:
            self.queue.put_nowait(line.strip())

    async def passkey(self) -> int | None:
        while True:
            line = await self.queue.get()
            parts = line.split()
            if len(parts) == 2 and parts[0] == 'passkey' and parts[1].isdigit():
                return int(parts[1])


def number_octets(text: str) -> bytes:
    """32 hex digits, most significant first, as Bumble's little-endian 16 octets."""
    value = bytes.fromhex(text)
    if len(value) != 16:
        raise ValueError(f'{text} is not 32 hex digits')
    return value[::-1]


def number_text(octets: bytes) -> str:
    return octets[::-1].hex()


class OutOfBand:
    """Bumble's OOB context and the peer's data as far as they are known."""

    def __init__(self) -> None:
        self.context: OobContext | None = None
        self.peer: OobSharedData | None = None
        self.legacy: OobLegacyContext | None = None
        self.received = asyncio.Event()

    def receive(self, text: str) -> None:
        confirm, _, random = text.partition(':')
        self.peer = OobSharedData(c=number_octets(confirm), r=number_octets(random))
        self.received.set()
        say('oobPeer', confirm=confirm, random=random)

    def config(self) -> PairingConfig.OobConfig | None:
        if self.context is None and self.legacy is None and self.peer is None:
            return None
        # Bumble needs its own context for Secure Connections OOB even when only the peer's
        # data is known (it owns the key pair pairing uses).
        context = self.context or OobContext()
        self.context = context
        return PairingConfig.OobConfig(our_context=context, peer_data=self.peer, legacy_context=self.legacy)


class Delegate(PairingDelegate):
    """The user of this peer: shows and types passkeys, compares numbers, as the args say."""

    def __init__(self, args, lines: StdinLines) -> None:
        super().__init__(io_capability=CAPABILITIES[args.io],
                         local_initiator_key_distribution=PairingDelegate.DEFAULT_KEY_DISTRIBUTION,
                         local_responder_key_distribution=PairingDelegate.DEFAULT_KEY_DISTRIBUTION)
        self.args = args
        self.lines = lines

    async def generate_passkey(self) -> int:
        if self.args.passkey is not None:
            return self.args.passkey
        return await super().generate_passkey()

    async def display_number(self, number: int, digits: int) -> None:
        say('passkey', value=number)

    async def get_number(self) -> int | None:
        if self.args.passkey is not None:
            return self.args.passkey
        return await self.lines.passkey()

    async def compare_numbers(self, number: int, digits: int) -> bool:
        say('compare', value=number)
        return not self.args.reject

    async def confirm(self, auto: bool = False) -> bool:
        return True


def configure(device: Device, args, lines: StdinLines) -> None:
    delegate = Delegate(args, lines)
    device.pairing_config_factory = lambda connection: PairingConfig(
        sc=not args.legacy, mitm=args.mitm, bonding=not args.no_bond, delegate=delegate, oob=lines.oob.config(),
        # Bumble otherwise distributes its controller's public address as its identity while it
        # connects from its random static one, and the peer cannot find the bond on reconnection.
        identity_address_type=PairingConfig.AddressType.RANDOM)


def answer_legacy_ltk_requests_with_own_key(device: Device) -> None:
    """Bumble quirk (0.0.236, Device.get_long_term_key): as peripheral it answers the LTK
    request of a reconnecting legacy-bonded central with the LTK the *central* distributed
    (its keys.ltk_peripheral) instead of the one it distributed itself and named by EDIV and
    Rand (Core 5.4, Vol 3, Part H, §2.4.2), so the link fails with a MIC failure (0x3D). This
    answers with its own distributed key when EDIV and Rand match."""
    original = device.host.long_term_key_provider

    async def provider(connection_handle: int, rand: bytes, ediv: int) -> bytes | None:
        connection = device.lookup_connection(connection_handle)
        if connection is not None and connection.role == hci.Role.PERIPHERAL and device.keystore is not None:
            session_key = device.smp_manager.get_long_term_key(connection, rand, ediv)
            if session_key is not None:
                return session_key
            keys = await device.keystore.get(str(connection.peer_address))
            own = keys.ltk_central if keys is not None and keys.ltk is None else None
            if own is not None:
                return own.value if (own.ediv or 0) == ediv and bytes(own.rand or bytes(8)) == bytes(rand) else None
        return await original(connection_handle, rand, ediv)

    device.host.long_term_key_provider = provider


def watch(connection) -> None:
    def on_pairing(keys) -> None:
        global PAIRINGS
        PAIRINGS += 1
        say('paired', sc=connection.sc, authenticated=connection.authenticated,
            keySize=connection.encryption_key_size, count=PAIRINGS,
            keys=sorted(name for name in ('ltk', 'ltk_central', 'ltk_peripheral', 'irk', 'csrk')
                        if keys is not None and getattr(keys, name, None) is not None))

    connection.on('pairing', on_pairing)
    connection.on('pairing_failure', lambda reason: say('failed', reason=int(reason)))
    connection.on('connection_encryption_change',
                  lambda: say('encrypted', keySize=connection.encryption_key_size, encryption=connection.encryption))
    connection.on('disconnection', lambda reason: say('disconnected', reason=int(reason)))


def prepare_oob(args, lines: StdinLines) -> None:
    """Bumble's OOB context (--oob, announced as an "oob" event), the peer's data
    (--oob-peer) and the legacy TK (--oob-tk)."""
    oob = lines.oob
    if args.oob_tk:
        oob.legacy = OobLegacyContext(tk=number_octets(args.oob_tk))
    if args.oob_peer:
        oob.receive(args.oob_peer)
    if args.oob:
        oob.context = OobContext()
        shared = oob.context.share()
        address = hci.Address(OUR_ADDRESS[args.role])
        ad = OobData(address=address, shared_data=shared).to_ad()
        say('oob', confirm=number_text(shared.c), random=number_text(shared.r), ad=bytes(ad).hex())


async def open_device(args) -> tuple[Device, object]:
    transport = await open_transport(f'tcp-client:127.0.0.1:{args.port}')
    config = DeviceConfiguration()
    config.name = 'Bumble pair'
    config.address = hci.Address(OUR_ADDRESS[args.role])
    config.advertising_interval_min = 100
    config.advertising_interval_max = 100
    config.advertising_data = (bytes([2, 0x01, 0x06]) + bytes([12, 0x09]) + b'Bumble pair')
    device = Device.from_config_with_hci(config, transport.source, transport.sink)
    await device.power_on()
    say('powered_on', role=args.role, address=str(config.address))
    return device, transport


async def peripheral(args, lines: StdinLines) -> int:
    device, transport = await open_device(args)
    configure(device, args, lines)
    secret = gatt.Characteristic(SECRET, gatt.Characteristic.Properties.READ,
                                 gatt.Characteristic.Permissions.READ_REQUIRES_ENCRYPTION, SECRET_VALUE)
    device.add_service(gatt.Service(SERVICE, [secret]))
    answer_legacy_ltk_requests_with_own_key(device)

    def on_connection(connection) -> None:
        say('connected', peer=str(connection.peer_address), handle=connection.handle)
        watch(connection)

    device.on('connection', on_connection)
    await device.start_advertising(auto_restart=True)
    say('advertising', handle=secret.handle)
    await asyncio.get_running_loop().create_future()
    await transport.close()
    return 0


async def central(args, lines: StdinLines) -> int:
    device, transport = await open_device(args)
    configure(device, args, lines)
    if args.oob_wait:
        await lines.oob.received.wait()
    text, _, kind = args.address.partition('/')
    target = hci.Address(text, hci.Address.PUBLIC_DEVICE_ADDRESS if kind.lower() in ('p', 'public')
                         else hci.Address.RANDOM_DEVICE_ADDRESS)
    status = 0
    for _ in range(args.connections):
        connection = await device.connect(target, own_address_type=hci.OwnAddressType.RANDOM, timeout=60)
        say('connected', peer=str(connection.peer_address), handle=connection.handle)
        watch(connection)
        try:
            # Bumble keeps the keys of a pairing without bonding too (SMP on_pairing stores them
            # whatever the Bonding_Flags): only a bonding run may reuse them.
            keys = await device.keystore.get(str(connection.peer_address)) if device.keystore and not args.no_bond else None
            if keys is not None:
                await connection.encrypt()
            else:
                await connection.pair()
        except Exception as error:  # the failure event says why; go on to the next connection
            say('securityError', error=str(error))
            status = 1
        handle = args.handle if args.handle is not None else lines.handle
        if handle is not None:
            try:
                value = await Peer(connection).read_value(handle)
                say('read', handle=handle, value=bytes(value).hex())
            except ProtocolError as error:
                say('readError', handle=handle, code=int(error.error_code))
        try:
            await connection.disconnect()
        except Exception:
            pass
        await asyncio.sleep(0.2)  # pacing: lets the controller finish the disconnection before reconnecting
    say('done', pairings=PAIRINGS)
    await transport.close()
    return status


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--port', type=int, required=True)
    parser.add_argument('--role', choices=['central', 'peripheral'], required=True)
    parser.add_argument('address', nargs='?')
    parser.add_argument('--handle', type=lambda text: int(text, 0))
    parser.add_argument('--connections', type=int, default=1)
    parser.add_argument('--io', choices=sorted(CAPABILITIES), default='none')
    parser.add_argument('--legacy', action='store_true')
    parser.add_argument('--no-bond', action='store_true')
    parser.add_argument('--mitm', action='store_true')
    parser.add_argument('--passkey', type=int)
    parser.add_argument('--reject', action='store_true')
    parser.add_argument('--oob', action='store_true')
    parser.add_argument('--oob-peer')
    parser.add_argument('--oob-tk')
    parser.add_argument('--oob-wait', action='store_true')
    parser.add_argument('--stdin-lifeline', action='store_true')
    parser.add_argument('-v', action='store_true')
    args = parser.parse_args()
    logging.basicConfig(level=logging.DEBUG if args.v else logging.WARNING, stream=sys.stderr)
    lines = StdinLines(args.stdin_lifeline)
    lines.start()
    prepare_oob(args, lines)
    if args.role == 'central':
        if not args.address:
            parser.error('central needs ADDRESS')
        return await central(args, lines)
    return await peripheral(args, lines)


if __name__ == '__main__':
    try:
        sys.exit(asyncio.run(main()))
    except RuntimeError as error:  # the lifeline stopped the loop
        say('stopped', reason=str(error))
        sys.exit(0)
