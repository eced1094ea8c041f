import BLEWire

extension ANCS {
    /// Why Data Source notifications could not be read as the response awaited.
    public enum DataSourceError: Error, Sendable, Hashable, CustomStringConvertible {
        /// Data arrived while no Get command was outstanding.
        case unexpected
        /// The response does not answer the command sent: `field` differs.
        case mismatch(field: String)
        /// Octets beyond the last attribute asked for.
        case trailingOctets(Int)

        /// One sentence.
        public var description: String {
            switch self {
            case .unexpected: "Data Source data arrived with no command outstanding"
            case let .mismatch(field): "the Data Source response does not answer the command sent (its \(field) differs)"
            case let .trailingOctets(count): "the Data Source response has \(count) octets after its last attribute"
            }
        }
    }

    /// Puts Data Source notifications back together into the response to the command last
    /// sent (ANCS Specification, "Data Source Characteristic": the consumer splices the
    /// fragments; the response is complete when every attribute asked for has arrived in
    /// full). A fragment may end anywhere, even inside a length.
    ///
    /// A response that does not match its command throws a ``DataSourceError`` and the
    /// reassembler drops everything, so the next command's response is read afresh: after a
    /// bad stream the consumer resynchronises by sending its next command.
    public struct DataSourceReassembler: Sendable {
        private var command: ControlPointCommand?
        private var buffer: [UInt8] = []

        /// A reassembler waiting for nothing.
        public init() {}

        /// Whether a response is awaited.
        public var isAwaiting: Bool { command != nil }

        /// Awaits the response to `command` (a Get command), dropping any partial response.
        public mutating func expect(_ command: ControlPointCommand) {
            switch command {
            case .getNotificationAttributes, .getAppAttributes: self.command = command
            case .performNotificationAction: self.command = nil
            }
            buffer = []
        }

        /// Stops awaiting (the command failed with an ATT error, so no response comes).
        public mutating func cancel() {
            command = nil
            buffer = []
        }

        /// Adds one Data Source notification; returns the response once it is complete.
        public mutating func append(_ fragment: some Collection<UInt8>) throws(DataSourceError) -> DataSourceResponse? {
            guard let command else { throw .unexpected }
            buffer += fragment
            do {
                guard let response = try Self.parse(buffer, answering: command) else { return nil }
                cancel()
                return response
            } catch {
                cancel()
                throw error
            }
        }

        /// The response in `bytes` if complete, `nil` if more is to come.
        private static func parse(_ bytes: [UInt8], answering command: ControlPointCommand) throws(DataSourceError) -> DataSourceResponse? {
            guard let first = bytes.first else { return nil }
            guard first == command.commandID else { throw .mismatch(field: "CommandID") }
            var index = 1
            switch command {
            case let .getNotificationAttributes(uid, requested):
                guard bytes.count >= 5 else { return nil }
                let got = UInt32(bytes[1]) | UInt32(bytes[2]) << 8 | UInt32(bytes[3]) << 16 | UInt32(bytes[4]) << 24
                guard got == uid else { throw .mismatch(field: "NotificationUID") }
                index = 5
                var attributes: [NotificationAttribute] = []
                for attribute in requested {
                    guard let (id, value) = try tuple(bytes, at: &index) else { return nil }
                    guard id == attribute.id.rawValue else { throw .mismatch(field: "AttributeID") }
                    attributes.append(NotificationAttribute(attribute.id, value: value))
                }
                guard index == bytes.count else { throw .trailingOctets(bytes.count - index) }
                return .notificationAttributes(notificationUID: uid, attributes: attributes)
            case let .getAppAttributes(identifier, requested):
                let expected = Array(identifier.utf8) + [0]
                let available = min(bytes.count - 1, expected.count)
                guard Array(bytes[1 ..< 1 + available]) == Array(expected[..<available]) else { throw .mismatch(field: "AppIdentifier") }
                guard available == expected.count else { return nil }
                index = 1 + expected.count
                var attributes: [AppAttribute] = []
                for attribute in requested {
                    guard let (id, value) = try tuple(bytes, at: &index) else { return nil }
                    guard id == attribute.rawValue else { throw .mismatch(field: "AttributeID") }
                    attributes.append(AppAttribute(attribute, value: value))
                }
                guard index == bytes.count else { throw .trailingOctets(bytes.count - index) }
                return .appAttributes(appIdentifier: identifier, attributes: attributes)
            case .performNotificationAction:
                throw .unexpected
            }
        }

        /// One `AttributeID | Length | value` tuple at `index`, or `nil` if not all there yet.
        private static func tuple(_ bytes: [UInt8], at index: inout Int) throws(DataSourceError) -> (UInt8, [UInt8])? {
            guard bytes.count >= index + 3 else { return nil }
            let length = Int(bytes[index + 1]) | Int(bytes[index + 2]) << 8
            guard bytes.count >= index + 3 + length else { return nil }
            let tuple = (bytes[index], Array(bytes[(index + 3) ..< (index + 3 + length)]))
            index += 3 + length
            return tuple
        }
    }
}
