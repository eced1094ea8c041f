import ArgumentParser
import BLE
import BLEProfiles

/// `ble ancs`: Apple's Notification Center Service from both ends — the phone serving its
/// notifications, and the accessory that shows them.
struct ANCSCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ancs",
        abstract: "Apple Notification Center Service: act as the phone (provider) or as the accessory (consumer).",
        subcommands: [ANCSProviderCommand.self, ANCSConsumerCommand.self]
    )
}

/// A `--notification CATEGORY:APP:TITLE:MESSAGE` value.
struct NotificationArgument: ExpressibleByArgument {
    let notification: PhoneNotification

    init?(argument: String) {
        let parts = argument.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 3, let category = ANCS.CategoryID(name: parts[0]) ?? UInt8(parts[0]).map(ANCS.CategoryID.init(rawValue:)),
              !parts[1].isEmpty else { return nil }
        let call = category == .incomingCall
        notification = PhoneNotification(category: category, appIdentifier: parts[1], title: parts[2],
                                          message: parts.count > 3 ? parts[3] : "", isImportant: call,
                                          positiveActionLabel: call ? "Answer" : nil, negativeActionLabel: call ? "Decline" : "Clear")
    }

    static var defaultCompletionKind: CompletionKind { .default }
}

extension ANCSNotification {
    /// The line `ble ancs consumer` prints.
    var outputLine: OutputLine {
        let event = switch self.event {
        case .added: "added"
        case .modified: "modified"
        case .removed: "removed"
        }
        var text = "\(event) #\(uid) \(category)"
        if let appName = appName ?? appIdentifier { text += " \(appName)" }
        if let title { text += ": \(title)" }
        if let message, !message.isEmpty { text += " — \(message)" }
        if flags.contains(.preExisting) { text += " (pre-existing)" }
        return OutputLine(text: text, fields: [
            ("event", .string(event)), ("uid", .integer(Int(uid))), ("category", .string(category.description)),
            ("categoryCount", .integer(Int(categoryCount))), ("app", appIdentifier.map(OutputLine.Value.string) ?? .null),
            ("appName", appName.map(OutputLine.Value.string) ?? .null), ("title", title.map(OutputLine.Value.string) ?? .null),
            ("message", message.map(OutputLine.Value.string) ?? .null), ("preExisting", .bool(flags.contains(.preExisting))),
            ("positiveAction", positiveActionLabel.map(OutputLine.Value.string) ?? .null),
            ("negativeAction", negativeActionLabel.map(OutputLine.Value.string) ?? .null),
        ])
    }
}
