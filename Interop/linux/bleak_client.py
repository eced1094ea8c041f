"""bleak as a real client of `ble serve` (Interop/linux/gatt-server.yaml), run in the Linux guest
through BlueZ's D-Bus API: scans for the server's name (on --adapter; --scan-only stops there),
connects, reads, writes and reads back, subscribes and waits for notifications. One JSON line per step on stdout; exit 0 only if all
of them worked."""
import argparse
import asyncio
import json
import sys

from bleak import BleakClient, BleakScanner
from bleak.exc import BleakDBusError

SERVICE = "d7a30101-6c5a-4a7e-9b1e-5f0c2a9e0001"
FIXED = "d7a30102-6c5a-4a7e-9b1e-5f0c2a9e0001"
WRITABLE = "d7a30103-6c5a-4a7e-9b1e-5f0c2a9e0001"
NOTIFYING = "d7a30104-6c5a-4a7e-9b1e-5f0c2a9e0001"


def emit(event: str, **fields) -> None:
    print(json.dumps({"event": event, **fields}), flush=True)


async def run(name: str, notifications: int, adapter: str, scan_only: bool, scan_timeout: float) -> None:
    found = asyncio.get_running_loop().create_future()

    def seen(device, advertisement) -> None:
        if advertisement.local_name == name and not found.done():
            found.set_result((device, advertisement))

    device, advertisement = await scan(found, seen, name, adapter, scan_timeout)
    emit("found", address=device.address, name=advertisement.local_name, uuids=advertisement.service_uuids)
    if scan_only:
        emit("done", ok=True)
        return
    async with BleakClient(device, timeout=60) as client:
        emit("connected", mtu=client.mtu_size)
        services = [service.uuid for service in client.services]
        emit("services", uuids=services)
        value = await client.read_gatt_char(FIXED)
        emit("read", uuid=FIXED, text=value.decode())
        await client.write_gatt_char(WRITABLE, b"written by bleak", response=True)
        back = await client.read_gatt_char(WRITABLE)
        emit("write", uuid=WRITABLE, readBack=back.decode())
        received: asyncio.Queue = asyncio.Queue()
        await client.start_notify(NOTIFYING, lambda _, data: received.put_nowait(bytes(data)))
        emit("subscribed", uuid=NOTIFYING)
        for _ in range(notifications):
            data = await asyncio.wait_for(received.get(), timeout=30)
            emit("notification", uuid=NOTIFYING, value=data.hex())
        await client.stop_notify(NOTIFYING)
    emit("done", ok=True)


async def scan(found, seen, name: str, adapter: str, timeout: float):
    """Scans on `adapter` until `found` has the device, for at most `timeout` seconds. bluetoothd
    refuses a discovery while the adapter is still busy (being powered, or ending an earlier
    discovery) with InProgress: that is waited out (at most 60 s) rather than reported, since the
    caller only asked for a scan."""
    waited = 0
    while True:
        try:
            async with BleakScanner(detection_callback=seen, adapter=adapter):
                try:
                    return await asyncio.wait_for(found, timeout=timeout)
                except asyncio.TimeoutError:
                    raise RuntimeError(f"no device named {name} within {timeout:g} s") from None
        except BleakDBusError as error:
            if "InProgress" not in str(error) or waited >= 60:
                raise
        await asyncio.sleep(1)
        waited += 1


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--name", default="SwiftBLE-BlueZ")
    parser.add_argument("--notifications", type=int, default=3)
    parser.add_argument("--adapter", default="hci0", help="the adapter to use, e.g. hci1")
    parser.add_argument("--scan-only", action="store_true", help="stop once the device is found")
    parser.add_argument("--scan-timeout", type=float, default=30,
                        help="seconds to scan for the device before giving up (a loaded host slows the guest)")
    arguments = parser.parse_args()
    try:
        asyncio.run(run(arguments.name, arguments.notifications, arguments.adapter, arguments.scan_only,
                        arguments.scan_timeout))
    except Exception as error:  # noqa: BLE001 - every failure is reported the same way
        emit("done", ok=False, error=f"{type(error).__name__}: {error}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
