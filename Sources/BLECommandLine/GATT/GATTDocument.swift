import BLEHost
import BLEWire

/// A GATT server's tree as `ble gatt dump` found it, or as `ble serve` serves it: the
/// document of DESIGN.md ("ble gatt dump --json"), the shape Interop/bumble_gatt_peer.py
/// prints too. Services (secondary ones included) are in handle order.
struct GATTDocument {
    /// A descriptor and its value, or the ATT error reading it gave.
    struct Descriptor {
        var uuid: BluetoothUUID
        var handle: ATT.Handle
        var value: [UInt8]?
        var error: ATT.ErrorCode?
    }

    /// A characteristic: its declaration, value (when it has the Read property) and descriptors.
    struct Characteristic {
        var uuid: BluetoothUUID
        var handle: ATT.Handle
        var valueHandle: ATT.Handle
        var properties: GATTCharacteristicProperties
        var value: [UInt8]?
        var error: ATT.ErrorCode?
        var descriptors: [Descriptor]
    }

    /// An include declaration (Core 5.4, Vol 3, Part G, §3.2).
    struct Include {
        var handle: ATT.Handle
        var startHandle: ATT.Handle
        var endHandle: ATT.Handle
        var uuid: BluetoothUUID
    }

    /// A service and what it holds.
    struct Service {
        var uuid: BluetoothUUID
        var isPrimary: Bool
        var startHandle: ATT.Handle
        var endHandle: ATT.Handle
        var includes: [Include]
        var characteristics: [Characteristic]
    }

    /// The server's address as the command line writes it.
    var address: String
    /// The ATT_MTU in use (the dump's negotiated one, the server's receive MTU for `ble serve`).
    var mtu: Int
    var services: [Service]
    /// `public` or `random`, as `ble scan --json` writes it; `nil` (left out) when unknown.
    var addressType: String?

    /// A UUID as the document writes it: `180D` for 16-bit aliases, else the uppercase
    /// 128-bit form (ATT carries no 32-bit UUIDs, Part F, §3.2.1, so neither does the tree).
    static func text(_ uuid: BluetoothUUID) -> String {
        uuid.uuid16 != nil ? uuid.description : uuid.uuidString
    }

    /// The document's JSON fields (without an "event").
    var jsonFields: [(String, JSONText)] {
        var fields: [(String, JSONText)] = [("address", .string(address))]
        if let addressType { fields.append(("addressType", .string(addressType))) }
        fields += [("mtu", .integer(mtu)), ("services", .array(services.map(\.json)))]
        return fields
    }

    /// The tree as lines of text, in the manner of `bluetoothctl`'s attribute listing.
    var treeLines: [String] {
        var lines = ["GATT database of \(address) (ATT_MTU \(mtu))"]
        for service in services {
            lines.append("\(service.isPrimary ? "Primary" : "Secondary") service \(Self.label(service.uuid)) "
                         + "(handles \(handleText(service.startHandle))–\(handleText(service.endHandle)))")
            for include in service.includes {
                lines.append("  Include \(handleText(include.handle)): \(Self.label(include.uuid)) "
                             + "(handles \(handleText(include.startHandle))–\(handleText(include.endHandle)))")
            }
            for characteristic in service.characteristics {
                lines.append("  Characteristic \(Self.label(characteristic.uuid)) value \(handleText(characteristic.valueHandle)) "
                             + "[\(Self.propertyNames(characteristic.properties).joined(separator: ", "))]"
                             + Self.valueText(characteristic.value, characteristic.error))
                for descriptor in characteristic.descriptors {
                    lines.append("    Descriptor \(Self.label(descriptor.uuid)) \(handleText(descriptor.handle))"
                                 + Self.valueText(descriptor.value, descriptor.error))
                }
            }
        }
        return lines
    }

    /// `2A19 (Battery Level)` or the bare UUID when it has no well-known name.
    static func label(_ uuid: BluetoothUUID) -> String {
        guard let name = GATTNames.name(of: uuid) else { return text(uuid) }
        return "\(text(uuid)) (\(name))"
    }

    static func propertyNames(_ properties: GATTCharacteristicProperties) -> [String] {
        let names: [(GATTCharacteristicProperties, String)] = [
            (.broadcast, "broadcast"), (.read, "read"), (.writeWithoutResponse, "write-without-response"), (.write, "write"),
            (.notify, "notify"), (.indicate, "indicate"), (.authenticatedSignedWrites, "authenticated-signed-writes"),
            (.extendedProperties, "extended-properties"),
        ]
        return names.filter { properties.contains($0.0) }.map(\.1)
    }

    /// ` = 53776966 "Swif"`, ` ! Read Not Permitted (0x02)`, or nothing for no value.
    static func valueText(_ value: [UInt8]?, _ error: ATT.ErrorCode?) -> String {
        if let error { return " ! " + GATTNames.describe(error) }
        guard let value else { return "" }
        let printable = value.allSatisfy { (0x20 ..< 0x7F).contains($0) }
        let shown = value.count > 64 ? hexText(Array(value.prefix(64))) + "… (\(value.count) octets)" : hexText(value)
        if printable, !value.isEmpty { return " = \(shown) \"\(String(decoding: value, as: UTF8.self))\"" }
        return " = " + (value.isEmpty ? "(empty)" : shown)
    }
}

extension GATTDocument.Service {
    var json: JSONText {
        .object([
            ("uuid", .string(GATTDocument.text(uuid))), ("primary", .bool(isPrimary)),
            ("startHandle", .integer(Int(startHandle))), ("endHandle", .integer(Int(endHandle))),
            ("includes", .array(includes.map { include in
                .object([("handle", .integer(Int(include.handle))), ("startHandle", .integer(Int(include.startHandle))),
                         ("endHandle", .integer(Int(include.endHandle))), ("uuid", .string(GATTDocument.text(include.uuid)))])
            })),
            ("characteristics", .array(characteristics.map(\.json))),
        ])
    }
}

extension GATTDocument.Characteristic {
    var json: JSONText {
        var fields: [(String, JSONText)] = [
            ("uuid", .string(GATTDocument.text(uuid))), ("handle", .integer(Int(handle))),
            ("valueHandle", .integer(Int(valueHandle))), ("properties", .integer(Int(properties.rawValue))),
            ("propertyNames", .array(GATTDocument.propertyNames(properties).map { .string($0) })),
            ("value", .hex(value)),
        ]
        if let error { fields += [("error", .integer(Int(error.rawValue))), ("errorName", .string(error.name))] }
        fields.append(("descriptors", .array(descriptors.map { descriptor in
            var entry: [(String, JSONText)] = [("uuid", .string(GATTDocument.text(descriptor.uuid))),
                                               ("handle", .integer(Int(descriptor.handle))), ("value", .hex(descriptor.value))]
            if let error = descriptor.error { entry += [("error", .integer(Int(error.rawValue))), ("errorName", .string(error.name))] }
            return .object(entry)
        })))
        return .object(fields)
    }
}

/// `0x002A`.
func handleText(_ handle: ATT.Handle) -> String {
    let digits = String(handle, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
