#!/usr/bin/env python3
"""Writes a generated city as a scenario file: iBeacons advertising once a second on a square
district, phones monitoring them (half standing, half walking a loop), and gateways on
roofs scanning. For benchmarks of the world at scale (docs/world-benchmarks.md); the file is
an ordinary scenario that `ble sim run FILE` and `ScenarioLoader` read.

Usage (from anywhere):
  scripts/make-city-scenario.py --beacons 10000 --phones 100 --gateways 10 --area 1 --seed 1 -o city.yaml

The same arguments give the same file, byte for byte (Python's `random` seeded with --seed).

Figures: path loss 40 + 25 log10(d) dB (the world's default) with 2 dB shadowing and a 6 dB
capture margin; beacons send -12 dBm (-52 dBm at 1 m, as in Scenarios/crowd.yaml) at 3 m,
each switched on at a random moment of its first second (startAt: random); phones are 1.2 m
up with the default -95 dBm sensitivity, scanning continuously (100 ms per channel) and
monitoring one region for the city's UUID; walkers loop through four random points at
1.4 m/s. Gateways are 4 m up with a 5 dBi antenna, scanning and monitoring like a phone.
"""

import argparse
import math
import random
import sys

UUID = "2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--beacons", type=int, required=True, help="iBeacons advertising every second")
    parser.add_argument("--phones", type=int, default=100, help="phones monitoring (half of them walk)")
    parser.add_argument("--gateways", type=int, default=0, help="gateways scanning from roofs")
    parser.add_argument("--area", type=float, default=1.0, help="the district's area in square kilometres (a square)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the layout and of the world")
    parser.add_argument("--duration", type=float, default=60, help="the scenario's duration in seconds")
    parser.add_argument("-o", "--output", required=True, help="the scenario file to write ('-' for stdout)")
    arguments = parser.parse_args()
    for name in ("beacons", "phones", "gateways"):
        if getattr(arguments, name) < 0:
            parser.error(f"--{name} must be 0 or more")
    if arguments.beacons > 0xFFFFFF or arguments.phones + arguments.gateways > 0xFFFF:
        parser.error("at most 16,777,215 beacons and 65,535 phones and gateways (their addresses)")
    if not arguments.area > 0 or not math.isfinite(arguments.area):
        parser.error("--area must be a positive number of square kilometres")
    if arguments.phones + arguments.gateways == 0:
        parser.error("a city needs at least one phone or gateway to observe it")

    generator = random.Random(arguments.seed)
    side = math.sqrt(arguments.area) * 1000
    half = side / 2

    def point():
        return round(generator.uniform(-half, half), 2), round(generator.uniform(-half, half), 2)

    lines = [
        f"# A generated city: {arguments.beacons} iBeacons, {arguments.phones} phones and {arguments.gateways} gateways",
        f"# on {arguments.area:g} km2 ({side:.0f} m square, centred on the origin), seed {arguments.seed}.",
        f"# Written by scripts/make-city-scenario.py {' '.join(sys.argv[1:])}",
        "name: city",
        f"seed: {arguments.seed}",
        f"duration: {arguments.duration:g}",
        "timing: realistic",
        "radio:",
        "  referenceLossDB: 40",
        "  pathLossExponent: 2.5",
        "  shadowingSigmaDB: 2",
        "  captureMarginDB: 6",
        "devices:",
    ]
    observe = f"observe: {{monitor: [{{identifier: city, uuid: {UUID}}}], range: false, exitPeriod: 30}}"
    for number in range(1, arguments.phones + 1):
        x, y = point()
        address = f"D0:C1:00:00:{number >> 8:02X}:{number & 0xFF:02X}"
        route = ""
        if number % 2 == 0:
            stops = ", ".join(f"[{px}, {py}, 1.2]" for px, py in (point() for _ in range(4)))
            route = f", route: {{waypoints: [{stops}], speed: 1.4, loop: true}}"
        lines.append(f'  - {{name: phone {number}, address: "{address}", position: [{x}, {y}, 1.2]{route}, '
                     f"scan: {{interval: 100, window: 100}}, {observe}}}")
    for number in range(1, arguments.gateways + 1):
        x, y = point()
        address = f"D0:C2:00:00:{number >> 8:02X}:{number & 0xFF:02X}"
        lines.append(f'  - {{name: gateway {number}, address: "{address}", position: [{x}, {y}, 4], antennaGain: 5, '
                     f"scan: {{interval: 100, window: 100}}, {observe}}}")
    for number in range(1, arguments.beacons + 1):
        x, y = point()
        address = f"C0:C3:00:{number >> 16:02X}:{(number >> 8) & 0xFF:02X}:{number & 0xFF:02X}"
        lines.append(
            f'  - {{name: beacon {number}, address: "{address}", addressType: random, position: [{x}, {y}, 3], '
            f"txPower: -12, startAt: random, advertise: {{type: nonconn_ind, interval: 1000, "
            f"iBeacon: {{uuid: {UUID}, major: {1 + (number - 1) // 65535}, minor: {1 + (number - 1) % 65535}, measuredPower: -52}}}}}}"
        )
    text = "\n".join(lines) + "\n"
    if arguments.output == "-":
        sys.stdout.write(text)
    else:
        with open(arguments.output, "w") as file:
            file.write(text)


if __name__ == "__main__":
    main()
