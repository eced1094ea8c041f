"""A GATT server that BlueZ publishes, for our GATT client to read (`ble gatt dump` from the
host's world): powers the adapter (--adapter, default hci0) on, registers one primary service with a fixed value and a writable value through
bluetoothd's D-Bus API (org.bluez.GattManager1), and advertises its name and service UUID
(org.bluez.LEAdvertisingManager1). Prints {"event": "ready"} once both are registered, one
JSON line per read or write, and runs until killed. Uses dbus-fast (installed with bleak)."""
import argparse
import asyncio
import json
import sys

from dbus_fast import BusType, Variant
from dbus_fast.aio import MessageBus
from dbus_fast.service import PropertyAccess, ServiceInterface, dbus_property, method

APP = "/org/swiftble/app"
SERVICE = "d7a30201-6c5a-4a7e-9b1e-5f0c2a9e0001"
FIXED = "d7a30202-6c5a-4a7e-9b1e-5f0c2a9e0001"
WRITABLE = "d7a30203-6c5a-4a7e-9b1e-5f0c2a9e0001"


def emit(event: str, **fields) -> None:
    print(json.dumps({"event": event, **fields}), flush=True)


class Service(ServiceInterface):
    def __init__(self, uuid: str):
        super().__init__("org.bluez.GattService1")
        self.uuid = uuid

    @dbus_property(access=PropertyAccess.READ)
    def UUID(self) -> "s":  # noqa: F821 - D-Bus signature
        return self.uuid

    @dbus_property(access=PropertyAccess.READ)
    def Primary(self) -> "b":  # noqa: F821
        return True

    def properties(self) -> dict:
        return {"UUID": Variant("s", self.uuid), "Primary": Variant("b", True)}


class Characteristic(ServiceInterface):
    def __init__(self, uuid: str, service: str, flags: list, value: bytes):
        super().__init__("org.bluez.GattCharacteristic1")
        self.uuid, self.service, self.flags, self.value = uuid, service, flags, value

    @dbus_property(access=PropertyAccess.READ)
    def UUID(self) -> "s":  # noqa: F821
        return self.uuid

    @dbus_property(access=PropertyAccess.READ)
    def Service(self) -> "o":  # noqa: F821
        return self.service

    @dbus_property(access=PropertyAccess.READ)
    def Flags(self) -> "as":  # noqa: F821
        return self.flags

    @method()
    def ReadValue(self, options: "a{sv}") -> "ay":  # noqa: F821
        offset = options["offset"].value if "offset" in options else 0
        emit("read", uuid=self.uuid, offset=offset)
        return self.value[offset:]

    @method()
    def WriteValue(self, value: "ay", options: "a{sv}"):  # noqa: F821
        self.value = bytes(value)
        emit("write", uuid=self.uuid, value=self.value.hex())

    def properties(self) -> dict:
        return {"UUID": Variant("s", self.uuid), "Service": Variant("o", self.service), "Flags": Variant("as", self.flags)}


class Application(ServiceInterface):
    """The object manager bluetoothd asks for the application's objects."""

    def __init__(self, objects: dict):
        super().__init__("org.freedesktop.DBus.ObjectManager")
        self.objects = objects

    @method()
    def GetManagedObjects(self) -> "a{oa{sa{sv}}}":  # noqa: F821
        return {path: {interface.name: interface.properties()} for path, interface in self.objects.items()}


class Advertisement(ServiceInterface):
    def __init__(self, name: str, uuids: list):
        super().__init__("org.bluez.LEAdvertisement1")
        # Not self.name: that is the interface's name in dbus-fast.
        self.local_name, self.uuids = name, uuids

    @dbus_property(access=PropertyAccess.READ)
    def Type(self) -> "s":  # noqa: F821
        return "peripheral"

    @dbus_property(access=PropertyAccess.READ)
    def LocalName(self) -> "s":  # noqa: F821
        return self.local_name

    @dbus_property(access=PropertyAccess.READ)
    def ServiceUUIDs(self) -> "as":  # noqa: F821
        return self.uuids

    @method()
    def Release(self):
        emit("released")


async def main(name: str, adapter_name: str) -> None:
    bus = await MessageBus(bus_type=BusType.SYSTEM).connect()
    service_path = APP + "/service0"
    objects = {
        service_path: Service(SERVICE),
        service_path + "/char0": Characteristic(FIXED, service_path, ["read"], b"hello from BlueZ"),
        service_path + "/char1": Characteristic(WRITABLE, service_path, ["read", "write"], b""),
    }
    bus.export(APP, Application(objects))
    for path, interface in objects.items():
        bus.export(path, interface)
    advertisement = "/org/swiftble/advertisement0"
    bus.export(advertisement, Advertisement(name, [SERVICE]))
    path = "/org/bluez/" + adapter_name
    adapter = bus.get_proxy_object("org.bluez", path, await bus.introspect("org.bluez", path))
    await adapter.get_interface("org.bluez.Adapter1").set_powered(True)
    await adapter.get_interface("org.bluez.GattManager1").call_register_application(APP, {})
    await adapter.get_interface("org.bluez.LEAdvertisingManager1").call_register_advertisement("/org/swiftble/advertisement0", {})
    emit("ready", name=name)
    await asyncio.Event().wait()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--name", default="SwiftBLE-Linux")
    parser.add_argument("--adapter", default="hci0", help="the adapter to publish on, e.g. hci1")
    arguments = parser.parse_args()
    try:
        asyncio.run(main(arguments.name, arguments.adapter))
    except Exception as error:  # noqa: BLE001 - reported as one line
        emit("failed", error=f"{type(error).__name__}: {error}")
        sys.exit(1)
