import BLEWire

extension ANCS {
    /// One attribute asked of a notification, with the maximum length in octets that
    /// title, subtitle and message take (``NotificationAttributeID/takesMaximumLength``).
    public struct RequestedAttribute: Sendable, Hashable {
        /// Which attribute.
        public var id: NotificationAttributeID
        /// The most octets to return; present exactly when ``id`` takes one.
        public var maximumLength: UInt16?

        /// An attribute without a maximum length (app identifier, message size, date, labels).
        public init(_ id: NotificationAttributeID) {
            self.id = id
            maximumLength = nil
        }

        /// An attribute with a maximum length (title, subtitle, message).
        public init(_ id: NotificationAttributeID, maximumLength: UInt16) {
            self.id = id
            self.maximumLength = maximumLength
        }
    }

    /// A write to the Control Point (ANCS Specification, "Control Point Characteristic").
    ///
    /// Decoding says what the provider answers a bad write with: ``ErrorCode/unknownCommand``
    /// for a CommandID of 3–255; ``ErrorCode/invalidCommand`` for anything improperly formed
    /// (empty, short, no attribute asked, an attribute ID this specification does not define
    /// — whose parameters, if any, cannot be known — a title, subtitle or message without its
    /// maximum length, an app identifier without its NUL or not UTF-8, trailing octets);
    /// ``ErrorCode/invalidParameter`` for a reserved ActionID. Whether a NotificationUID or app
    /// exists is for the provider to say (also ``ErrorCode/invalidParameter``).
    public enum ControlPointCommand: Sendable, Hashable {
        /// CommandID 0: the attributes of one notification; answered on the Data Source.
        case getNotificationAttributes(notificationUID: UInt32, attributes: [RequestedAttribute])
        /// CommandID 1: the attributes of one app; answered on the Data Source.
        case getAppAttributes(appIdentifier: String, attributes: [AppAttributeID])
        /// CommandID 2: perform an action on a notification; no Data Source answer.
        case performNotificationAction(notificationUID: UInt32, action: ActionID)

        /// Decodes a Control Point write, or throws the ANCS error to answer it with.
        public init(decoding bytes: some Collection<UInt8>) throws(ErrorCode) {
            let bytes = Array(bytes)
            guard let commandID = bytes.first else { throw .invalidCommand }
            var reader = ByteReader(bytes[1...])
            switch commandID {
            case 0:
                guard let uid = try? reader.readUInt32("uid") else { throw .invalidCommand }
                var attributes: [RequestedAttribute] = []
                while !reader.isAtEnd {
                    guard let raw = try? reader.readUInt8("attribute"), let id = NotificationAttributeID(rawValue: raw) else {
                        throw .invalidCommand
                    }
                    if id.takesMaximumLength {
                        guard let length = try? reader.readUInt16("maximumLength") else { throw .invalidCommand }
                        attributes.append(RequestedAttribute(id, maximumLength: length))
                    } else {
                        attributes.append(RequestedAttribute(id))
                    }
                }
                guard !attributes.isEmpty else { throw .invalidCommand }
                self = .getNotificationAttributes(notificationUID: uid, attributes: attributes)
            case 1:
                let rest = bytes[1...]
                guard let nul = rest.firstIndex(of: 0), let identifier = String(validating: rest[..<nul], as: UTF8.self) else {
                    throw .invalidCommand
                }
                var attributes: [AppAttributeID] = []
                for raw in rest[(nul + 1)...] {
                    guard let id = AppAttributeID(rawValue: raw) else { throw .invalidCommand }
                    attributes.append(id)
                }
                guard !attributes.isEmpty else { throw .invalidCommand }
                self = .getAppAttributes(appIdentifier: identifier, attributes: attributes)
            case 2:
                guard bytes.count == 6, let uid = try? reader.readUInt32("uid"), let raw = try? reader.readUInt8("action") else {
                    throw .invalidCommand
                }
                guard let action = ActionID(rawValue: raw) else { throw .invalidParameter }
                self = .performNotificationAction(notificationUID: uid, action: action)
            default:
                throw .unknownCommand
            }
        }

        /// The CommandID.
        public var commandID: UInt8 {
            switch self {
            case .getNotificationAttributes: 0
            case .getAppAttributes: 1
            case .performNotificationAction: 2
            }
        }

        /// The octets written to the Control Point. A requested attribute's maximum length
        /// is written exactly when its ID takes one (0 if the value left it out).
        public func encoded() -> [UInt8] {
            var writer = ByteWriter()
            writer.write(commandID)
            switch self {
            case let .getNotificationAttributes(uid, attributes):
                writer.write(uid)
                for attribute in attributes {
                    writer.write(attribute.id.rawValue)
                    if attribute.id.takesMaximumLength { writer.write(attribute.maximumLength ?? 0) }
                }
            case let .getAppAttributes(identifier, attributes):
                writer.write(contentsOf: identifier.utf8)
                writer.write(UInt8(0))
                for attribute in attributes { writer.write(attribute.rawValue) }
            case let .performNotificationAction(uid, action):
                writer.write(uid)
                writer.write(action.rawValue)
            }
            return writer.bytes
        }
    }
}
