import ArgumentParser
import BLE
import BLEProfiles
import Foundation

/// `ble ancs provider`: acts as the phone. It serves the notifications given as ANCS,
/// connects to an accessory soliciting ANCS (again after each disconnection) and prints one
/// line per connection, disconnection and action the accessory performs.
struct ANCSProviderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "provider",
        abstract: "Act as the phone: serve notifications over ANCS (and media over AMS) to an accessory that solicits it.",
        discussion: """
            CATEGORY is a name of the ANCS specification (IncomingCall, MissedCall, VoiceMail, Social, Schedule, \
            Email, News, HealthAndFitness, BusinessAndFinance, Location, Entertainment, Other), in any letter case, \
            or a number from 0 to 255. Incoming calls offer \
            Answer and Decline; other notifications offer Clear. The notifications are posted before the first \
            connection (the accessory sees them as pre-existing), or --post-after seconds into the first session.
            """
    )

    @Option(name: .customLong("notification"), help: "A notification to serve: CATEGORY:APP:TITLE[:MESSAGE]; repeatable.",
            transform: { argument in try NotificationArgument(parsing: argument) })
    var notifications: [NotificationArgument] = []

    @Option(name: .customLong("app-name"), help: "An app's display name: APP=NAME; repeatable.")
    var appNames: [String] = []

    @Option(help: "Serve AMS too, playing ARTIST:TITLE[:SECONDS] (paused).")
    var nowPlaying: String?

    @Option(help: "Post the notifications this many seconds after the first session begins, not before.")
    var postAfter: Double?

    @Option(help: "How long to act, in seconds (default: until interrupted).")
    var seconds: Double?

    @Option(help: "How long each search for a soliciting accessory may take, in seconds.")
    var timeout: Double = 30

    @OptionGroup var device: AccessoryDeviceOptions

    func validate() throws {
        for pair in appNames where pair.split(separator: "=", maxSplits: 1).count != 2 {
            throw ValidationError("--app-name takes APP=NAME, e.g. com.apple.MobileSMS=Messages; got \(pair).")
        }
        if let nowPlaying, nowPlaying.split(separator: ":", omittingEmptySubsequences: false).count < 2 {
            throw ValidationError("--now-playing takes ARTIST:TITLE[:SECONDS], e.g. Ludwig:Ode:120.")
        }
        for (name, value) in [("--seconds", seconds), ("--post-after", postAfter), ("--timeout", timeout)] {
            if let value, !(value.isFinite && value >= 0) { throw ValidationError("\(name) must be a number of seconds.") }
        }
    }

    @OptionGroup(title: "Logging") var logging: LoggingOptions

    func run() async throws {
        let device = try await self.device.open()
        let center = PhoneNotificationCenter()
        for pair in appNames {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            center.setAppName(parts[1], for: parts[0])
        }
        let notifications = self.notifications.map(\.notification)
        if postAfter == nil { for notification in notifications { center.add(notification) } }
        let json = self.device.json, timeout = self.timeout, postAfter = self.postAfter
        let provider: ANCSProvider
        do {
            provider = try await ANCSProvider.start(on: device, center: center)
        } catch {
            await device.close()
            throw CommandFailure("Cannot serve ANCS: \(error).")
        }
        var media: AMSProvider?
        if let nowPlaying {
            let parts = nowPlaying.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            let player = PhoneMediaPlayer()
            player.update { now in
                now.artist = parts[0]
                now.title = parts[1]
                now.duration = parts.count > 2 ? Double(parts[2]) ?? 0 : 0
                now.queueCount = 1
            }
            do {
                media = try await AMSProvider.start(on: device, player: player)
            } catch {
                await device.close()
                throw CommandFailure("Cannot serve AMS: \(error).")
            }
        }
        let commands = Task { [media] in
            guard let media else { return }
            for await command in media.player.commands {
                OutputLine(text: "The accessory sent \(command)", fields: [("event", .string("command")), ("command", .string("\(command)"))])
                    .print(json: json)
            }
        }
        let actions = Task {
            for await action in center.actions {
                OutputLine(text: "The accessory chose \(action.action == .positive ? "positive" : "negative") on #\(action.notificationUID) (\(action.notification.title))",
                           fields: [("event", .string("action")), ("uid", .integer(Int(action.notificationUID))),
                                    ("action", .string(action.action == .positive ? "positive" : "negative")),
                                    ("title", .string(action.notification.title))]).print(json: json)
            }
        }
        let connecting = Task {
            var posted = postAfter == nil
            while !Task.isCancelled {
                do {
                    let link = try await provider.connectToAccessory(timeout: .milliseconds(Int64(timeout * 1000)))
                    OutputLine(text: "Connected to the accessory \(link.peer)",
                               fields: [("event", .string("connected")), ("peer", .string("\(link.peer)"))]).print(json: json)
                    if !posted, let postAfter {
                        posted = true
                        try? await device.clock.sleep(seconds: postAfter)
                        for notification in notifications { center.add(notification) }
                    }
                    let reason = try await link.disconnected
                    OutputLine(text: "Disconnected: \(reason.name)", fields: [("event", .string("disconnected")), ("reason", .string(reason.name))])
                        .print(json: json)
                } catch {
                    if Task.isCancelled { return }
                    OutputLine(text: "No accessory: \(error)", fields: [("event", .string("noAccessory")), ("error", .string("\(error)"))])
                        .print(json: json)
                }
            }
        }
        try? await device.clock.sleep(seconds: seconds ?? 86_400 * 365)
        connecting.cancel()
        actions.cancel()
        commands.cancel()
        provider.stop()
        media?.stop()
        await device.close()
    }
}
