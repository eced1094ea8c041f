#!/usr/bin/env python3
"""SwiftBLE interop peer for L2CAP: a Bumble host on one H4-over-TCP controller playing one
role on LE credit-based channels or the LE signaling channel, printing one JSON object per
line on stdout (same conventions and shared helpers as bumble_peer.py).

    bumble_l2cap_peer.py --port P l2cap-echo-server   --psm PSM [--mtu M] [--mps M] [--credits C] [--name N]
    bumble_l2cap_peer.py --port P l2cap-echo-client   ADDRESS --psm PSM [--count N] [--seed S] [--progress N] [--hold S]
    bumble_l2cap_peer.py --port P request-parameters  [--interval-min MS] [--interval-max MS] [--latency L] [--timeout MS]
    bumble_l2cap_peer.py --port P malformed-signaling ADDRESS --psm PSM
    bumble_l2cap_peer.py --port P oversized-sdu       ADDRESS --psm PSM --peer-mtu M

ADDRESS is random by default; add /P for a public one. Roles that connect stay connected
until the peer disconnects (or --hold seconds, for the echo client, pass); the others run
until killed. With --stdin-lifeline a role also ends at end of file on stdin, so a peer started
with a pipe as its stdin never outlives the test that holds the pipe.
The last line of a finite role is {"event": "summary", ...}; failures print {"event": "error"}
and exit 1.

* l2cap-echo-server: advertises, accepts LE credit-based channels on PSM and sends every
  SDU back unchanged, in order; reports "channel_open" and, when it closes, "channel_closed"
  with the SDU and octet counts.
* l2cap-echo-client: connects, opens a channel to PSM, sends COUNT SDUs of 1 to 2000 octets
  (seeded; the first two are 1 and 2000 octets), checks every echo byte for byte and in
  order, and prints a summary with the count, octets, mismatches and seconds.
* request-parameters: advertises; on a connection, asks the central for new parameters
  with an L2CAP Connection Parameter Update Request (Core Vol 3, Part A, §4.20) and reports
  the answer ("parameters_requested") and the controller's new values ("parameters_updated").
* malformed-signaling: connects, sends broken LE signaling C-frames on CID 0x0005 and a
  well-formed request as a barrier, and reports every Command Reject it receives (§4.1).
* oversized-sdu: connects, opens two channels to PSM, sends on the first a raw K-frame whose
  SDU Length exceeds the peer's MTU (§3.4.3), reports whether the peer closed that channel,
  then checks the second one still echoes.

Why every SDU is written alone (write, then drain): Bumble's LeCreditBasedChannel joins SDUs
queued while it waits for credits into one SDU of up to the peer's MTU, so writing a second
SDU before the first has gone out would change the SDU boundaries.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import struct
import sys
import time

from bumble import hci, l2cap
from bumble.core import ProtocolError

import bumble_peer
from bumble_peer import open_device, report_connections, run_role, say, structure, wait

bumble_peer.ROLE_ADDRESSES.update({
    'l2cap-echo-server': 'C0:5B:00:00:00:11',
    'l2cap-echo-client': 'C0:5B:00:00:00:12',
    'request-parameters': 'C0:5B:00:00:00:13',
    'malformed-signaling': 'C0:5B:00:00:00:14',
    'oversized-sdu': 'C0:5B:00:00:00:15',
})

LE_SIGNALING_CID = 0x0005


def sdu_sizes(count: int, seed: int) -> list[int]:
    """`count` sizes in 1..2000, seeded, starting with both extremes."""
    rng = random.Random(seed)
    return [(1, 2000)[index] if index < 2 else rng.randint(1, 2000) for index in range(count)]


def target_address(text: str) -> hci.Address:
    kind = hci.Address.PUBLIC_DEVICE_ADDRESS if text.upper().endswith('/P') else hci.Address.RANDOM_DEVICE_ADDRESS
    return hci.Address(text.split('/')[0], kind)


def channel_fields(channel: l2cap.LeCreditBasedChannel) -> dict:
    return {'psm': channel.psm, 'cid': channel.source_cid, 'peer_cid': channel.destination_cid,
            'mtu': channel.mtu, 'peer_mtu': channel.peer_mtu, 'mps': channel.mps, 'peer_mps': channel.peer_mps}


class Echo:
    """Sends back every SDU of one channel, one at a time (see the module docstring)."""

    def __init__(self, channel: l2cap.LeCreditBasedChannel) -> None:
        self.channel = channel
        self.queue: asyncio.Queue[bytes] = asyncio.Queue()
        self.sdus = 0
        self.octets = 0
        channel.sink = self.queue.put_nowait
        channel.on('close', self.closed)
        self.task = asyncio.get_running_loop().create_task(self.run())

    async def run(self) -> None:
        while True:
            sdu = await self.queue.get()
            self.channel.write(sdu)
            self.sdus += 1
            self.octets += len(sdu)
            # drain() may wait for credits even after the last K-frame went out; counted before.
            await self.channel.drain()

    def closed(self) -> None:
        self.task.cancel()
        say('channel_closed', cid=self.channel.source_cid, sdus=self.sdus, octets=self.octets)


async def connect_to(device, args):
    ended = asyncio.get_running_loop().create_future()
    # Listened for as the connection comes up: the peer's disconnection can arrive in the same
    # read as the connection, before device.connect() resumes.
    device.once('connection', lambda connection: connection.on(
        'disconnection', lambda reason: ended.done() or ended.set_result(int(reason))))
    connection = await device.connect(target_address(args.target), timeout=args.connect_timeout)
    say('connected', peer=str(connection.peer_address), handle=connection.handle, role=int(connection.role))
    return connection, ended


async def echo_server(args) -> int:
    advertising = structure(0x01, b'\x06') + structure(0x09, args.name.encode())
    device, transport = await open_device(args, args.name, advertising)
    report_connections(device)
    echoes = []

    def on_channel(channel: l2cap.LeCreditBasedChannel) -> None:
        say('channel_open', **channel_fields(channel))
        echoes.append(Echo(channel))

    device.create_l2cap_server(
        spec=l2cap.LeCreditBasedChannelSpec(psm=args.psm, mtu=args.mtu, mps=args.mps, max_credits=args.credits),
        handler=on_channel)
    await device.start_advertising(auto_restart=True)
    say('advertising', name=args.name, address=str(device.random_address), psm=args.psm)
    await wait(0)
    return 0


async def echo_client(args) -> int:
    device, transport = await open_device(args, 'SwiftBLE echo client')
    connection, ended = await connect_to(device, args)
    channel = await connection.create_l2cap_channel(
        spec=l2cap.LeCreditBasedChannelSpec(psm=args.psm, mtu=args.mtu, mps=args.mps, max_credits=args.credits))
    say('channel_open', **channel_fields(channel))
    rng = random.Random(args.seed ^ 0x5A5A)
    sizes = sdu_sizes(args.count, args.seed)
    expected: list[bytes] = []
    state = {'received': 0, 'octets': 0, 'mismatches': 0, 'first_mismatch': None}
    done = asyncio.get_running_loop().create_future()

    def on_sdu(sdu: bytes) -> None:
        index = state['received']
        if index >= len(expected) or sdu != expected[index]:
            state['mismatches'] += 1
            if state['first_mismatch'] is None:
                state['first_mismatch'] = index
        if index < len(expected):
            expected[index] = b''  # checked: let it go
        state['received'] += 1
        state['octets'] += len(sdu)
        if args.progress and state['received'] % args.progress == 0:
            say('progress', received=state['received'])
        if state['received'] == args.count and not done.done():
            done.set_result(None)

    channel.sink = on_sdu
    channel.on('close', lambda: done.done() or done.set_exception(RuntimeError('the channel closed')))
    started = time.monotonic()
    sent = 0
    for size in sizes:
        sdu = rng.randbytes(size)
        expected.append(sdu)
        channel.write(sdu)
        await channel.drain()
        sent += len(sdu)
    if args.count:
        await done
    seconds = time.monotonic() - started
    say('summary', sdus=state['received'], octets=state['octets'], sent_octets=sent,
        mismatches=state['mismatches'], first_mismatch=state['first_mismatch'], seconds=round(seconds, 3),
        min_size=min(sizes, default=0), max_size=max(sizes, default=0))
    ok = state['received'] == args.count and state['mismatches'] == 0
    try:
        reason = await asyncio.wait_for(asyncio.shield(ended), timeout=args.hold)
        say('disconnected', reason=reason, by='peer')
    except asyncio.TimeoutError:
        await connection.disconnect()
        say('disconnected', reason=await ended, by='us')
    await transport.close()
    return 0 if ok else 1


async def request_parameters(args) -> int:
    advertising = structure(0x01, b'\x06') + structure(0x09, b'SwiftBLE-Params')
    device, transport = await open_device(args, 'SwiftBLE-Params', advertising)

    async def ask(connection) -> None:
        try:
            await connection.update_parameters(args.interval_min, args.interval_max, args.latency, args.timeout,
                                               use_l2cap=True)
            say('parameters_requested', accepted=True)
        except Exception as error:  # the central refused, or the link went down
            say('parameters_requested', accepted=False, error=repr(error))

    def on_connection(connection) -> None:
        say('connected', peer=str(connection.peer_address), handle=connection.handle, role=int(connection.role),
            interval_ms=connection.parameters.connection_interval)
        connection.on('disconnection', lambda reason: say('disconnected', reason=int(reason)))
        connection.on('connection_parameters_update', lambda: say(
            'parameters_updated', interval_ms=connection.parameters.connection_interval,
            latency=connection.parameters.peripheral_latency, timeout_ms=connection.parameters.supervision_timeout))
        asyncio.get_running_loop().create_task(ask(connection))

    device.on('connection', on_connection)
    await device.start_advertising(auto_restart=False)
    say('advertising', address=str(device.random_address))
    await wait(0)
    return 0


def signaling(code: int, identifier: int, data: bytes, length: int | None = None) -> bytes:
    """A C-frame payload: code, identifier, length (by default the data's) and data (§4)."""
    return struct.pack('<BBH', code, identifier, len(data) if length is None else length) + data


# The broken commands, each with the identifier its Command Reject must carry (and the
# identifier-0 and Command Reject frames, which must get no answer at all).
MALFORMED = [
    ('unknown_code', signaling(0x7F, 0x21, b'')),
    ('truncated_le_credit_based_connection_request', signaling(0x14, 0x22, bytes([0x80, 0x00, 0x40, 0x00]))),
    ('length_longer_than_data', signaling(0x06, 0x23, bytes([0x40, 0x00, 0x40, 0x00]), length=8)),
    ('length_shorter_than_data', signaling(0x06, 0x24, bytes([0x40, 0x00, 0x40, 0x00, 0xEE, 0xEE]), length=4)),
    ('disconnection_request_unknown_cid', signaling(0x06, 0x25, bytes([0x7E, 0x00, 0x41, 0x00]))),
    ('longer_than_mtu_sig', signaling(0x14, 0x26, bytes(range(26)))),
    ('parameter_update_request_from_central', signaling(0x12, 0x27, struct.pack('<HHHH', 24, 40, 0, 400))),
    ('identifier_zero', signaling(0x14, 0x00, struct.pack('<HHHHH', 0x80, 0x40, 100, 100, 4))),
    ('unsolicited_command_reject', signaling(0x01, 0x28, bytes([0x00, 0x00]))),
    ('header_only_two_octets', bytes([0x7F, 0x29])),
]


async def malformed_signaling(args) -> int:
    device, transport = await open_device(args, 'SwiftBLE signaling fuzzer')
    connection, ended = await connect_to(device, args)
    rejects = []

    def on_reject(_connection, _cid, packet) -> None:
        rejects.append({'identifier': packet.identifier, 'reason': int(packet.reason), 'data': bytes(packet.data).hex()})
        say('command_reject', **rejects[-1])

    # The manager looks handlers up by name on the instance, so this replaces its logging one.
    device.l2cap_channel_manager.on_l2cap_command_reject = on_reject
    for name, frame in MALFORMED:
        connection.send_l2cap_pdu(LE_SIGNALING_CID, frame)
        say('sent', name=name, frame=frame.hex())
    # A well-formed request to a PSM nobody serves: its answer comes after every reject.
    refused = None
    try:
        await connection.create_l2cap_channel(spec=l2cap.LeCreditBasedChannelSpec(psm=args.unused_psm))
    except ProtocolError as error:
        refused = error.error_code
    say('barrier', refused=refused)
    # The link still carries data: one SDU through the peer's echo server.
    channel = await connection.create_l2cap_channel(spec=l2cap.LeCreditBasedChannelSpec(psm=args.psm))
    echoed = asyncio.get_running_loop().create_future()
    channel.sink = lambda sdu: echoed.done() or echoed.set_result(sdu)
    probe = b'still alive after malformed signaling'
    channel.write(probe)
    await channel.drain()
    echo = await echoed
    say('summary', rejects=rejects, refused=refused, echo_ok=echo == probe)
    reason = await ended
    say('disconnected', reason=reason, by='peer')
    await transport.close()
    return 0 if echo == probe else 1


async def oversized_sdu(args) -> int:
    device, transport = await open_device(args, 'SwiftBLE oversized SDU')
    connection, ended = await connect_to(device, args)
    spec = l2cap.LeCreditBasedChannelSpec(psm=args.psm)
    victim = await connection.create_l2cap_channel(spec=spec)
    survivor = await connection.create_l2cap_channel(spec=spec)
    say('channel_open', **channel_fields(victim))
    say('channel_open', **channel_fields(survivor))
    closed = asyncio.get_running_loop().create_future()
    victim.on('close', lambda: closed.done() or closed.set_result(True))
    requests = []
    answer_request = victim.on_disconnection_request

    def on_disconnection_request(request) -> None:
        # What the peer asked, before Bumble answers it and closes the channel.
        requests.append({'destination_cid': request.destination_cid, 'source_cid': request.source_cid})
        say('disconnection_request', **requests[-1])
        answer_request(request)

    victim.on_disconnection_request = on_disconnection_request
    survivor.on('close', lambda: say('channel_closed', cid=survivor.source_cid))
    # First K-frame of an SDU that announces more than the peer's MTU (§3.4.3), sent raw:
    # Bumble's own write() would refuse it.
    announced = args.peer_mtu + 1
    payload = bytes(range(min(victim.peer_mps - 2, 40)))
    victim.credits -= 1  # the raw frame uses a credit Bumble does not see
    connection.send_l2cap_pdu(victim.destination_cid, struct.pack('<H', announced) + payload)
    say('sent', cid=victim.source_cid, sdu_length=announced, payload=len(payload))
    await closed
    say('channel_closed', cid=victim.source_cid, state=victim.state.name)
    echoed = asyncio.get_running_loop().create_future()
    survivor.sink = lambda sdu: echoed.done() or echoed.set_result(sdu)
    probe = bytes(range(min(survivor.peer_mtu, 90)))  # longer writes are cut into several SDUs by Bumble
    survivor.write(probe)
    await survivor.drain()
    echo = await echoed
    say('summary', victim_closed=True, victim_cid=victim.source_cid, victim_peer_cid=victim.destination_cid,
        disconnection_requests=requests, survivor_open=survivor.state == survivor.State.CONNECTED, echo_ok=echo == probe)
    reason = await ended
    say('disconnected', reason=reason, by='peer')
    await transport.close()
    return 0 if echo == probe else 1


def main() -> int:
    parser = argparse.ArgumentParser(description='SwiftBLE L2CAP interop peer (Bumble host over H4/TCP).')
    parser.add_argument('--port', type=int, required=True, help='controller port on 127.0.0.1')
    parser.add_argument('--address', help='own random static address (default: one per role)')
    parser.add_argument('--stdin-lifeline', action='store_true',
                        help='end at end of file on stdin (the parent that holds it has gone)')
    parser.add_argument('-v', '--verbose', action='store_true')
    roles = parser.add_subparsers(dest='role', required=True)

    sub = roles.add_parser('l2cap-echo-server')
    sub.add_argument('--psm', type=lambda text: int(text, 0), required=True)
    sub.add_argument('--mtu', type=int, default=2048)
    sub.add_argument('--mps', type=int, default=2048)
    sub.add_argument('--credits', type=int, default=64)
    sub.add_argument('--name', default='SwiftBLE-Echo')

    sub = roles.add_parser('l2cap-echo-client')
    sub.add_argument('target', help='peer address, random by default; add /P for public')
    sub.add_argument('--psm', type=lambda text: int(text, 0), required=True)
    sub.add_argument('--count', type=int, default=10000)
    sub.add_argument('--seed', type=int, default=4)
    sub.add_argument('--mtu', type=int, default=2048)
    sub.add_argument('--mps', type=int, default=2048)
    sub.add_argument('--credits', type=int, default=64)
    sub.add_argument('--progress', type=int, default=0, help='report every N echoes ({"event": "progress", ..., "received": K})')
    sub.add_argument('--hold', type=float, default=3600, help='seconds to wait for the peer to disconnect')
    sub.add_argument('--connect-timeout', type=float, default=30)

    sub = roles.add_parser('request-parameters')
    sub.add_argument('--interval-min', type=float, default=45, help='milliseconds')
    sub.add_argument('--interval-max', type=float, default=60, help='milliseconds')
    sub.add_argument('--latency', type=int, default=2)
    sub.add_argument('--timeout', type=float, default=5000, help='supervision timeout, milliseconds')

    for role in ('malformed-signaling', 'oversized-sdu'):
        sub = roles.add_parser(role)
        sub.add_argument('target', help='peer address, random by default; add /P for public')
        sub.add_argument('--psm', type=lambda text: int(text, 0), required=True, help="the peer's echo server")
        sub.add_argument('--connect-timeout', type=float, default=30)
        if role == 'malformed-signaling':
            sub.add_argument('--unused-psm', type=lambda text: int(text, 0), default=0x00F1)
        else:
            sub.add_argument('--peer-mtu', type=int, required=True, help="the peer's MTU on PSM")

    args = parser.parse_args()
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.ERROR, stream=sys.stderr)
    handlers = {'l2cap-echo-server': echo_server, 'l2cap-echo-client': echo_client,
                'request-parameters': request_parameters, 'malformed-signaling': malformed_signaling,
                'oversized-sdu': oversized_sdu}
    try:
        return asyncio.run(run_role(handlers[args.role], args))
    except KeyboardInterrupt:
        return 0
    except Exception as error:  # report, then fail: the test reads stdout
        say('error', error=repr(error))
        return 1


if __name__ == '__main__':
    sys.exit(main())
