import ArgumentParser
import BLE
import BLEProfiles
import Foundation

/// `ble ams`: the accessory's side of the Apple Media Service.
struct AMSCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ams",
        abstract: "Apple Media Service: act as an accessory that shows and controls what the phone plays.",
        subcommands: [AMSConsumerCommand.self]
    )
}

/// `ble ams consumer`: advertises with the AMS solicitation, takes the phone's connection,
/// prints what is playing as it changes, and can send remote commands.
struct AMSConsumerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "consumer",
        abstract: "Act as a media remote: print the phone's now-playing and send commands.",
        discussion: "COMMAND is one of: " + AMS.RemoteCommandID.allCases.map { "\($0)" }.joined(separator: ", ") + "."
    )

    @Option(help: "The name to advertise.")
    var name: String = "SwiftBLE Remote"

    @Option(name: .customLong("command"), help: "A command to send once the track is known; repeatable, sent in order.")
    var commands: [String] = []

    @Option(help: "Stop after this many now-playing updates, once the commands were sent.")
    var count: Int?

    @Option(help: "How long to act, in seconds (default: until interrupted or --count).")
    var seconds: Double?

    @OptionGroup var device: AccessoryDeviceOptions

    func validate() throws {
        for command in commands where Self.command(named: command) == nil {
            throw ValidationError("--command \(command) is not a remote command; use one of "
                + AMS.RemoteCommandID.allCases.map { "\($0)" }.joined(separator: ", ") + ".")
        }
        if let count, count < 1 { throw ValidationError("--count must be at least 1.") }
        if let seconds, !(seconds.isFinite && seconds > 0) { throw ValidationError("--seconds must be a positive number of seconds.") }
    }

    static func command(named name: String) -> AMS.RemoteCommandID? {
        AMS.RemoteCommandID.allCases.first { "\($0)" == name }
    }

    @OptionGroup(title: "Logging") var logging: LoggingOptions

    func run() async throws {
        let device = try await self.device.open()
        do {
            _ = try await device.peripheral.advertise(AdvertisingContent(name: name, solicitedServiceUUIDs: [AMS.service]))
        } catch {
            await device.close()
            throw CommandFailure("Cannot advertise: \(error).")
        }
        let json = self.device.json, limit = count, commands = self.commands.compactMap(Self.command(named:))
        OutputLine(text: "Advertising \"\(name)\" with the AMS solicitation", fields: [("event", .string("advertising")), ("name", .string(name))])
            .print(json: json)
        // Every failure ends the command with a non-zero status: one that stops the remote
        // (it cannot start on the phone) ends it at once, a refused command at the end.
        let failures = FailureRecord()
        let work = Task {
            for await link in device.peripheral.connections {
                OutputLine(text: "Connected to \(link.peer)", fields: [("event", .string("connected")), ("peer", .string("\(link.peer)"))]).print(json: json)
                let remote: AMSRemote
                do {
                    remote = try await AMSRemote.start(on: link)
                } catch {
                    OutputLine(text: "Error: \(error)", fields: [("event", .string("error")), ("error", .string("\(error)"))]).print(json: json)
                    failures.record("The media remote could not start on \(link.peer): \(error).")
                    return
                }
                // --count counts what is playing (attribute updates), and only once the
                // commands asked for were sent.
                var seen = 0, sent = commands.isEmpty
                for await update in remote.updates {
                    switch update {
                    case let .supportedCommands(list):
                        OutputLine(text: "Commands: " + list.map { "\($0)" }.joined(separator: ", "),
                                   fields: [("event", .string("commands")), ("commands", .array(list.map { .string("\($0)") }))])
                            .print(json: json)
                        continue
                    case let .attribute(entity, attribute, value):
                        let name = Self.attributeName(entity, attribute)
                        var fields: [(String, OutputLine.Value)] = [("event", .string("update")), ("entity", .string("\(entity)")),
                                                                    ("attribute", .string(name)), ("value", .string(value))]
                        let playback = entity == .player && attribute == AMS.PlayerAttributeID.playbackInfo.rawValue
                            ? AMS.PlaybackInfo(value) : nil
                        if let playback {
                            fields.append(("playback", .object([("state", .string(Self.stateName(playback.state))),
                                                                ("rate", .number(playback.rate)), ("elapsed", .number(playback.elapsed))])))
                        }
                        OutputLine(text: "\(entity) \(name): " + (playback.map(Self.playbackText) ?? value), fields: fields)
                            .print(json: json)
                        if !sent, entity == .track, attribute == AMS.TrackAttributeID.duration.rawValue {
                            sent = true
                            for command in commands {
                                let outcome: String
                                do {
                                    try await remote.send(command)
                                    outcome = "sent"
                                } catch {
                                    outcome = "\(error)"
                                    failures.record("\(command) was not sent: \(error).")
                                }
                                OutputLine(text: "\(command): \(outcome)", fields: [("event", .string("command")), ("command", .string("\(command)")),
                                                                                  ("outcome", .string(outcome))]).print(json: json)
                            }
                        }
                    }
                    seen += 1
                    if let limit, seen >= limit, sent { return }
                }
            }
        }
        let timer = Task { _ = try? await device.clock.sleep(seconds: seconds ?? 86_400 * 365) }
        await firstOf(work, timer)
        work.cancel()
        timer.cancel()
        await device.close()
        if let failure = failures.first { throw CommandFailure(failure) }
    }

    /// The AMS PlaybackState's name (AMS Specification, Player attributes): paused,
    /// playing, rewinding, fast-forwarding, or the number of another.
    static func stateName(_ state: UInt8) -> String {
        let names = ["paused", "playing", "rewinding", "fast-forwarding"]
        return Int(state) < names.count ? names[Int(state)] : "\(state)"
    }

    /// `playing, rate 1.0, 12.500 s in` rather than the raw `1,1.0,12.500`.
    static func playbackText(_ info: AMS.PlaybackInfo) -> String {
        "\(stateName(info.state)), rate \(info.rate.formatted(decimals: 1)), \(info.elapsed.formatted(decimals: 3)) s in"
    }

    static func attributeName(_ entity: AMS.EntityID, _ attribute: UInt8) -> String {
        switch entity {
        case .player: AMS.PlayerAttributeID(rawValue: attribute).map { "\($0)" } ?? "\(attribute)"
        case .queue: AMS.QueueAttributeID(rawValue: attribute).map { "\($0)" } ?? "\(attribute)"
        case .track: AMS.TrackAttributeID(rawValue: attribute).map { "\($0)" } ?? "\(attribute)"
        }
    }
}
