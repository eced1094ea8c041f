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

/// A `--notification CATEGORY:APP:TITLE[:MESSAGE]` value.
struct NotificationArgument {
    let notification: PhoneNotification

    /// Why a `--notification` value is refused, and what would be accepted.
    struct Invalid: Error, CustomStringConvertible {
        var description: String
    }

    /// The categories as `--help` and the errors list them: the specification's names, then ours.
    static let categoryChoices = "a category of the ANCS specification (" + ANCS.CategoryID.specificationNames.joined(separator: ", ")
        + "), our name of one (" + ANCS.CategoryID.names.joined(separator: ", ") + ") or a number from 0 to 255"

    /// The notification `argument` describes.
    /// - Throws: ``Invalid``, naming the part that is wrong and what is accepted.
    init(parsing argument: String) throws(Invalid) {
        let parts = argument.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 3 else {
            throw Invalid(description: "write it as CATEGORY:APP:TITLE[:MESSAGE], e.g. IncomingCall:com.apple.mobilephone:Alice")
        }
        guard let category = ANCS.CategoryID(name: parts[0]) ?? UInt8(parts[0]).map(ANCS.CategoryID.init(rawValue:)) else {
            throw Invalid(description: "\"\(parts[0])\" is not a category; use \(Self.categoryChoices)")
        }
        guard !parts[1].isEmpty else {
            throw Invalid(description: "APP is empty; give the app's bundle identifier, e.g. com.apple.mobilemail")
        }
        let call = category == .incomingCall
        notification = PhoneNotification(category: category, appIdentifier: parts[1], title: parts[2],
                                          message: parts.count > 3 ? parts[3] : "", isImportant: call,
                                          positiveActionLabel: call ? "Answer" : nil, negativeActionLabel: call ? "Decline" : "Clear")
    }
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
