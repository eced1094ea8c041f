"""Decodes btsnoop captures with BlueZ's btmon and says whether it read them whole and clean:
    python3 btmon_check.py FILE...
Prints one JSON line per file: {"file", "datalink", "records", "decoded", "problems",
"valueNotes"}, where records is the HCI packets the file holds (read here, independently of
btmon; a btmon capture's notes, index and management records are not HCI packets), decoded
the packets btmon numbered, problems btmon's lines that mark a packet it could not decode, and
valueNotes its other "invalid" lines. Exits 1 when a file is no btsnoop capture, holds no
packet, btmon decoded fewer packets than it holds, or marked any as malformed.

What btmon 5.66 prints for a malformed packet, found by feeding it crafted ones: a Command
Complete without its status, "invalid packet size"; an event shorter than its parameter
length, "invalid packet size (4 != 9)"; an L2CAP frame whose length does not match,
"invalid packet size (5 != 6)" or, after one that announced more octets than came,
"unexpected start frame"; fixed-size PDUs, "too short packet"; an L2CAP header cut short,
"malformed packet". A file that is no capture at all it skips silently with exit status 0,
and a packet of an unknown H4 type it drops silently: hence the count of records.

valueNotes do not fail a capture: btmon 5.66 decodes the value of a Read Response by the type
it believes the attribute read has, and from a central's discovery it takes every value read
for a characteristic declaration (a Device Name "SwiftBLE-BlueZ" shows as "Properties: 0x53,
Value Handle: 0x6977", a 2-octet descriptor value as "Value Handle: invalid size"): a misreading
of well-formed PDUs, not a malformed packet.
"""
import json
import re
import struct
import subprocess
import sys

MARKERS = re.compile(r"invalid packet size|too short packet|malformed packet|unexpected start frame|[Mm]alformed|truncated")
VALUE_NOTES = re.compile(r"invalid")
# The monitor datalink (2001) keeps its opcode in the flags' low 16 bits; btmon numbers these:
# command, event, ACL TX/RX, SCO TX/RX, ISO TX/RX.
MONITOR_PACKETS = {2, 3, 4, 5, 6, 7, 18, 19}
NUMBERED = re.compile(r" #(\d+) ")


def records(path: str) -> tuple[int, int]:
    """The datalink and the number of records of a btsnoop file; raises ValueError if it is none."""
    with open(path, "rb") as file:
        data = file.read()
    if len(data) < 16 or data[:8] != b"btsnoop\0":
        raise ValueError("not a btsnoop capture (no btsnoop header)")
    version, datalink = struct.unpack(">II", data[8:16])
    if version != 1:
        raise ValueError(f"btsnoop version {version}, not 1")
    offset, count = 16, 0
    while offset < len(data):
        if offset + 24 > len(data):
            raise ValueError(f"a record header cut short at octet {offset}")
        _, included, flags = struct.unpack(">III", data[offset:offset + 12])
        offset += 24 + included
        if offset > len(data):
            raise ValueError(f"a record is cut short at octet {offset - included}")
        if datalink != 2001 or flags & 0xFFFF in MONITOR_PACKETS:
            count += 1
    return datalink, count


def check(path: str) -> dict:
    result = {"file": path, "datalink": None, "records": 0, "decoded": 0, "problems": [], "valueNotes": []}
    try:
        result["datalink"], result["records"] = records(path)
    except (OSError, ValueError) as error:
        result["problems"].append(str(error))
        return result
    output = subprocess.run(["btmon", "-r", path], capture_output=True, text=True, timeout=120)
    lines = output.stdout.splitlines()
    numbers = [int(match.group(1)) for line in lines if (match := NUMBERED.search(line))]
    result["decoded"] = max(numbers, default=0)
    result["problems"] = [f"{index + 1}: {line.strip()}" for index, line in enumerate(lines) if MARKERS.search(line)]
    result["valueNotes"] = [f"{index + 1}: {line.strip()}" for index, line in enumerate(lines)
                            if VALUE_NOTES.search(line) and not MARKERS.search(line)]
    if output.returncode != 0:
        result["problems"].append(f"btmon -r exited with status {output.returncode}: {output.stderr.strip()}")
    if result["records"] == 0:
        result["problems"].append("the capture holds no packet")
    elif result["decoded"] < result["records"]:
        result["problems"].append(f"btmon decoded {result['decoded']} of {result['records']} packets")
    return result


def main() -> int:
    ok = True
    for path in sys.argv[1:]:
        result = check(path)
        ok = ok and not result["problems"]
        print(json.dumps(result), flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
