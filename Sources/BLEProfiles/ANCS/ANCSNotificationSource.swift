import BLEWire

extension ANCS {
    /// One Notification Source notification: exactly 8 octets (ANCS Specification,
    /// "Notification Source Characteristic").
    public struct NotificationSourceEvent: Sendable, Hashable {
        /// What happened.
        public var eventID: EventID
        /// The notification's flags.
        public var flags: EventFlags
        /// The notification's category.
        public var category: CategoryID
        /// How many active notifications the category holds.
        public var categoryCount: UInt8
        /// The notification's identifier within the session.
        public var notificationUID: UInt32

        /// An event with every field.
        public init(eventID: EventID, flags: EventFlags, category: CategoryID, categoryCount: UInt8, notificationUID: UInt32) {
            self.eventID = eventID
            self.flags = flags
            self.category = category
            self.categoryCount = categoryCount
            self.notificationUID = notificationUID
        }

        /// Decodes the 8 octets; another length or a reserved EventID throws.
        public init(decoding bytes: some Collection<UInt8>) throws(WireError) {
            var reader = ByteReader(Array(bytes))
            guard bytes.count == 8 else {
                throw WireError(field: "ANCS.NotificationSourceEvent", reason: .lengthMismatch(declared: 8, actual: bytes.count))
            }
            let event = try reader.readUInt8("ANCS.NotificationSourceEvent.eventID")
            guard let eventID = EventID(rawValue: event) else {
                throw WireError(field: "ANCS.NotificationSourceEvent.eventID", reason: .invalidValue(UInt64(event)))
            }
            self.eventID = eventID
            flags = EventFlags(rawValue: try reader.readUInt8("ANCS.NotificationSourceEvent.flags"))
            category = CategoryID(rawValue: try reader.readUInt8("ANCS.NotificationSourceEvent.category"))
            categoryCount = try reader.readUInt8("ANCS.NotificationSourceEvent.categoryCount")
            notificationUID = try reader.readUInt32("ANCS.NotificationSourceEvent.notificationUID")
        }

        /// The 8 octets.
        public func encoded() -> [UInt8] {
            var writer = ByteWriter()
            writer.write(eventID.rawValue)
            writer.write(flags.rawValue)
            writer.write(category.rawValue)
            writer.write(categoryCount)
            writer.write(notificationUID)
            return writer.bytes
        }
    }
}
