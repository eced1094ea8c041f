#!/usr/bin/env python3
"""Stock Bumble virtual LE controllers for SwiftBLE's host interop tests.

    bumble_controllers.py [-n N] [--le-acl-length L]

Starts N plain `bumble.controller.Controller`s on one `bumble.link.LocalLink` and serves each
as H4 over TCP on 127.0.0.1 (ports picked by the system). Controller i (from 1) has the public
address F0:00:00:00:00:0i. Prints one line once every port listens:

    READY {"ports": [p1, ...], "addresses": ["F0:00:00:00:00:01", ...]}

The controllers are deliberately NOT patched: the host under test has to cope with their gaps
(unanswered commands, repeated advertising data as scan response, extended reports for a
legacy scan, ...). One host per port at a time; a second client is closed at once.

--le-acl-length sets the LE ACL data packet length the controllers report (HCI LE Read Buffer
Size; stock: 27), so hosts cut their L2CAP frames into fewer, longer fragments: bulk tests use
251, the longest LE data PDU payload, to spend their time on data rather than on fragments.

Stops when stdin reaches end of file (the parent test died or closed it) or on SIGTERM/SIGINT.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import signal
import sys

from bumble import hci
from bumble.controller import Controller
from bumble.link import LocalLink
from bumble.transport.common import PacketParser


class TCPHostSink:
    """Where a controller's packets go: the connected host's socket, if any."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self.writer = writer

    def on_packet(self, packet: bytes) -> None:
        if not self.writer.is_closing():
            self.writer.write(packet)  # bytes(HCI_Packet) already starts with the H4 type


class ServedController:
    """One controller and the TCP listener that hands it to one host at a time."""

    def __init__(self, index: int, link: LocalLink, le_acl_length: int) -> None:
        self.address = f'F0:00:00:00:00:{index:02X}'
        self.controller = Controller(
            f'controller-{index}', link=link,
            public_address=hci.Address(self.address, hci.Address.PUBLIC_DEVICE_ADDRESS))
        self.controller.le_acl_data_packet_length = le_acl_length
        self.busy = False
        self.server: asyncio.base_events.Server | None = None

    async def listen(self) -> int:
        self.server = await asyncio.start_server(self.serve, '127.0.0.1', 0)
        return self.server.sockets[0].getsockname()[1]

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.busy:
            writer.close()
            return
        self.busy = True
        writer.get_extra_info('socket').setsockopt(6, 1, 1)  # IPPROTO_TCP, TCP_NODELAY
        self.controller.host = TCPHostSink(writer)
        parser = PacketParser(self.controller)
        try:
            while chunk := await reader.read(4096):
                parser.feed_data(chunk)
        except (ConnectionError, OSError):
            pass
        finally:
            # Stock Bumble keeps advertising, scanning and links after the host leaves
            # (NOTES.md §3.13 #3); we only stop sending to the closed socket.
            self.controller.host = None
            self.busy = False
            writer.close()


async def run(count: int, le_acl_length: int) -> None:
    link = LocalLink()
    served = [ServedController(index + 1, link, le_acl_length) for index in range(count)]
    ports = [await each.listen() for each in served]
    print('READY ' + json.dumps({'ports': ports, 'addresses': [each.address for each in served]}), flush=True)

    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)

    def stdin_readable() -> None:
        try:
            data = sys.stdin.buffer.raw.read(1024)
        except OSError:
            data = b''
        if not data:
            loop.remove_reader(sys.stdin.fileno())
            stop.set()

    loop.add_reader(sys.stdin.fileno(), stdin_readable)
    await stop.wait()
    for each in served:
        if each.server:
            each.server.close()


def main() -> int:
    parser = argparse.ArgumentParser(description='Stock Bumble controllers served as H4 over TCP.')
    parser.add_argument('-n', '--count', type=int, default=2, help='how many controllers (default 2)')
    parser.add_argument('--le-acl-length', type=int, default=27,
                        help='LE ACL data packet length the controllers report (default 27, as stock)')
    parser.add_argument('-v', '--verbose', action='store_true', help="Bumble's debug logs on stderr")
    args = parser.parse_args()
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.ERROR, stream=sys.stderr)
    asyncio.run(run(args.count, args.le_acl_length))
    return 0


if __name__ == '__main__':
    sys.exit(main())
