#!/usr/bin/env python3
"""Checks bumble_gatt_peer.py Bumble against Bumble: its server on one stock controller of
bumble_controllers.py, its client on the other, at ATT_MTU 23 and 517.

    check_bumble_gatt_peer.py [--count 10000] [--le-acl-length 27] [-v]

Run it with the Bumble venv's Python (it starts the peers with the same interpreter). For each
MTU: the client's discovered database equals the server's own document (every service,
characteristic, descriptor and value, the 400-octet one by Read Blob); long writes of 1 to 512
octets read back identical; 513 octets get Invalid Attribute Value Length (0x0D); a write to the
read-only characteristic gets Write Not Permitted (0x03); a Read Blob past the end of the
400-octet value gets Invalid Offset (0x07); COUNT notifications and COUNT indications arrive in
order, none lost. Prints one line per check and PASS or FAIL; exit status 0 on PASS.
"""

import argparse
import asyncio
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
PATIENCE = 120  # seconds for any one event: generous, the machine is shared
LONG_SIZES = (1, 17, 18, 19, 20, 100, 244, 400, 510, 511, 512)
READ_WRITE, READ_ONLY, LONG = ('A7E3C0DE-5B1E-4E6B-9F00-0000000000' + tail for tail in ('A3', 'A1', 'A2'))
NOTIFY, INDICATE = 'A7E3C0DE-5B1E-4E6B-9F00-0000000000A5', 'A7E3C0DE-5B1E-4E6B-9F00-0000000000A6'


class Process:
    """A child speaking JSON lines: events are read as they come."""

    def __init__(self, name: str, process) -> None:
        self.name, self.process, self.events = name, process, asyncio.Queue()
        self.reader = asyncio.ensure_future(self.read())

    @classmethod
    async def start(cls, name: str, *arguments: str):
        process = await asyncio.create_subprocess_exec(
            sys.executable, *arguments, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=None if VERBOSE else asyncio.subprocess.DEVNULL, cwd=here)
        return cls(name, process)

    async def read(self) -> None:
        while line := await self.process.stdout.readline():
            text = line.decode().strip()
            if VERBOSE:
                print(f'  [{self.name}] {text[:300]}', file=sys.stderr)
            if text.startswith('READY '):
                await self.events.put({'event': 'READY', **json.loads(text[6:])})
            elif text.startswith('{'):
                await self.events.put(json.loads(text))
        await self.events.put({'event': 'exited'})

    async def expect(self, *names: str) -> dict:
        """The next event named one of `names` (others are skipped); errors fail at once."""
        while True:
            event = await asyncio.wait_for(self.events.get(), PATIENCE)
            if event['event'] in names:
                return event
            if event['event'] in ('error', 'exited'):
                raise AssertionError(f'{self.name}: {event} while waiting for {names}')

    def send(self, command: str, **fields) -> None:
        self.process.stdin.write((command + ' ' + json.dumps(fields) + '\n').encode())

    async def stop(self) -> None:
        if self.process.returncode is None:
            self.process.stdin.close()
            try:
                await asyncio.wait_for(self.process.wait(), 10)
            except asyncio.TimeoutError:
                self.process.terminate()
                await self.process.wait()
        self.reader.cancel()


RESULTS = []


def check(what: str, ok: bool, detail: str = '') -> None:
    RESULTS.append(ok)
    print(f'{"ok  " if ok else "FAIL"} {what}{"" if ok else ": " + detail}', flush=True)


async def with_client(port: int, server: Process, database: dict, mtu: int, count: int) -> None:
    client = await Process.start(f'client-{mtu}', 'bumble_gatt_peer.py', '--port', str(port), '--role', 'client',
                                 database['address'], '--mtu', str(mtu))
    try:
        discovered = await client.expect('database')
        check(f'MTU {mtu}: negotiated', discovered['mtu'] == mtu, str(discovered['mtu']))
        check(f'MTU {mtu}: discovered database equals the served one', discovered['services'] == database['services'],
              json.dumps(discovered['services'])[:400])
        for size in LONG_SIZES + (513,):
            value = bytes((index * 13 + size) & 0xFF for index in range(size)).hex()
            client.send('writeLong', handle=READ_WRITE, hex=value)
            if size > 512:
                error = await client.expect('error')
                check(f'MTU {mtu}: long write of {size} octets refused with 0x0D', error.get('code') == 0x0D, str(error))
                continue
            await client.expect('written')
            client.send('read', handle=READ_WRITE)
            read = await client.expect('read')
            check(f'MTU {mtu}: long write of {size} octets reads back', read['value'] == value, read['value'][:80])
        client.send('write', handle=READ_ONLY, hex='00')
        error = await client.expect('error')
        check(f'MTU {mtu}: write to read-only gets 0x03', error.get('code') == 0x03, str(error))
        client.send('read', handle=LONG, offset=401)
        error = await client.expect('error')
        check(f'MTU {mtu}: Read Blob past the end gets 0x07', error.get('code') == 0x07, str(error))
        for uuid, indicate in ((NOTIFY, False), (INDICATE, True)):
            client.send('subscribe', handle=uuid, indicate=indicate, expect=count)
            await client.expect('subscribed')
            await server.expect('subscription')
            server.send('indicate' if indicate else 'notify', count=count, size=min(mtu - 3, 244))
            received = await client.expect('received')
            sent = await server.expect('indicated' if indicate else 'notified')
            kind = 'indications' if indicate else 'notifications'
            check(f'MTU {mtu}: {count} {kind} in order, none lost',
                  received['count'] == count and received['inOrder'] and received['firstSequence'] == 0,
                  str(received))
            print(f'     {kind}: {count / max(received["seconds"], 1e-9):,.0f}/s received, server {sent["seconds"]} s')
    finally:
        await client.stop()
        await server.expect('disconnected')


async def main(args) -> int:
    controllers = await Process.start('controllers', 'bumble_controllers.py', '-n', '2',
                                      '--le-acl-length', str(args.le_acl_length))
    server = None
    try:
        ports = (await controllers.expect('READY'))['ports']
        server = await Process.start('server', 'bumble_gatt_peer.py', '--port', str(ports[0]), '--role', 'server',
                                     '--stdin-lifeline')
        await server.expect('database')
        for mtu in (23, 517):
            server.send('database')  # values as they are now: the writes of the last client stay
            await with_client(ports[1], server, await server.expect('database'), mtu, args.count)
    except (AssertionError, asyncio.TimeoutError) as error:
        check('the run went to the end', False, repr(error))
    finally:
        if server:
            await server.stop()
        await controllers.stop()
    ok = all(RESULTS) and RESULTS
    print('PASS' if ok else 'FAIL', f'({sum(RESULTS)} of {len(RESULTS)} checks)')
    return 0 if ok else 1


if __name__ == '__main__':
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--count', type=int, default=10000, help='notifications and indications per MTU (default 10000)')
    parser.add_argument('--le-acl-length', type=int, default=27, help="the controllers' LE ACL length (default 27, stock)")
    parser.add_argument('-v', '--verbose', action='store_true', help="the peers' lines and logs on stderr")
    arguments = parser.parse_args()
    VERBOSE = arguments.verbose
    sys.exit(asyncio.run(main(arguments)))
