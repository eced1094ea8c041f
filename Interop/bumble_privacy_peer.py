#!/usr/bin/env python3
"""SwiftBLE interop peer for privacy: a Bumble host with LE privacy on one H4-over-TCP
controller, advertising its name from resolvable private addresses of its IRK.

    bumble_privacy_peer.py --port P --irk HEX --address IDENTITY [--name N] [--rpa-timeout S] [--seconds S]

--irk is the IRK as the specification writes the number (most significant octet first),
the form SwiftBLE keeps; Bumble wants the octets least significant first. --address is the
random static identity address. Prints one JSON line per event: "powered_on", then
"advertising" with the private address in use, then "rotated" at each new one.
Ends after --seconds, or at end of file on stdin (the test's lifeline).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time

from bumble import hci
from bumble.device import Device, DeviceConfiguration
from bumble.transport import open_transport

START = time.monotonic()


def say(event: str, **fields) -> None:
    record = {'event': event, 'elapsed': round(time.monotonic() - START, 3), **fields}
    sys.stdout.write(json.dumps(record) + '\n')
    sys.stdout.flush()


def structure(ad_type: int, payload: bytes) -> bytes:
    return bytes([len(payload) + 1, ad_type]) + payload


async def run(args) -> int:
    transport = await open_transport(f'tcp-client:127.0.0.1:{args.port}')
    config = DeviceConfiguration()
    config.name = args.name
    config.address = hci.Address(args.address)
    config.irk = bytes.fromhex(args.irk)[::-1]
    config.le_privacy_enabled = True
    # Bumble's own rotation is off: it skips every update while advertising, and its
    # update_rpa sends the old address in LE Set Random Address (docs/bumble-quirks.md).
    # This peer rotates itself below.
    config.le_rpa_timeout = 0
    # Stock Bumble controllers send no scan responses: the name goes in the advertising data.
    config.advertising_data = structure(0x01, b'\x06') + structure(0x09, args.name.encode())
    config.advertising_interval_min = 50
    config.advertising_interval_max = 50
    device = Device.from_config_with_hci(config, transport.source, transport.sink)
    await device.power_on()
    say('powered_on', identity=str(config.address))
    await device.start_advertising(own_address_type=hci.OwnAddressType.RANDOM, auto_restart=True)
    say('advertising', address=str(device.random_address))
    last = device.random_address

    async def watch() -> None:
        nonlocal last
        while True:
            await asyncio.sleep(args.rpa_timeout)
            # A new address needs advertising off (Vol 4, Part E, §7.8.4).
            await device.stop_advertising()
            last = hci.Address.generate_private_address(device.irk)
            await device.send_sync_command(hci.HCI_LE_Set_Random_Address_Command(random_address=last))
            device.random_address = last
            await device.start_advertising(own_address_type=hci.OwnAddressType.RANDOM, auto_restart=True)
            say('rotated', address=str(last))

    async def lifeline() -> None:
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, sys.stdin.read)

    watcher = asyncio.create_task(watch())
    waits = [asyncio.create_task(asyncio.sleep(args.seconds)), asyncio.create_task(lifeline())]
    await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    watcher.cancel()
    say('done')
    await transport.close()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--port', type=int, required=True)
    parser.add_argument('--irk', required=True)
    parser.add_argument('--address', required=True)
    parser.add_argument('--name', default='BumblePrivate')
    parser.add_argument('--rpa-timeout', type=int, default=2)
    parser.add_argument('--seconds', type=float, default=120)
    return asyncio.run(run(parser.parse_args()))


if __name__ == '__main__':
    sys.exit(main())
