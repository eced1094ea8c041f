#!/usr/bin/env python3
"""Side-by-side: LE credit-based channel throughput through SwiftBLE's host and through Bumble's, in one run.

    scripts/compare-bumble-l2cap.py [--size 2000] [--count 1000] [--runs 3] [--bumble-python PATH] [--ble PATH]

Bumble: two `bumble-bench` processes (bumble==0.0.236) on two stock Bumble controllers that
Interop/bumble_controllers.py serves as H4 over TCP, in bumble-bench's L2CAP "send" scenario:

    bumble-bench --mode l2cap-server --scenario receive <channel options> peripheral tcp-client:127.0.0.1:P0
    bumble-bench --mode l2cap-client --scenario send -s SIZE -c COUNT <channel options> central tcp-client:127.0.0.1:P1

with the channel options `--l2cap-mtu 2048 --l2cap-mps 247 --l2cap-max-credits 128`, ours' values, so each
SIZE-octet packet travels as one SDU. Its figure is the sender's: octets sent from the first packet to the
receiver's acknowledgement of the last. Bumble's virtual link has no airtime: the figure is CPU-bound.

SwiftBLE: `ble bench l2cap --size SIZE --count COUNT` (release build) twice: `--speed max`, the world in
lock-step with the hosts, which is CPU-bound too and the figure set against Bumble's; and `--speed 1`,
the air simulated in real time (2M PHY, 251-octet PDUs, 7.5 ms interval), the realistic air-limited figure.

Each figure is the median of --runs runs. Bumble comes from --bumble-python, else $BUMBLE_VENV/bin/python,
else .venv-bumble/bin/python in the repository (Interop/setup.sh makes it).
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def default_bumble_python():
    venv = os.environ.get('BUMBLE_VENV') or os.path.join(root, '.venv-bumble')
    return os.path.join(venv, 'bin', 'python')


parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
parser.add_argument('--size', type=int, default=2000, help='SDU (bumble-bench packet) size in octets (default 2000)')
parser.add_argument('--count', type=int, default=1000, help='SDUs per run (default 1000)')
parser.add_argument('--runs', type=int, default=3, help='runs of each figure; the median is printed (default 3)')
parser.add_argument('--bumble-python', default=default_bumble_python(), help='the Python of a venv with bumble 0.0.236')
parser.add_argument('--ble', help='a built ble executable (default: build it with swift build -c release)')
parser.add_argument('--json', action='store_true', help='print one JSON object of figures instead of the table')
args = parser.parse_args()

CHANNEL_OPTIONS = ['--l2cap-mtu', str(max(args.size, 2048)), '--l2cap-mps', '247', '--l2cap-max-credits', '128']
ANSI = re.compile(r'\x1b\[[0-9;]*m')


def log(message):
    print(message, file=sys.stderr, flush=True)


def ble_executable():
    if args.ble:
        return args.ble
    log('building ble (release)...')
    subprocess.run(['swift', 'build', '-c', 'release', '--product', 'ble', '--package-path', root], check=True,
                   stdout=subprocess.DEVNULL)
    path = subprocess.run(['swift', 'build', '-c', 'release', '--show-bin-path', '--package-path', root], check=True,
                          capture_output=True, text=True).stdout.strip()
    return os.path.join(path, 'ble')


def wait_for(path, pattern, process, seconds):
    """Waits until the file a process writes contains `pattern`; returns its text."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with open(path, errors='replace') as file:
            text = ANSI.sub('', file.read())
        if re.search(pattern, text):
            return text
        if process.poll() is not None:
            break
        time.sleep(0.05)  # the processes write their logs as they go; re-read them
    raise RuntimeError(f'no "{pattern}" from {" ".join(process.args)}:\n{text[-2000:]}')


def bumble_run(workdir, index):
    """One bumble-bench run on fresh controllers; returns (octets on the channel, seconds)."""
    # Their stderr goes to a file: asyncio prints cancelled reads there when they are stopped.
    with open(os.path.join(workdir, f'bumble-controllers-{index}.log'), 'w') as errors:
        controllers = subprocess.Popen([args.bumble_python, os.path.join(root, 'Interop', 'bumble_controllers.py'), '-n', '2'],
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors, text=True)
    processes = [controllers]
    try:
        ready = controllers.stdout.readline()
        if not ready.startswith('READY '):
            raise RuntimeError(f'bumble_controllers.py printed {ready!r} instead of READY')
        ports = json.loads(ready[len('READY '):])['ports']
        bench = [args.bumble_python, '-m', 'bumble.apps.bench']
        environment = dict(os.environ, BUMBLE_LOGLEVEL='INFO')  # the result is logged at INFO
        server_log = os.path.join(workdir, f'bumble-server-{index}.log')
        client_log = os.path.join(workdir, f'bumble-client-{index}.log')
        with open(server_log, 'w') as out:
            server = subprocess.Popen(bench + ['--mode', 'l2cap-server', '--scenario', 'receive'] + CHANNEL_OPTIONS
                                      + ['peripheral', f'tcp-client:127.0.0.1:{ports[0]}'],
                                      stdout=out, stderr=subprocess.STDOUT, env=environment)
        processes.append(server)
        wait_for(server_log, r'Waiting for connection', server, 60)
        with open(client_log, 'w') as out:
            client = subprocess.Popen(bench + ['--mode', 'l2cap-client', '--scenario', 'send',
                                               '-s', str(args.size), '-c', str(args.count)] + CHANNEL_OPTIONS
                                      + ['central', f'tcp-client:127.0.0.1:{ports[1]}'],
                                      stdout=out, stderr=subprocess.STDOUT, env=environment)
        processes.append(client)
        text = wait_for(client_log, r'Received ACK\. Speed: average=[0-9.]+ \(\d+ bytes in [0-9.]+ seconds\)', client, 600)
        match = re.search(r'Received ACK\. Speed: average=[0-9.]+ \((\d+) bytes in ([0-9.]+) seconds\)', text)
        sent, seconds = int(match.group(1)), float(match.group(2))
        # bumble-bench counts each packet without its 2-octet stream framing; the channel
        # carried `size` octets per packet, as ours carries `size`-octet SDUs.
        return args.count * args.size, seconds, sent
    finally:
        for process in reversed(processes):
            if process.poll() is None:
                process.terminate()
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


def ours(ble, speed):
    result = subprocess.run([ble, 'bench', 'l2cap', '--size', str(args.size), '--count', str(args.count),
                             '--speed', speed, '--json'], check=True, capture_output=True, text=True)
    return json.loads(result.stdout.strip().splitlines()[-1])


def main():
    ble = ble_executable()
    bumble_rates, max_rates, max_simulated, realtime_rates = [], [], [], []
    with tempfile.TemporaryDirectory(prefix='compare-l2cap-') as workdir:
        for run in range(args.runs):
            log(f'run {run + 1} of {args.runs}: Bumble-to-Bumble...')
            octets, seconds, _ = bumble_run(workdir, run)
            bumble_rates.append(octets / seconds)
            log(f'run {run + 1} of {args.runs}: SwiftBLE lock-step (--speed max)...')
            figures = ours(ble, 'max')
            max_rates.append(figures['bytesPerSecond'])
            max_simulated.append(figures['simulatedBytesPerSecond'])
            log(f'run {run + 1} of {args.runs}: SwiftBLE in real time (--speed 1)...')
            realtime_rates.append(ours(ble, '1')['bytesPerSecond'])
    bumble, swift, swift_air, realtime = (statistics.median(values) for values in
                                          (bumble_rates, max_rates, max_simulated, realtime_rates))
    if args.json:
        print(json.dumps({'size': args.size, 'count': args.count, 'runs': args.runs,
                          'bumbleBytesPerSecond': round(bumble), 'swiftBytesPerSecond': round(swift),
                          'ratio': round(swift / bumble, 2), 'swiftSimulatedBytesPerSecond': round(swift_air),
                          'swiftRealtimeBytesPerSecond': round(realtime),
                          'allRuns': {'bumble': [round(v) for v in bumble_rates], 'swiftMax': [round(v) for v in max_rates],
                                      'swiftRealtime': [round(v) for v in realtime_rates]}}))
        return
    print(f'L2CAP CoC send, {args.count} SDUs of {args.size} octets, median of {args.runs} run(s):')
    print(f'  {"Bumble-to-Bumble (bumble-bench, stock controllers, CPU-bound)":64} {bumble / 1e6:8.3f} MB/s')
    print(f'  {"SwiftBLE-to-SwiftBLE (ble bench l2cap --speed max, CPU-bound)":64} {swift / 1e6:8.3f} MB/s')
    print(f'  {"ratio SwiftBLE / Bumble":64} {swift / bumble:8.2f}x')
    print(f'  {"SwiftBLE in real time (--speed 1, air-limited: 2M, 251, 7.5 ms)":64} {realtime / 1e6:8.3f} MB/s')
    print(f'  {"  (the lock-step run in simulated time, the same air limit)":64} {swift_air / 1e6:8.3f} MB/s')
    print(f'  runs (MB/s): Bumble {[round(v / 1e6, 3) for v in bumble_rates]}, '
          f'max {[round(v / 1e6, 3) for v in max_rates]}, real time {[round(v / 1e6, 3) for v in realtime_rates]}')


if __name__ == '__main__':
    main()
