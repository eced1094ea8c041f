import ArgumentParser
import BLE
import BLEProfiles
import Foundation

/// `ble ancs consumer`: acts as the accessory. It advertises with the ANCS solicitation,
/// takes the phone's connection, pairs when the phone asks, and prints one line per
/// notification event with its category, app, title and message.
struct ANCSConsumerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "consumer",
        abstract: "Act as an accessory: show the phone's notifications over ANCS.",
        discussion: """
            Prints a line per session start and end and per notification added, modified or removed. \
            With --perform, performs that action on every notification that offers it (answering or declining a \
            call, clearing a message) and prints the outcome.
            """
    )

    enum Action: String, ExpressibleByArgument, CaseIterable {
        case positive, negative
    }

    @Option(help: "The name to advertise.")
    var name: String = "SwiftBLE Accessory"

    @Option(help: "Perform this action on every notification that offers it.")
    var perform: Action?

    @Option(help: "Stop after this many notification events.")
    var count: Int?

    @Option(help: "How long to act, in seconds (default: until interrupted or --count).")
    var seconds: Double?

    @Option(help: "The most octets of a notification's message to fetch (1 to 65535).")
    var messageLength: Int = Int(ANCSConsumer.Configuration(name: "").messageLength)

    @OptionGroup var device: AccessoryDeviceOptions

    func validate() throws {
        guard (1 ... Int(UInt16.max)).contains(messageLength) else {
            throw ValidationError("--message-length \(messageLength) is not a length ANCS can ask for; give 1 to 65535 octets.")
        }
        if let count, count < 1 { throw ValidationError("--count must be at least 1.") }
        if let seconds, !(seconds.isFinite && seconds > 0) { throw ValidationError("--seconds must be a positive number of seconds.") }
    }

    @OptionGroup(title: "Logging") var logging: LoggingOptions

    /// What the consumer asks the phone for: the name advertised and the message length.
    var configuration: ANCSConsumer.Configuration {
        var configuration = ANCSConsumer.Configuration(name: name)
        configuration.messageLength = UInt16(clamping: messageLength)
        return configuration
    }

    func run() async throws {
        let device = try await self.device.open()
        let consumer: ANCSConsumer
        do {
            consumer = try await ANCSConsumer.start(on: device, configuration: configuration)
        } catch {
            await device.close()
            throw CommandFailure("Cannot advertise as an ANCS accessory: \(error).")
        }
        OutputLine(text: "Advertising \"\(name)\" with the ANCS solicitation", fields: [("event", .string("advertising")), ("name", .string(name))])
            .print(json: self.device.json)
        let json = self.device.json, limit = count, perform = self.perform
        let reading = Task {
            var seen = 0
            for await event in consumer.events {
                switch event {
                case let .sessionStarted(peer):
                    OutputLine(text: "Session with \(peer)", fields: [("event", .string("session")), ("peer", .string("\(peer)"))]).print(json: json)
                case .sessionEnded:
                    OutputLine(text: "Session ended", fields: [("event", .string("sessionEnded"))]).print(json: json)
                case let .failure(error):
                    OutputLine(text: "Error: \(error)", fields: [("event", .string("error")), ("error", .string("\(error)"))]).print(json: json)
                case let .notification(note):
                    note.outputLine.print(json: json)
                    if let perform, note.event != .removed,
                       (perform == .positive ? note.positiveActionLabel : note.negativeActionLabel) != nil {
                        let outcome: String
                        do {
                            try await consumer.perform(perform == .positive ? .positive : .negative, on: note.uid)
                            outcome = "performed"
                        } catch {
                            outcome = "\(error)"
                        }
                        OutputLine(text: "\(perform.rawValue) on #\(note.uid): \(outcome)",
                                   fields: [("event", .string("perform")), ("uid", .integer(Int(note.uid))),
                                            ("action", .string(perform.rawValue)), ("outcome", .string(outcome))]).print(json: json)
                    }
                    seen += 1
                    if let limit, seen >= limit { return }
                }
            }
        }
        let timer = Task { _ = try? await device.clock.sleep(seconds: seconds ?? 86_400 * 365) }
        await firstOf(reading, timer)
        reading.cancel()
        timer.cancel()
        await consumer.stop()
        await device.close()
    }
}

/// Returns when the first of two tasks finishes, having cancelled both (so the other ends
/// too: the group waits for it).
func firstOf(_ first: Task<Void, Never>, _ second: Task<Void, Never>) async {
    await withTaskGroup(of: Void.self) { group in
        group.addTask { await first.value }
        group.addTask { await second.value }
        await group.next()
        first.cancel()
        second.cancel()
    }
}
