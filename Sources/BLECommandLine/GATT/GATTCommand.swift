import ArgumentParser
import BLEHost
import BLEWire
import Foundation

/// `ble gatt`: a GATT client on the command line (Core 5.4, Vol 3, Part G, §4): dump a
/// peer's whole tree, read, write, subscribe.
struct GATTCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gatt",
        abstract: "Connect to a GATT server and dump its tree, read, write or subscribe.",
        discussion: """
            ADDRESS is written as ble scan prints it: C0:11:22:33:44:55 for a public address, \
            C0:11:22:33:44:55/random (or --random) for a random one. An attribute is named by \
            a characteristic UUID (2A19, or 128-bit) or a handle written with 0x (0x002A).
            """,
        subcommands: [GATTDumpCommand.self, GATTReadCommand.self, GATTWriteCommand.self, GATTSubscribeCommand.self]
    )
}

/// `ble gatt dump ADDRESS`: discovers everything and reads every readable value.
struct GATTDumpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "Discover every service, include, characteristic and descriptor and read every readable value.",
        discussion: """
            Values are read with Read Long (Read, then Read Blob). A value whose read fails \
            shows its ATT error and the dump goes on. --json prints one document: \
            {"address", "addressType", "mtu", "services": [{"uuid", "primary", "startHandle", "endHandle", \
            "includes", "characteristics": [{"uuid", "handle", "valueHandle", "properties", \
            "propertyNames", "value", "descriptors": [...]}]}]}, values in lowercase hex, null when not \
            readable, "error": code and "errorName" when a read failed; handles are numbers, \
            properties the declaration's bit mask with its names beside it.
            """
    )

    @OptionGroup var connection: GATTConnectionOptions

    @Flag(help: "Print the JSON document instead of a tree.")
    var json = false

    @OptionGroup(title: "Logging") var logging: LoggingOptions

    func run() async throws {
        let document = try await connection.withConnection { host, link, peer in
            var document = try await GATTDiscovery(host: host, connection: link.handle).document(address: peer.address.description)
            document.addressType = peer.typeName
            return document
        }
        if json {
            print(JSONText.object(document.jsonFields).rendered)
        } else {
            for line in document.treeLines { print(line) }
        }
    }
}

/// `ble gatt read ADDRESS UUID|HANDLE`.
struct GATTReadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read",
        abstract: "Read one characteristic value (with Read Long) and print it in hex."
    )

    @OptionGroup var connection: GATTConnectionOptions

    @Argument(help: "A characteristic UUID (its first occurrence) or a handle written 0x002A.")
    var attribute: String

    @Flag(help: "One JSON object instead of a sentence.")
    var json = false

    func validate() throws {
        guard GATTTarget(parsing: attribute) != nil else {
            throw ValidationError("\(attribute) is neither a UUID nor a handle written with 0x (0x002A).")
        }
    }

    @OptionGroup(title: "Logging") var logging: LoggingOptions

    func run() async throws {
        guard let target = GATTTarget(parsing: attribute) else { throw CommandFailure("Invalid attribute \(attribute).") }
        let (resolved, value, peer) = try await connection.withConnection { host, link, peer in
            let discovery = GATTDiscovery(host: host, connection: link.handle)
            let resolved = try await resolveCharacteristic(target, discovery)
            switch try await discovery.read(resolved.handle) {
            case let .success(value): return (resolved, value, peer)
            case let .failure(code):
                throw CommandFailure("The server answered \(GATTNames.describe(code)) to reading \(target).")
            }
        }
        var fields: [(String, OutputLine.Value)] = [("event", .string("read")), ("address", .string(peer.address.description)),
                                                    ("addressType", .string(peer.typeName)),
                                                    ("uuid", resolved.uuid.map { .string(GATTDocument.text($0)) } ?? .null),
                                                    ("handle", .integer(Int(resolved.handle))), ("value", .string(hexText(value)))]
        if let text = GATTValueText.printable(value) { fields.append(("text", .string(text))) }
        let decoded = resolved.uuid.flatMap { GATTValueText.decoded(value, of: $0) }
        if let decoded { fields.append(("decoded", .string(decoded))) }
        OutputLine(text: "\(handleText(resolved.handle))\(resolved.uuid.map { " " + GATTDocument.label($0) } ?? ""): "
                   + GATTValueText.line(value) + (decoded.map { " = " + $0 } ?? ""),
                   fields: fields)
            .print(json: json)
    }
}

/// `ble gatt write ADDRESS UUID|HANDLE HEX`.
struct GATTWriteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "write",
        abstract: "Write a value in hex; values longer than ATT_MTU - 3 go with Write Long.",
        discussion: "--without-response sends a Write Command, which must fit one PDU (ATT_MTU - 3 octets)."
    )

    @OptionGroup var connection: GATTConnectionOptions

    @Argument(help: "A characteristic UUID (its first occurrence) or a handle written 0x002A.")
    var attribute: String

    @Argument(help: "The value in hex, e.g. 0102ff (empty string for an empty value).")
    var value: String

    @Flag(help: "Send a Write Command (no response) instead of a Write Request.")
    var withoutResponse = false

    @Flag(help: "One JSON object instead of a sentence.")
    var json = false

    func validate() throws {
        guard GATTTarget(parsing: attribute) != nil else {
            throw ValidationError("\(attribute) is neither a UUID nor a handle written with 0x (0x002A).")
        }
        guard let octets = bytes(fromHex: value) else { throw ValidationError("\(value) is not hex (two digits per octet).") }
        guard octets.count <= 512 else { throw ValidationError("An attribute value holds at most 512 octets (Core 5.4, Vol 3, Part F, §3.2.9).") }
    }

    @OptionGroup(title: "Logging") var logging: LoggingOptions

    func run() async throws {
        guard let target = GATTTarget(parsing: attribute), let octets = bytes(fromHex: value) else {
            throw CommandFailure("Invalid arguments; see ble gatt write --help.")
        }
        let withoutResponse = self.withoutResponse
        let (resolved, long, peer) = try await connection.withConnection { host, link, peer in
            let discovery = GATTDiscovery(host: host, connection: link.handle)
            let resolved = try await resolveCharacteristic(target, discovery)
            let handle = resolved.handle
            let mtu = await host.attMTU(on: link.handle) ?? ATTBearerConfiguration.defaultMTU
            if withoutResponse {
                do {
                    try await host.writeWithoutResponse(octets, to: handle, on: link.handle)
                } catch {
                    throw CommandFailure(GATTNames.sentence(error, doing: "the Write Command to \(target)"))
                }
                return (resolved, false, peer)
            }
            let long = octets.count > mtu - 3
            _ = try await discovery.run(long ? .writeLong(handle, octets) : .write(handle, octets), doing: "writing \(target)")
            return (resolved, long, peer)
        }
        let how = withoutResponse ? "Write Command" : long ? "Write Long" : "Write Request"
        OutputLine(text: "Wrote \(GATTValueText.octets(octets.count)) to \(handleText(resolved.handle))"
                   + "\(resolved.uuid.map { " " + GATTDocument.label($0) } ?? "") (\(how))",
                   fields: [("event", .string("written")), ("address", .string(peer.address.description)),
                            ("addressType", .string(peer.typeName)),
                            ("uuid", resolved.uuid.map { .string(GATTDocument.text($0)) } ?? .null),
                            ("handle", .integer(Int(resolved.handle))), ("length", .integer(octets.count)),
                            ("long", .bool(long)), ("withResponse", .bool(!withoutResponse))])
            .print(json: json)
    }
}

/// The value handle of a target and its characteristic's UUID: a handle as given (with the
/// UUID of the characteristic whose value it is, if any), a UUID looked up.
func resolveCharacteristic(_ target: GATTTarget, _ discovery: GATTDiscovery) async throws -> (handle: ATT.Handle, uuid: BluetoothUUID?) {
    if case let .handle(handle) = target {
        // Any handle may be read or written, a descriptor's too; the UUID only labels the output.
        let characteristic = try? await discovery.characteristic(target)
        return (handle, characteristic?.uuid)
    }
    guard let characteristic = try await discovery.characteristic(target) else { throw try await discovery.absent(target) }
    return (characteristic.valueHandle, characteristic.uuid)
}
