#!/usr/bin/env python3
"""SwiftBLE ANCS interop peer: a Bumble host acting as an ANCS accessory (Notification
Consumer) with Bumble's own ANCS client (bumble.profiles.ancs), on one H4-over-TCP
controller, printing one JSON object per line on stdout.

    bumble_ancs_peer.py --port P [--count N] [--decline]

It advertises as C0:5B:00:00:00:41 (random static), connectable, with the ANCS UUID in a
List of 128-bit Service Solicitation UUIDs, so a phone connects to it. On the connection it
asks to pair with a Security Request (Just Works, bonding), discovers ANCS, subscribes, and for each notification Added it
fetches the app identifier, title and message and prints them; with --decline it performs
the negative action on every incoming call. It exits after N notifications (default 2).

Events: "powered_on", "advertising", "connected" {peer}, "paired", "notification" {uid,
eventID, category, flags, app, title, message}, "declined" {uid}, "failed" {reason}, "done".
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time

from bumble import hci
from bumble.device import Device, DeviceConfiguration, Peer
from bumble.pairing import PairingConfig, PairingDelegate
from bumble.profiles.ancs import AncsClient, CategoryId, EventId, NotificationAttributeId
from bumble.transport import open_transport

ADDRESS = 'C0:5B:00:00:00:41'
ANCS_UUID_LE = bytes.fromhex('D0002D121E4B0FA4994ECEB531F40579')
START = time.monotonic()


def say(event: str, **fields) -> None:
    """One JSON line, flushed, so a parent reading the pipe sees it at once."""
    record = {'event': event, 'elapsed': round(time.monotonic() - START, 3), **fields}
    sys.stdout.write(json.dumps(record) + '\n')
    sys.stdout.flush()


async def run(args) -> int:
    transport = await open_transport(f'tcp-client:127.0.0.1:{args.port}')
    config = DeviceConfiguration()
    config.name = 'Bumble ANCS'
    config.address = hci.Address(ADDRESS)
    config.advertising_interval_min = 100
    config.advertising_interval_max = 100
    config.advertising_data = (bytes([2, 0x01, 0x06]) + bytes([17, 0x15]) + ANCS_UUID_LE
                               + bytes([7, 0x09]) + b'Bumble')  # 29 of the 31 octets
    device = Device.from_config_with_hci(config, transport.source, transport.sink)
    device.pairing_config_factory = lambda connection: PairingConfig(
        sc=True, mitm=False, bonding=True,
        delegate=PairingDelegate(io_capability=PairingDelegate.IoCapability.NO_OUTPUT_NO_INPUT),
        identity_address_type=PairingConfig.AddressType.RANDOM)
    await device.power_on()
    say('powered_on', address=ADDRESS)
    connected: asyncio.Future = asyncio.get_running_loop().create_future()
    device.on('connection', lambda connection: connected.done() or connected.set_result(connection))
    await device.start_advertising(auto_restart=False)
    say('advertising')
    connection = await connected
    say('connected', peer=str(connection.peer_address))
    try:
        # An accessory asks the phone to pair with a Security Request (Core 5.4, Vol 3,
        # Part H, §2.4.6); Bumble's Connection.pair() would send a Pairing Request, which only
        # a central may (docs/bumble-quirks.md).
        paired = asyncio.get_running_loop().create_future()
        connection.on('pairing', lambda keys: paired.done() or paired.set_result(True))
        connection.on('pairing_failure', lambda reason: paired.done() or paired.set_exception(RuntimeError(f'pairing failed: {reason}')))
        connection.request_pairing()
        await asyncio.wait_for(paired, timeout=30)
        say('paired')
        peer = Peer(connection)
        client = await AncsClient.for_peer(peer)
        if client is None:
            say('failed', reason='no ANCS service')
            return 1
        queue: asyncio.Queue = asyncio.Queue()
        client.on(AncsClient.EVENT_NOTIFICATION, queue.put_nowait)
        await client.start()
        seen = 0
        while seen < args.count:
            notification = await asyncio.wait_for(queue.get(), timeout=60)
            if notification.event_id != EventId.NOTIFICATION_ADDED:
                continue
            attributes = await client.get_notification_attributes(notification.notification_uid, [
                NotificationAttributeId.APP_IDENTIFIER, NotificationAttributeId.TITLE, NotificationAttributeId.MESSAGE])
            values = {attribute.attribute_id: attribute.value for attribute in attributes}
            say('notification', uid=notification.notification_uid, eventID=int(notification.event_id),
                category=int(notification.category_id), flags=int(notification.event_flags),
                app=values.get(NotificationAttributeId.APP_IDENTIFIER), title=values.get(NotificationAttributeId.TITLE),
                message=values.get(NotificationAttributeId.MESSAGE))
            if args.decline and notification.category_id == CategoryId.INCOMING_CALL:
                await client.perform_negative_action(notification.notification_uid)
                say('declined', uid=notification.notification_uid)
            seen += 1
    except Exception as error:  # noqa: BLE001 - the parent reads the reason
        say('failed', reason=f'{type(error).__name__}: {error}')
        return 1
    say('done')
    await transport.close()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--port', type=int, required=True)
    parser.add_argument('--count', type=int, default=2)
    parser.add_argument('--decline', action='store_true')
    return asyncio.run(run(parser.parse_args()))


if __name__ == '__main__':
    sys.exit(main())
