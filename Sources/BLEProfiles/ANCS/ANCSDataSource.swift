import BLEWire

extension ANCS {
    /// One attribute of a notification in a Data Source response: its ID and value octets
    /// (never NUL-terminated; empty when the notification has none).
    public struct NotificationAttribute: Sendable, Hashable {
        /// Which attribute.
        public var id: NotificationAttributeID
        /// The value's octets.
        public var value: [UInt8]

        /// An attribute with raw octets.
        public init(_ id: NotificationAttributeID, value: [UInt8]) {
            self.id = id
            self.value = value
        }

        /// An attribute with a string value.
        public init(_ id: NotificationAttributeID, _ string: String) {
            self.init(id, value: Array(string.utf8))
        }

        /// The value as UTF-8 text (a cut value may end in a partial character, which is
        /// dropped); `nil` if it is not UTF-8 otherwise.
        public var string: String? { ANCS.decodeText(value) }
    }

    /// One attribute of an app in a Data Source response.
    public struct AppAttribute: Sendable, Hashable {
        /// Which attribute.
        public var id: AppAttributeID
        /// The value's octets.
        public var value: [UInt8]

        /// An attribute with a string value.
        public init(_ id: AppAttributeID, _ string: String) {
            self.id = id
            value = Array(string.utf8)
        }

        /// An attribute with raw octets.
        public init(_ id: AppAttributeID, value: [UInt8]) {
            self.id = id
            self.value = value
        }

        /// The value as UTF-8 text.
        public var string: String? { ANCS.decodeText(value) }
    }

    /// The answer to a Get Notification Attributes or Get App Attributes command, sent on
    /// the Data Source in as many notifications as the ATT_MTU needs (``fragments(attMTU:)``);
    /// attributes come in the order the command asked for them.
    public enum DataSourceResponse: Sendable, Hashable {
        /// CommandID 0.
        case notificationAttributes(notificationUID: UInt32, attributes: [NotificationAttribute])
        /// CommandID 1.
        case appAttributes(appIdentifier: String, attributes: [AppAttribute])

        /// The whole response, before fragmentation.
        public func encoded() -> [UInt8] {
            var writer = ByteWriter()
            switch self {
            case let .notificationAttributes(uid, attributes):
                writer.write(UInt8(0))
                writer.write(uid)
                for attribute in attributes { Self.write(attribute.id.rawValue, attribute.value, to: &writer) }
            case let .appAttributes(identifier, attributes):
                writer.write(UInt8(1))
                writer.write(contentsOf: identifier.utf8)
                writer.write(UInt8(0))
                for attribute in attributes { Self.write(attribute.id.rawValue, attribute.value, to: &writer) }
            }
            return writer.bytes
        }

        /// The Data Source notifications carrying the response: consecutive pieces of at most
        /// ATT_MTU − 3 octets (Core 5.4, Vol 3, Part F, §3.4.7.1), with no header of their own.
        public func fragments(attMTU: Int) -> [[UInt8]] {
            ANCS.fragments(encoded(), attMTU: attMTU)
        }

        private static func write(_ id: UInt8, _ value: [UInt8], to writer: inout ByteWriter) {
            let value = value.prefix(Int(UInt16.max))
            writer.write(id)
            writer.write(UInt16(value.count))
            writer.write(contentsOf: value)
        }
    }

    /// `bytes` cut into notifications of at most ATT_MTU − 3 octets.
    public static func fragments(_ bytes: [UInt8], attMTU: Int) -> [[UInt8]] {
        let size = max(1, attMTU - 3)
        return stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0 ..< min($0 + size, bytes.count)]) }
    }

    /// `text`'s UTF-8 octets cut to at most `maximum`, never inside a character (a provider
    /// truncating an attribute to the length a consumer asked for).
    public static func truncated(_ text: String, toOctets maximum: Int) -> [UInt8] {
        var octets: [UInt8] = []
        for character in text {
            let next = Array(String(character).utf8)
            guard octets.count + next.count <= maximum else { break }
            octets += next
        }
        return octets
    }

    /// UTF-8 text, tolerating a last character cut short by a maximum length.
    static func decodeText(_ value: [UInt8]) -> String? {
        var end = value.count
        for _ in 0 ..< 4 where end > 0 {
            if let text = String(validating: value[..<end], as: UTF8.self) { return text }
            end -= 1
        }
        return value.isEmpty ? "" : nil
    }
}
