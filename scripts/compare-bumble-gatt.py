#!/usr/bin/env python3
"""Side-by-side: GATT notifications and writes through SwiftBLE's host and through Bumble's, in one run.

    scripts/compare-bumble-gatt.py [--count 5000] [--runs 3] [--le-acl-length 251] [--ble PATH | --no-build]
                                   [--bumble-python PATH] [--json]

Bumble: two Bumble hosts (bumble==0.0.236) on two stock Bumble controllers on one LocalLink, all in
one Python process (one asyncio loop, no TCP), a fresh pair for every figure and run:
  * notifications per second of 20-octet values (ATT_MTU 23) and of 244-octet values (ATT_MTU 247):
    the server sends COUNT notifications as fast as Bumble's host takes them (it waits whenever more
    than 256 ACL packets are queued); the client counts them and checks the 4-octet sequence number
    in each (in order, none lost). Figure: COUNT / seconds from the first to the last received.
  * write-with-response round trips per second of 20-octet values: the client sends COUNT Write
    Requests one after the other, each after the previous Write Response. Figure: COUNT / seconds
    from the first request to the last response.
The controllers report --le-acl-length as their LE ACL buffer size (stock Bumble: 27; default here
251, the longest LE data PDU payload, as in an ideal world with Data Length Extension).
Bumble's link has no airtime: its figures are CPU-bound.

SwiftBLE: `ble bench notify --size B --count COUNT --world ideal --json` (→ {"notificationsPerSecond",
"bytesPerSecond"}) and `ble bench write --size 20 --count COUNT --world ideal --json`
(→ {"writesPerSecond"}), DESIGN.md: wall-clock figures of our two hosts in a world run in lock-step
with them (`--speed max`, the default), from the first notify call (first Write Request) to the last
value received (last Write Response). Like Bumble's LocalLink, the ideal world's link has no airtime:
each controller hands connection data straight to the other (through both controllers' ACL buffers and
Number Of Completed Packets, cut to the negotiated data length).
When those commands fail the script says so and prints Bumble's figures alone.

Each figure is the median of --runs runs. The ble executable: --ble, else built with
`swift build -c release` (--no-build: use .build/release/ble if it is there). Bumble: this script
re-runs itself under --bumble-python (default $BUMBLE_VENV/bin/python, else .venv-bumble/bin/python
in the repository) when the running Python has no bumble.
"""
import argparse
import asyncio
import json
import os
import statistics
import struct
import subprocess
import sys
import time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def default_bumble_python():
    venv = os.environ.get('BUMBLE_VENV') or os.path.join(root, '.venv-bumble')
    return os.path.join(venv, 'bin', 'python')


parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
parser.add_argument('--count', type=int, default=5000, help='notifications or writes per run (default 5000)')
parser.add_argument('--runs', type=int, default=3, help='runs of each figure; the median is printed (default 3)')
parser.add_argument('--le-acl-length', type=int, default=251,
                    help="LE ACL buffer length Bumble's controllers report (default 251; stock is 27)")
parser.add_argument('--bumble-python', default=default_bumble_python(), help='the Python of a venv with bumble 0.0.236')
parser.add_argument('--ble', help='a built ble executable (default: build it with swift build -c release)')
parser.add_argument('--no-build', action='store_true', help='do not build ble; use .build/release/ble if present')
parser.add_argument('--bumble-only', action='store_true', help='measure Bumble only')
parser.add_argument('--json', action='store_true', help='print one JSON object of figures instead of the table')
args = parser.parse_args()

try:
    from bumble import att, gatt
    from bumble.controller import Controller
    from bumble.core import UUID
    from bumble.device import Device
    from bumble.hci import Address
    from bumble.host import Host
    from bumble.link import LocalLink
    from bumble.transport.common import AsyncPipeSink
except ImportError:
    # A venv's python is often a link to the same interpreter: a marker, not paths, stops a loop.
    if os.environ.get('COMPARE_BUMBLE_GATT_REEXEC') or not os.path.exists(args.bumble_python):
        sys.exit(f'bumble is not importable here; give --bumble-python (tried {args.bumble_python})')
    os.environ['COMPARE_BUMBLE_GATT_REEXEC'] = '1'
    os.execv(args.bumble_python, [args.bumble_python, os.path.abspath(__file__)] + sys.argv[1:])

SERVICE = UUID('A7E3C0DE-5B1E-4E6B-9F00-0000000000B0')
NOTIFIED = UUID('A7E3C0DE-5B1E-4E6B-9F00-0000000000B1')
WRITTEN = UUID('A7E3C0DE-5B1E-4E6B-9F00-0000000000B2')
TIME_LIMIT = 600  # seconds for one measurement: generous, the machine is shared


def log(message):
    print(message, file=sys.stderr, flush=True)


class Pair:
    """Two Bumble hosts on two stock controllers on one LocalLink, connected, with the
    benchmark service on the server and ATT_MTU exchanged."""

    async def open(self, mtu: int) -> None:
        link = LocalLink()
        self.devices = []
        for index, address in enumerate(('F0:00:00:00:00:01', 'F0:00:00:00:00:02')):
            controller = Controller(f'C{index}', link=link, public_address=address)
            controller.le_acl_data_packet_length = args.le_acl_length
            device = Device(address=Address(f'C0:5B:00:00:00:{0x31 + index:02X}'),
                            host=Host(controller, AsyncPipeSink(controller)))
            self.devices.append(device)
        self.server, self.client = self.devices
        self.received = []
        self.notified = gatt.Characteristic(NOTIFIED, gatt.Characteristic.Properties.NOTIFY, 0)
        self.writes = 0
        written = gatt.Characteristic(WRITTEN, gatt.Characteristic.Properties.WRITE, gatt.Characteristic.WRITEABLE,
                                      gatt.CharacteristicValue(write=self.on_write))
        self.server.add_service(gatt.Service(SERVICE, [self.notified, written]))
        for device in self.devices:
            await device.power_on()
        incoming = asyncio.get_running_loop().create_future()
        self.server.once('connection', incoming.set_result)
        await self.server.start_advertising(advertising_interval_min=20, advertising_interval_max=20)
        self.client_connection = await self.client.connect(self.server.random_address, timeout=30)
        self.server_connection = await asyncio.wait_for(incoming, 30)
        gatt_client = self.client_connection.gatt_client
        if mtu > 23:
            await gatt_client.request_mtu(mtu)
        await gatt_client.discover_services([SERVICE])
        characteristics = await gatt_client.discover_characteristics([], None)
        self.remote = {c.uuid: c for c in characteristics}

    def on_write(self, _connection, _value) -> None:
        self.writes += 1


async def notifications(size: int, count: int) -> dict:
    pair = Pair()
    await pair.open(max(23, size + 3))
    times, state = [], {'next': 0, 'bad': 0}
    done = asyncio.get_running_loop().create_future()

    def on_value(value: bytes) -> None:
        times.append(time.perf_counter())
        if len(value) != size or struct.unpack_from('<I', value)[0] != state['next']:
            state['bad'] += 1
        state['next'] += 1
        if len(times) == count and not done.done():
            done.set_result(None)

    subscribed = asyncio.get_running_loop().create_future()
    pair.notified.once('subscription', lambda *_: subscribed.done() or subscribed.set_result(None))
    await pair.remote[NOTIFIED].subscribe(on_value)
    await asyncio.wait_for(subscribed, 30)
    filler = bytes(index & 0xFF for index in range(4, size))
    queue = pair.server.host.le_acl_packet_queue

    async def send() -> None:
        for sequence in range(count):
            await pair.server.notify_subscriber(pair.server_connection, pair.notified, struct.pack('<I', sequence) + filler)
            if queue.pending > 256:  # keep Bumble's host queue short, as an app would
                flowed = asyncio.get_running_loop().create_future()
                queue.once('flow', lambda: flowed.done() or flowed.set_result(None))
                await flowed

    sender = asyncio.ensure_future(send())
    await asyncio.wait_for(done, TIME_LIMIT)
    await sender
    seconds = times[-1] - times[0]
    if state['bad']:
        raise RuntimeError(f'{state["bad"]} of {count} notifications out of order or damaged')
    return {'notificationsPerSecond': count / seconds, 'bytesPerSecond': count * size / seconds}


async def writes(size: int, count: int) -> dict:
    pair = Pair()
    await pair.open(max(23, size + 3))
    characteristic = pair.remote[WRITTEN]
    value = bytes(range(size))
    started = time.perf_counter()
    for _ in range(count):
        await characteristic.write_value(value, with_response=True)
    seconds = time.perf_counter() - started
    if pair.writes != count:
        raise RuntimeError(f'the server saw {pair.writes} of {count} writes')
    return {'writesPerSecond': count / seconds, 'bytesPerSecond': count * size / seconds}


def bumble_figure(kind: str, size: int) -> dict:
    measure = notifications if kind == 'notify' else writes
    return asyncio.run(asyncio.wait_for(measure(size, args.count), TIME_LIMIT))


def ble_executable():
    """The ble executable, or (None, why not)."""
    if args.ble:
        return args.ble, None
    binary = os.path.join(root, '.build', 'release', 'ble')
    if args.no_build:
        return (binary, None) if os.path.exists(binary) else (None, f'no {binary} (--no-build)')
    log('building ble (release)...')
    build = subprocess.run(['swift', 'build', '-c', 'release', '--product', 'ble', '--package-path', root],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if build.returncode != 0:
        return None, 'swift build -c release failed: ' + (build.stderr.strip().splitlines() or ['?'])[-1]
    path = subprocess.run(['swift', 'build', '-c', 'release', '--show-bin-path', '--package-path', root],
                          capture_output=True, text=True).stdout.strip()
    return os.path.join(path, 'ble'), None


def ours(ble, kind: str, size: int):
    """Our figures as a dict, or a string saying why there are none."""
    command = [ble, 'bench', kind, '--size', str(size), '--count', str(args.count), '--world', 'ideal', '--json']
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=TIME_LIMIT)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f'`{" ".join(command[1:])}` failed: {error}'
    if result.returncode != 0:
        why = (result.stderr.strip().splitlines() or result.stdout.strip().splitlines() or ['no output'])[0]
        return f'`ble {" ".join(command[1:])}` failed (exit {result.returncode}): {why}'
    try:
        return json.loads(result.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return f'`ble {" ".join(command[1:])}` printed no JSON: {result.stdout[-200:]!r}'


FIGURES = [  # (name, kind, size, key, label)
    ('notify20', 'notify', 20, 'notificationsPerSecond', 'notifications/s, 20 octets (ATT_MTU 23)'),
    ('notify244', 'notify', 244, 'notificationsPerSecond', 'notifications/s, 244 octets (ATT_MTU 247)'),
    ('write20', 'write', 20, 'writesPerSecond', 'writes with response/s, 20 octets'),
]


def main():
    ble, missing = (None, 'not measured (--bumble-only)') if args.bumble_only else ble_executable()
    bumble_runs = {name: [] for name, *_ in FIGURES}
    our_runs = {name: [] for name, *_ in FIGURES}
    our_missing = {name: missing for name, *_ in FIGURES}
    for run in range(args.runs):
        for name, kind, size, key, label in FIGURES:
            log(f'run {run + 1} of {args.runs}: Bumble-to-Bumble, {label}...')
            bumble_runs[name].append(bumble_figure(kind, size)[key])
            if ble and not our_missing[name]:
                log(f'run {run + 1} of {args.runs}: SwiftBLE (ideal world), {label}...')
                figures = ours(ble, kind, size)
                if isinstance(figures, str) or key not in figures:
                    our_missing[name] = figures if isinstance(figures, str) else f'no "{key}" in {figures}'
                else:
                    our_runs[name].append(figures[key])
    results = {}
    for name, kind, size, key, label in FIGURES:
        bumble = statistics.median(bumble_runs[name])
        swift = statistics.median(our_runs[name]) if our_runs[name] and not our_missing[name] else None
        results[name] = {'label': label, 'bumble': round(bumble, 1), 'swift': None if swift is None else round(swift, 1),
                         'ratio': None if swift is None else round(swift / bumble, 2),
                         'bumbleRuns': [round(v, 1) for v in bumble_runs[name]],
                         'swiftRuns': [round(v, 1) for v in our_runs[name]], 'swiftMissing': our_missing[name]}
    if args.json:
        print(json.dumps({'count': args.count, 'runs': args.runs, 'leAclLength': args.le_acl_length, 'figures': results}))
        return
    print(f'GATT, {args.count} values per run, median of {args.runs} run(s); '
          f'Bumble: one process, LocalLink, LE ACL length {args.le_acl_length}; SwiftBLE: --world ideal')
    print(f'  {"":44} {"Bumble":>10} {"SwiftBLE":>12} {"ratio":>8}')
    for name, *_ in FIGURES:
        figure = results[name]
        swift = '—' if figure['swift'] is None else f'{figure["swift"]:12,.0f}'
        ratio = '—' if figure['ratio'] is None else f'{figure["ratio"]:7.1f}x'
        print(f'  {figure["label"]:44} {figure["bumble"]:10,.0f} {swift:>12} {ratio:>8}')
    runs = ', '.join(f'{name} {results[name]["bumbleRuns"]}' for name, *_ in FIGURES)
    print(f'  Bumble runs: {runs}')
    ours_listed = ', '.join(f'{name} {results[name]["swiftRuns"]}' for name, *_ in FIGURES)
    print(f'  SwiftBLE runs: {ours_listed}')
    for name, *_ in FIGURES:
        if results[name]['swiftMissing']:
            print(f'  SwiftBLE {name}: missing — {results[name]["swiftMissing"]}')


if __name__ == '__main__':
    main()
