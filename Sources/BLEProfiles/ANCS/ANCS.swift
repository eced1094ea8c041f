import BLEWire

/// Apple Notification Center Service: how an accessory (the Notification Consumer, a GATT
/// client) reads the notifications of an iPhone (the Notification Provider, a GATT server)
/// — Apple's ANCS Specification. Every multi-octet number is little-endian, every string
/// UTF-8. The codecs here are sans-IO: bytes in, values out, and back.
public enum ANCS {
    /// The ANCS primary service.
    public static let service = BluetoothUUID("7905F431-B5CE-4E99-A40F-4B1E122D00D0")!
    /// Notification Source: notifiable, 8-octet ``NotificationSourceEvent``s.
    public static let notificationSource = BluetoothUUID("9FBF120D-6301-42D9-8C58-25E699A21DBD")!
    /// Control Point: written with response, ``ControlPointCommand``s.
    public static let controlPoint = BluetoothUUID("69D1D8F3-45E1-49A8-9821-9BBDFDAAD9D9")!
    /// Data Source: notifiable, the fragments of ``DataSourceResponse``s.
    public static let dataSource = BluetoothUUID("22EAC6E9-24D6-4BB5-BE44-B36ACE7C7BFB")!

    /// What happened to a notification (EventID).
    public enum EventID: UInt8, Sendable, Hashable, CaseIterable {
        /// 0: a new notification.
        case added = 0
        /// 1: a notification changed.
        case modified = 1
        /// 2: a notification went away.
        case removed = 2
    }

    /// A notification's flags (EventFlags; bits 5–7 reserved, kept as received).
    public struct EventFlags: OptionSet, Sendable, Hashable {
        /// The octet.
        public let rawValue: UInt8
        /// Flags from the octet.
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Bit 0: the notification makes no sound.
        public static let silent = EventFlags(rawValue: 0x01)
        /// Bit 1: the notification is important.
        public static let important = EventFlags(rawValue: 0x02)
        /// Bit 2: the notification existed before the session began.
        public static let preExisting = EventFlags(rawValue: 0x04)
        /// Bit 3: the notification has a positive action.
        public static let positiveAction = EventFlags(rawValue: 0x08)
        /// Bit 4: the notification has a negative action.
        public static let negativeAction = EventFlags(rawValue: 0x10)
    }

    /// A notification's category (CategoryID). Values 12–255 are reserved; they are kept as
    /// received, so a newer phone's categories still decode.
    public struct CategoryID: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The octet.
        public let rawValue: UInt8
        /// The category with `rawValue`.
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// 0.
        public static let other = CategoryID(rawValue: 0)
        /// 1.
        public static let incomingCall = CategoryID(rawValue: 1)
        /// 2.
        public static let missedCall = CategoryID(rawValue: 2)
        /// 3.
        public static let voicemail = CategoryID(rawValue: 3)
        /// 4.
        public static let social = CategoryID(rawValue: 4)
        /// 5.
        public static let schedule = CategoryID(rawValue: 5)
        /// 6.
        public static let email = CategoryID(rawValue: 6)
        /// 7.
        public static let news = CategoryID(rawValue: 7)
        /// 8.
        public static let healthAndFitness = CategoryID(rawValue: 8)
        /// 9.
        public static let businessAndFinance = CategoryID(rawValue: 9)
        /// 10.
        public static let location = CategoryID(rawValue: 10)
        /// 11.
        public static let entertainment = CategoryID(rawValue: 11)

        /// The names the command line uses, by value.
        public static let names = ["other", "incomingCall", "missedCall", "voicemail", "social", "schedule", "email", "news",
                                   "healthAndFitness", "businessAndFinance", "location", "entertainment"]

        /// The names the ANCS specification gives the categories (`CategoryIDIncomingCall`
        /// without its prefix), by value.
        public static let specificationNames = ["Other", "IncomingCall", "MissedCall", "VoiceMail", "Social", "Schedule", "Email",
                                                "News", "HealthAndFitness", "BusinessAndFinance", "Location", "Entertainment"]

        /// The category called `name`: as in ``names`` (`incomingCall`) or as the ANCS
        /// specification spells it (`IncomingCall`, `CategoryIDIncomingCall`), in any letter
        /// case; `nil` for another name.
        public init?(name: String) {
            var key = name.lowercased()
            if key.hasPrefix("categoryid"), key.count > "categoryid".count { key.removeFirst("categoryid".count) }
            guard let index = Self.names.firstIndex(where: { $0.lowercased() == key }) else { return nil }
            self.init(rawValue: UInt8(index))
        }

        /// "incomingCall", or "reserved(12)".
        public var description: String {
            Int(rawValue) < Self.names.count ? Self.names[Int(rawValue)] : "reserved(\(rawValue))"
        }
    }

    /// A notification's attributes (NotificationAttributeID).
    public enum NotificationAttributeID: UInt8, Sendable, Hashable, CaseIterable {
        /// 0: the app's bundle identifier.
        case appIdentifier = 0
        /// 1: the title; requested with a maximum length.
        case title = 1
        /// 2: the subtitle; requested with a maximum length.
        case subtitle = 2
        /// 3: the message; requested with a maximum length.
        case message = 3
        /// 4: the message's size in octets, as a decimal string.
        case messageSize = 4
        /// 5: the date, `yyyyMMdd'T'HHmmSS`.
        case date = 5
        /// 6: the positive action's label.
        case positiveActionLabel = 6
        /// 7: the negative action's label.
        case negativeActionLabel = 7

        /// Whether a request for it carries a 2-octet maximum length (title, subtitle, message).
        public var takesMaximumLength: Bool { (1 ... 3).contains(rawValue) }
    }

    /// An app's attributes (AppAttributeID).
    public enum AppAttributeID: UInt8, Sendable, Hashable, CaseIterable {
        /// 0: the app's name as shown to the user.
        case displayName = 0
    }

    /// The actions a notification may have (ActionID).
    public enum ActionID: UInt8, Sendable, Hashable, CaseIterable {
        /// 0: e.g. answer a call.
        case positive = 0
        /// 1: e.g. decline a call.
        case negative = 1
    }

    /// The errors the provider answers a Control Point write with, as ATT Error Responses
    /// (codes in the range the Core specification reserves, so carried as
    /// ``BLEWire/ATT/ErrorCode/unlisted(_:)``).
    public enum ErrorCode: UInt8, Error, Sendable, Hashable, CaseIterable {
        /// 0xA0: the CommandID is not known.
        case unknownCommand = 0xA0
        /// 0xA1: the command is not well formed.
        case invalidCommand = 0xA1
        /// 0xA2: a parameter names nothing that exists (e.g. a NotificationUID).
        case invalidParameter = 0xA2
        /// 0xA3: the action was not performed.
        case actionFailed = 0xA3

        /// The ATT error code carrying it.
        public var attError: ATT.ErrorCode { ATT.ErrorCode(rawValue: rawValue) }

        /// The ANCS error an ATT error code carries, if any.
        public init?(_ attError: ATT.ErrorCode) {
            self.init(rawValue: attError.rawValue)
        }
    }
}
