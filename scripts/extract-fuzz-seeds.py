#!/usr/bin/env python3
"""Writes fuzz seed inputs from btsnoop (datalink 1002) captures.

    scripts/extract-fuzz-seeds.py CAPTURE.btsnoop... 

Each distinct packet becomes a seed for the matching target in Fuzz/Seeds/: H4 events for
hci-event, commands for hci-command, ACL packets for acl-l2cap, ATT and SMP payloads of
unfragmented ACL packets for att and smp, advertising data of LE Advertising Reports for
advertising-data, and the capture itself for btsnoop and h4-stream. A development tool,
not part of the build or the tests.
"""
import hashlib, os, struct, sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'Fuzz', 'Seeds')

def put(target, data):
    folder = os.path.join(root, target)
    os.makedirs(folder, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(folder, name), 'wb') as f:
        f.write(data)

def records(blob):
    assert blob[:8] == b'btsnoop\0', 'not a btsnoop file'
    offset = 16
    while offset + 24 <= len(blob):
        orig, incl, flags, drops, ts = struct.unpack('>IIIIq', blob[offset:offset + 24])
        offset += 24
        yield blob[offset:offset + incl]
        offset += incl

for path in sys.argv[1:]:
    blob = open(path, 'rb').read()
    put('btsnoop', blob)
    stream = b''
    for packet in records(blob):
        stream += packet
        kind, body = packet[0], packet[1:]
        if kind == 0x04:
            put('hci-event', body)
            if len(body) > 3 and body[0] == 0x3E and body[2] == 0x02:
                n, p = body[3], 4
                for _ in range(n):
                    length = body[p + 8]
                    put('advertising-data', body[p + 9:p + 9 + length])
                    p += 10 + length
        elif kind == 0x01:
            put('hci-command', body)
        elif kind == 0x02:
            put('acl-l2cap', body)
            pb = (body[1] >> 4) & 0x3
            if pb != 0x1 and len(body) >= 8:
                l2len, cid = struct.unpack('<HH', body[4:8])
                if l2len == len(body) - 8:
                    if cid == 4:
                        put('att', body[8:])
                    elif cid == 6:
                        put('smp', body[8:])
    for start in range(0, len(stream), 4096):
        put('h4-stream', bytes([7]) + stream[start:start + 4096])
