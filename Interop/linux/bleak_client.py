"""bleak as a real client of `ble serve` (Interop/linux/gatt-server.yaml), run in the Linux guest
through BlueZ's D-Bus API: scans for the server's name, connects, reads, writes and reads back,
subscribes and waits for notifications. One JSON line per step on stdout; exit 0 only if all
of them worked."""
import argparse
import asyncio
import json
import sys

from bleak import BleakClient, BleakScanner

SERVICE = "d7a30101-6c5a-4a7e-9b1e-5f0c2a9e0001"
FIXED = "d7a30102-6c5a-4a7e-9b1e-5f0c2a9e0001"
WRITABLE = "d7a30103-6c5a-4a7e-9b1e-5f0c2a9e0001"
NOTIFYING = "d7a30104-6c5a-4a7e-9b1e-5f0c2a9e0001"


def emit(event: str, **fields) -> None:
    print(json.dumps({"event": event, **fields}), flush=True)


async def run(name: str, notifications: int) -> None:
    device = await BleakScanner.find_device_by_name(name, timeout=30)
    if device is None:
        raise RuntimeError(f"no device named {name} within 30 s")
    emit("found", address=device.address, name=device.name)
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


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--name", default="SwiftBLE-BlueZ")
    parser.add_argument("--notifications", type=int, default=3)
    arguments = parser.parse_args()
    try:
        asyncio.run(run(arguments.name, arguments.notifications))
    except Exception as error:  # noqa: BLE001 - every failure is reported the same way
        emit("done", ok=False, error=f"{type(error).__name__}: {error}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
