#!/usr/bin/env python3
"""Side-by-side: SwiftBLE's decoders against Bumble's on the same bytes, in one run.

    scripts/compare-bumble-decode.py [--bumble-python PATH]

Builds and runs Benchmarks' DecodeRate (release) for SwiftBLE's figures, then times
Bumble (bumble==0.0.236 in a virtual environment; Interop/setup.sh or
`python3 -m venv .venv-bumble && .venv-bumble/bin/pip install bumble==0.0.236`) decoding
the same octets to the same depth, and prints ns/decode for both and the ratio.
"""
import argparse, json, os, subprocess, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
parser = argparse.ArgumentParser()
parser.add_argument('--bumble-python', default=os.path.join(root, '.venv-bumble', 'bin', 'python'))
args = parser.parse_args()

swift = subprocess.run(['swift', 'run', '-c', 'release', '--package-path', os.path.join(root, 'Benchmarks'), 'DecodeRate'],
                       check=True, capture_output=True, text=True)
ours = json.loads(swift.stdout.strip().splitlines()[-1])

bumble_code = r'''
import json, sys, timeit
from bumble import hci, att, l2cap
rows = json.loads(sys.argv[1])
def att_rbt(b): return att.ATT_PDU.from_bytes(b)
def adv(b): return hci.HCI_Packet.from_bytes(b'\x04' + b)
def acl(b):
    packet = hci.HCI_AclDataPacket.from_bytes(b'\x02' + b)
    frame = l2cap.L2CAP_PDU.from_bytes(packet.data)
    return att.ATT_PDU.from_bytes(frame.payload)
decoders = {"att-read-by-type-response": att_rbt, "le-advertising-report-3": adv, "acl-l2cap-att-notification": acl}
out = {}
for name, row in rows.items():
    if name not in decoders:
        continue  # a workload of ours only (the generated HCI command codecs)
    data = bytes.fromhex(row["hex"]); f = decoders[name]; f(data)
    n = 20000
    best = min(timeit.repeat(lambda: f(data), number=n, repeat=5)) / n
    out[name] = best * 1e9
print(json.dumps(out))
'''
bumble = subprocess.run([args.bumble_python, '-c', bumble_code, json.dumps(ours)], check=True, capture_output=True, text=True)
theirs = json.loads(bumble.stdout.strip().splitlines()[-1])

print(f"{'workload':32} {'SwiftBLE ns':>12} {'Bumble ns':>12} {'ratio':>8}")
for name, row in ours.items():
    if name not in theirs:
        continue
    mine = row['nanosecondsPerDecode']
    print(f"{name:32} {mine:12.1f} {theirs[name]:12.1f} {theirs[name] / mine:7.0f}x")
