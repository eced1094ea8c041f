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
            {"address", "mtu", "services": [{"uuid", "primary", "startHandle", "endHandle", \
            "includes", "characteristics": [{"uuid", "handle", "valueHandle", "properties", \
            "value", "descriptors": [...]}]}]}, values in lowercase hex, null when not \
            readable, "error": code when a read failed.
            """
    )

    @OptionGroup var connection: GATTConnectionOptions

    @Flag(help: "Print the JSON document instead of a tree.")
    var json = false

    @OptionGroup(title: "Logging") var logging: LoggingOptions

    func run() async throws {
        let document = try await connection.withConnection { host, link, peer in
            try await GATTDiscovery(host: host, connection: link.handle).document(address: peer.address.description)
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
        let (handle, value) = try await connection.withConnection { host, link, _ in
            let discovery = GATTDiscovery(host: host, connection: link.handle)
            let handle = try await resolveValueHandle(target, discovery)
            switch try await discovery.read(handle) {
            case let .success(value): return (handle, value)
            case let .failure(code):
                throw CommandFailure("The server answered \(GATTNames.describe(code)) to reading \(target).")
            }
        }
        OutputLine(text: "\(handleText(handle)): \(hexText(value)) (\(value.count) octets)",
                   fields: [("event", .string("read")), ("handle", .integer(Int(handle))), ("value", .string(hexText(value)))])
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
        let (handle, long) = try await connection.withConnection { host, link, _ in
            let discovery = GATTDiscovery(host: host, connection: link.handle)
            let handle = try await resolveValueHandle(target, discovery)
            let mtu = await host.attMTU(on: link.handle) ?? ATTBearerConfiguration.defaultMTU
            if withoutResponse {
                do {
                    try await host.writeWithoutResponse(octets, to: handle, on: link.handle)
                } catch {
                    throw CommandFailure(GATTNames.sentence(error, doing: "the Write Command to \(target)"))
                }
                return (handle, false)
            }
            let long = octets.count > mtu - 3
            _ = try await discovery.run(long ? .writeLong(handle, octets) : .write(handle, octets), doing: "writing \(target)")
            return (handle, long)
        }
        let how = withoutResponse ? "Write Command" : long ? "Write Long" : "Write Request"
        OutputLine(text: "Wrote \(octets.count) octets to \(handleText(handle)) (\(how))",
                   fields: [("event", .string("written")), ("handle", .integer(Int(handle))), ("length", .integer(octets.count)),
                            ("long", .bool(long)), ("withResponse", .bool(!withoutResponse))])
            .print(json: json)
    }
}

/// The value handle of a target: a handle as given, a UUID looked up.
func resolveValueHandle(_ target: GATTTarget, _ discovery: GATTDiscovery) async throws -> ATT.Handle {
    if case let .handle(handle) = target { return handle }
    guard let characteristic = try await discovery.characteristic(target) else {
        throw CommandFailure("The server has no \(target).")
    }
    return characteristic.valueHandle
}
