#!/usr/bin/env python3
"""Writes seed inputs for the stateful fuzz targets from btsnoop (datalink 1002) captures.

    scripts/stateful-fuzz-seeds.py CAPTURE.btsnoop...

The captures' conversations, in order, become programs for the step drivers in
Tests/BLEHostTests/FuzzDrivers (the input format is documented there and in
docs/fuzzing.md):

- gatt-server: every client-to-server ATT PDU of the capture, each a "PDU from
  connection 0x0040" step, once on an unencrypted link and once after an "encrypted,
  16-octet key" step;
- l2cap: every L2CAP B-frame of unfragmented ACL packets, each a "raw frame" step, for
  a central and for a peripheral;
- hci-driver: a plausible start-up, a connection, data both ways and a disconnection,
  then every event of the capture as an "any event" step;
- smp-pairing: every SMP PDU of the capture as a forged PDU to the side it reached, and,
  for every pair of IO capabilities with Secure Connections, legacy, MITM and OOB, an
  honest pairing: PDUs delivered in turn, prompts answered, the link encrypted;
- att-client: every server-to-client ATT PDU of the capture as a raw peer PDU, each
  response after the start of a procedure whose request it answers; and a client's
  session by hand: MTU exchange, discovery, reads, writes, subscriptions, notifications,
  indications, a timeout, a reconnection;
- controller (no capture has air PDUs): by hand, a connection each way with an honest
  peer, data both ways, LL control PDUs forged into the link, scanning, a disconnection.

Seeds go to Fuzz/corpus/TARGET (libFuzzer's working corpus); scripts/fuzz.sh --merge
minimizes them into the committed Fuzz/Stateful/Corpus/TARGET. A development tool, not
part of the build or the tests.
"""
import hashlib, os, struct, sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'Fuzz', 'corpus')
SERVER_BOUND = {0x02, 0x04, 0x06, 0x08, 0x0A, 0x0C, 0x0E, 0x10, 0x12, 0x16, 0x18, 0x20, 0x1E, 0x52, 0xD2}

def put(target, data):
    folder = os.path.join(root, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, hashlib.sha1(data).hexdigest()[:16]), 'wb') as f:
        f.write(data)

def records(blob):
    assert blob[:8] == b'btsnoop\0', 'not a btsnoop file'
    offset = 16
    while offset + 24 <= len(blob):
        _, incl, _, _, _ = struct.unpack('>IIIIq', blob[offset:offset + 24])
        offset += 24
        yield blob[offset:offset + incl]
        offset += incl

def frames(blob):
    """Whole B-frames of unfragmented ACL packets, in capture order."""
    for packet in records(blob):
        if len(packet) < 9 or packet[0] != 0x02:
            continue
        flags = (packet[2] >> 4) & 0x3
        length = packet[3] | packet[4] << 8
        frame = packet[5:5 + length]
        if flags == 0x2 and len(frame) >= 4 and (frame[0] | frame[1] << 8) == len(frame) - 4:
            yield frame

def honest_pairings():
    deliver = bytes([0x00, 0x80]) * 6
    prompts = bytes([0x07, 0x02, 0x87, 0x02])
    for io_i in range(5):
        for io_r in range(5):
            for flags in (0x05, 0x01, 0x07, 0x25):
                config = bytes([io_i, flags, 0x09, io_r, flags, 0x09])
                put('smp-pairing', config + deliver + prompts + deliver + prompts + deliver + bytes([0x08, 0x88]) + deliver * 2)

honest_pairings()
STARTUP = bytes.fromhex(
    '000100' '000100' '000100ff' '000100ff' '000100' '000100fb04' '000100ff' '000100' '000100' '000100'
    '050000' '0c400000' '090002' '0c' '080004000102030405060708' '040002' '060000')
put('hci-driver', STARTUP)
# A channel's life: listen, the peer connects, data both ways, credits, a channel of ours, the peer disconnects, the link ends.
CHANNEL = bytes.fromhex(
    '07' '80' '0002' '4000' '08'
    '00' '00' '05' '0100' '8000' '00' '0002' '4000' '0800'
    '04' '00' '05' '0102030405' '00'
    '09' '00' '4000'
    '00' '00' '07' '0500' '00' '0400'
    '08' '80' '0002' '4000' '04'
    '00' '00' '06' '0200' '01' '0001' '4000' '0500' '0000'
    '00' '00' '01' '0700' '00' '00'
    '0f')
put('l2cap', bytes([0x00]) + CHANNEL)
put('l2cap', bytes([0x03]) + CHANNEL)
# att-client: a procedure is op 0 then start, range length, handle, UUID, kind (ATTClientFuzzDriver.procedure);
# a plausible answer is op 4 then choice, first, last and the opcode's own octets (plausibleAnswer).
def procedure(kind, *extra, handle=0x02):
    return bytes([0x00, 0x00, 0x02, handle, 0x00, kind, *extra])
ANSWER_ERROR = bytes([0x04, 0x09])  # Attribute Not Found naming the request
ATT_SESSION = (
    procedure(0) + bytes([0x04, 0x00, 0x00, 0x00, 0x40])  # MTU 256
    + procedure(1) + bytes([0x04, 0x01, 0x00, 0x03, 0x00]) + bytes([0x04, 0x01, 0x00, 0x03, 0x01]) + ANSWER_ERROR
    + procedure(4) + bytes([0x04, 0x01, 0x00, 0x00, 0x3A, 0x01]) + bytes([0x04, 0x01, 0x01, 0x00, 0x12, 0x05]) + ANSWER_ERROR
    + procedure(6, 0x05) + bytes([0x04, 0x01, 0x00, 0x00, 0x00]) + ANSWER_ERROR
    + procedure(7) + bytes([0x04, 0x01, 0x00, 0x00, 0x04, 0x61, 0x62, 0x63, 0x64])
    + procedure(8) + bytes([0x04, 0x01, 0x00, 0x00, 0xFF]) + bytes(range(255)) + bytes([0x04, 0x01, 0x00, 0x00, 0x03, 0x01, 0x02, 0x03])
    + procedure(11, 0x02, 0x01, 0x00) + bytes([0x04, 0x01, 0x00, 0x00])
    + procedure(12, 0x00, 0x30) + bytes(range(0x30)) + bytes([0x04, 0x01, 0x00, 0x00]) * 4
    + procedure(13, 0x01) + bytes([0x04, 0x01, 0x00, 0x00])
    + bytes([0x09, 0x00, 0x04, 0x02, 0x10, 0x20]) + bytes([0x09, 0x01, 0x04, 0x02, 0x30, 0x40])
    + bytes([0x0B, 0x04, 0x01, 0x02, 0x03, 0x04, 0x05, 0x00])
    + bytes([0x0A, 0x00, 0x02, 0x17, 0x00])  # the peer exchanges MTU too
    + procedure(9, 0x01) + bytes([0x04, 0x01, 0x00, 0x00, 0x02, 0x05, 0x06])
    + procedure(7) + bytes([0x0D, 0xFF, 0x0D, 0xFF])  # no answer: the 30 s timeout
    + procedure(7) + bytes([0x0E, 0x01])  # a new connection
    + procedure(10, 0x03) + bytes([0x04, 0x01, 0x00, 0x00, 0x11, 0x22]) + ANSWER_ERROR
    + procedure(5, 0x02) + bytes([0x04, 0x01, 0x00, 0x00, 0x02, 0x02]) + ANSWER_ERROR
    + procedure(3) + bytes([0x04, 0x01, 0x00, 0x00]) + ANSWER_ERROR
    + procedure(2) + bytes([0x04, 0x01, 0x00, 0x03]) + ANSWER_ERROR
    + procedure(12, 0x01, 0x03, 0x01, 0x02, 0x03, 0x02, 0x04, 0x05) + bytes([0x04, 0x01, 0x00, 0x00]) * 3
    + procedure(7) + bytes([0x0F, 0x02, 0x01, 0x00, 0x0F, 0x02, 0x0B, 0x00])  # a stray Error Response, then a response
    + bytes([0x0E, 0x00]))
put('att-client', bytes([0x00]) + ATT_SESSION)
put('att-client', bytes([0x51]) + ATT_SESSION + bytes([0x0C]))  # MTU 183, indications confirmed by hand
# Which procedure kind asks the request a captured response answers.
KIND_FOR_RESPONSE = {0x03: b'\x00', 0x11: b'\x01', 0x07: b'\x02', 0x09: b'\x04', 0x05: b'\x06\x05', 0x0B: b'\x07',
                     0x0D: b'\x08', 0x13: b'\x0b\x02\x01\x00', 0x21: b'\x09\x01'}
# controller: the input format of ControllerFuzzDriver.perform; a plausible command is
# op 0, handle, kind, its octets, then a mangle octet (0 leaves it alone).
TIME = bytes([0x0C, 0xFA])  # 0.5 s passes
def cmd(kind, *args):
    return bytes([0x00, 0x00, kind, *args, 0x00])
def forged_control(opcode, params, header=0x00):
    return bytes([0x0A, 0x03, opcode, len(params), *params, 0x01, header, 0x00]) + bytes([0x0C, 0x01])
HOST_DATA = bytes([0x05, 0x00, 0x08, 0x04, 0x00, 0x04, 0x00, 0x0A, 0x01, 0x00, 0x02, 0x00])
PEER_DATA = bytes([0x09, 0x00, 0x01, 0x05, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E])
CENTRAL = (bytes([0x07]) + cmd(6, 0x12) + TIME * 2 + HOST_DATA + TIME + PEER_DATA + TIME
    + cmd(10) + cmd(11) + cmd(14, 0x80) + TIME + cmd(9, 0x10, 0x01) + TIME * 2 + cmd(15, 0x00) + TIME
    + cmd(16, 0x00, 0x00) + cmd(19, 0x01) + cmd(12, 0x11) + TIME + cmd(8, 0x00) + TIME * 2)
put('controller', CENTRAL)
PERIPHERAL = (cmd(1, 0x00, 0x00) + cmd(3, 0x01) + bytes([0x08, 0x12]) + TIME
    + forged_control(0x08, bytes(8)) + forged_control(0x0C, bytes([0x0D, 0xFF, 0xFF, 0x00, 0x00]))
    + forged_control(0x14, bytes([0xFB, 0x00, 0x48, 0x08, 0xFB, 0x00, 0x48, 0x08])) + forged_control(0x12, b'', 0x04)
    + forged_control(0x16, bytes([0x03, 0x03])) + forged_control(0x0F, bytes([0x06, 0x00, 0x06, 0x00, 0x00, 0x00, 0x64, 0x00] + [0] * 15))
    + HOST_DATA + TIME + PEER_DATA + TIME + forged_control(0x02, bytes([0x13])) + TIME * 2 + bytes([0x09, 0x00, 0x00]) + TIME * 2)
put('controller', PERIPHERAL)
SCANNER = (cmd(4, 0x01, 0x00) + cmd(5, 0x01, 0x00) + bytes([0x07]) + TIME
    + bytes([0x0A, 0x02, 0x00]) + bytes([0x0A, 0x00, 0x00]) + TIME + cmd(5, 0x00, 0x00) + cmd(1, 0x00, 0x00) + cmd(3, 0x01) + TIME
    + bytes([0x0A, 0x00, 0x00]) + bytes([0x0A, 0x01, 0x00, 0x00, 0x00, 0x06, 0x00, 0x64, 0x00, 0x05, 0x00]) + TIME * 3
    + bytes([0x04, 0x03, 0x0C, 0x00]) + TIME)
put('controller', SCANNER)
for path in sys.argv[1:]:
    blob = open(path, 'rb').read()
    steps = b''
    for frame in frames(blob):
        cid, payload = frame[2] | frame[3] << 8, frame[4:]
        if cid == 0x0004 and payload and payload[0] in SERVER_BOUND and len(payload) <= 255:
            steps += bytes([0x00, len(payload)]) + payload
    if steps:
        put('gatt-server', steps)
        put('gatt-server', bytes([0x08, 0x25]) + steps)  # encrypted, 16-octet key
    events = b''
    for packet in records(blob):
        if packet and packet[0] == 0x04 and len(packet) >= 3 and len(packet) - 3 <= 64:
            events += bytes([0x08, packet[1], len(packet) - 3]) + packet[3:]
    if events:
        put('hci-driver', STARTUP + events)
    forged = b''
    for frame in frames(blob):
        cid, payload = frame[2] | frame[3] << 8, frame[4:]
        if cid == 0x0006 and payload and len(payload) <= 80:
            side = 0x80 if payload[0] in (0x01, 0x03, 0x04, 0x0C, 0x0D) else 0x00
            forged += bytes([0x05 | side, payload[0], 14, len(payload) - 1]) + payload[1:]
    if forged:
        put('smp-pairing', bytes([0x03, 0x05, 0x09, 0x03, 0x05, 0x09]) + forged)
    client = b''
    for frame in frames(blob):
        cid, payload = frame[2] | frame[3] << 8, frame[4:]
        if cid == 0x0004 and payload and payload[0] not in SERVER_BOUND and len(payload) <= 64:
            kind = KIND_FOR_RESPONSE.get(payload[0])
            client += (bytes([0x00, 0x00, 0x02, 0x02, 0x00]) + kind if kind else b'') + bytes([0x0F, len(payload)]) + payload
    if client:
        put('att-client', bytes([0x00]) + client)
    raw = b''
    for frame in frames(blob):
        if len(frame) <= 255:
            raw += bytes([0x06, len(frame)]) + frame
    if raw:
        put('l2cap', bytes([0x00, 0x07, 0x80, 0x00, 0x02, 0x40, 0x00, 0x08]) + raw)  # central, listening on 0x80
        put('l2cap', bytes([0x01]) + raw)  # peripheral
