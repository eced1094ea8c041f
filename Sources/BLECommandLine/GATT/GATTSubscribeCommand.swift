import ArgumentParser
import BLEHost
import BLEWire
import Foundation

/// `ble gatt subscribe ADDRESS UUID|HANDLE`: enables notifications or indications through
/// the characteristic's Client Characteristic Configuration descriptor (Core 5.4, Vol 3,
/// Part G, §4.10, §4.11) and prints each value as it arrives.
struct GATTSubscribeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "subscribe",
        abstract: "Subscribe to notifications (or indications) of a characteristic and print each value.",
        discussion: "Runs until --count values arrived, --seconds passed, or the peer disconnects."
    )

    @OptionGroup var connection: GATTConnectionOptions

    @Argument(help: "A characteristic UUID (its first occurrence) or its value handle written 0x002A.")
    var attribute: String

    @Flag(help: "Enable indications instead of notifications (chosen anyway when the characteristic only indicates).")
    var indicate = false

    @Option(help: "Stop after this many values.")
    var count: Int?

    @Option(help: "Stop after this many seconds.")
    var seconds: Double?

    @Flag(help: "One JSON object per value instead of a sentence.")
    var json = false

    func validate() throws {
        guard GATTTarget(parsing: attribute) != nil else {
            throw ValidationError("\(attribute) is neither a UUID nor a handle written with 0x (0x002A).")
        }
        if let count, count < 1 { throw ValidationError("--count must be at least 1.") }
        if let seconds, !(seconds.isFinite && seconds > 0) { throw ValidationError("--seconds must be positive.") }
    }

    @OptionGroup(title: "Logging") var logging: LoggingOptions

    func run() async throws {
        guard let target = GATTTarget(parsing: attribute) else { throw CommandFailure("Invalid attribute \(attribute).") }
        let indicate = self.indicate, json = self.json
        let limit = count, duration = seconds
        try await connection.withConnection { host, link, _ in
            let discovery = GATTDiscovery(host: host, connection: link.handle)
            guard let characteristic = try await discovery.characteristic(target) else { throw try await discovery.absent(target) }
            // Notifications unless --indicate, or indications when that is all the
            // characteristic allows, as Core Bluetooth's setNotifyValue chooses.
            let properties = characteristic.properties
            let indicating = indicate || (!properties.contains(.notify) && properties.contains(.indicate))
            let wanted: GATTCharacteristicProperties = indicating ? .indicate : .notify
            guard properties.contains(wanted) else {
                throw CommandFailure("\(target) does not allow \(indicating ? "indications" : "notifications or indications") (its properties: "
                                     + GATTDocument.propertyNames(properties).joined(separator: ", ") + ").")
            }
            guard let cccd = try await discovery.descriptors(of: characteristic).first(where: \.isClientCharacteristicConfiguration) else {
                throw CommandFailure("\(target) has no Client Characteristic Configuration descriptor to subscribe with.")
            }
            let values = SubscriptionValues(host: host, connection: link.handle, seconds: duration)
            _ = try await discovery.run(.configure(indicating ? .indication : .notification, descriptor: cccd.handle),
                                        doing: "subscribing to \(target)")
            OutputLine(text: "Subscribed to \(target) (value \(handleText(characteristic.valueHandle)), CCCD \(handleText(cccd.handle)))",
                       fields: [("event", .string("subscribed")), ("handle", .integer(Int(characteristic.valueHandle))),
                                ("cccd", .integer(Int(cccd.handle))), ("indicate", .bool(indicating))])
                .print(json: json)
            var received = 0
            for await item in values.stream {
                guard case let .value(kind, handle, value) = item else { break }
                guard handle == characteristic.valueHandle else { continue }
                received += 1
                let decoded = GATTValueText.decoded(value, of: characteristic.uuid)
                OutputLine(text: "\(kind) \(handleText(handle)): \(GATTValueText.line(value))" + (decoded.map { " = " + $0 } ?? ""),
                           fields: [("event", .string(kind)), ("handle", .integer(Int(handle))), ("value", .string(hexText(value)))])
                    .print(json: json)
                if let limit, received >= limit { break }
            }
            values.cancel()
        }
    }
}

/// Values notified or indicated on one connection, ending when the link goes or the time
/// is up: the host's GATT and GAP events merged into one stream.
struct SubscriptionValues: Sendable {
    enum Item: Sendable {
        case value(kind: String, handle: ATT.Handle, value: [UInt8])
        case ended
    }

    let stream: AsyncStream<Item>
    private let tasks: [Task<Void, Never>]

    init(host: BLEHost.Host, connection: UInt16, seconds: Double?) {
        let (stream, output) = AsyncStream.makeStream(of: Item.self)
        self.stream = stream
        let gattEvents = host.gattEvents
        let gapEvents = host.events
        var tasks = [
            Task {
                for await event in gattEvents {
                    switch event {
                    case let .notification(link, handle, value) where link == connection:
                        output.yield(.value(kind: "notification", handle: handle, value: value))
                    case let .indication(link, handle, value) where link == connection:
                        output.yield(.value(kind: "indication", handle: handle, value: value))
                    case let .bearerClosed(link, _) where link == connection:
                        output.yield(.ended)
                    default: break
                    }
                }
                output.yield(.ended)
            },
            Task {
                for await event in gapEvents {
                    if case let .disconnected(handle, _) = event, handle == connection { output.yield(.ended) }
                }
            },
        ]
        if let seconds {
            // The --seconds timer, on the host's clock: the one sleep here is the user's
            // requested duration.
            let clock = host.clock
            tasks.append(Task {
                try? await clock.sleep(seconds: seconds)
                output.yield(.ended)
            })
        }
        self.tasks = tasks
    }

    func cancel() {
        for task in tasks { task.cancel() }
    }
}
