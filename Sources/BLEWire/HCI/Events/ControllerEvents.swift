extension HCI {
    /// Hardware Error event (Core 5.4, Vol 4, Part E, §7.7.16): the controller hit a
    /// hardware failure; the host should usually reset it.
    public struct HardwareError: HCIEvent {
        /// Event code 0x10.
        public static let eventCode = EventCode.hardwareError

        /// A manufacturer-specific code for the failure.
        public var hardwareCode: UInt8

        /// An event with `hardwareCode`.
        public init(hardwareCode: UInt8) { self.hardwareCode = hardwareCode }

        public init(from reader: inout ByteReader) throws(WireError) {
            hardwareCode = try reader.readUInt8("HCI.HardwareError.hardwareCode")
        }

        public func encode(to writer: inout ByteWriter) { writer.write(hardwareCode) }
    }

    /// Number Of Completed Packets event (Core 5.4, Vol 4, Part E, §7.7.19): how many data
    /// packets per connection the controller has finished with, so the host can send more
    /// (ACL flow control credits).
    ///
    /// On the wire the handle and count arrays are interleaved per entry (§5.2): handle 0,
    /// count 0, handle 1, count 1, … — as BlueZ, Zephyr and Nordic's controller lay it out.
    public struct NumberOfCompletedPackets: HCIEvent {
        /// Event code 0x13.
        public static let eventCode = EventCode.numberOfCompletedPackets

        /// One connection's completed packets.
        public struct Entry: Hashable, Sendable {
            /// The connection (0x0000–0x0EFF).
            public var connectionHandle: UInt16
            /// Packets completed since the previous event: the credits returned.
            public var numCompletedPackets: UInt16

            /// An entry with both fields given.
            public init(connectionHandle: UInt16, numCompletedPackets: UInt16) {
                self.connectionHandle = connectionHandle
                self.numCompletedPackets = numCompletedPackets
            }
        }

        /// The entries, at most 255 (Num_Handles is one octet).
        public var entries: [Entry]

        /// An event with `entries`.
        public init(entries: [Entry]) { self.entries = entries }

        public init(from reader: inout ByteReader) throws(WireError) {
            let count = Int(try reader.readUInt8("HCI.NumberOfCompletedPackets.numHandles"))
            try reader.require(count * 4, "HCI.NumberOfCompletedPackets.entries")
            var entries: [Entry] = []
            entries.reserveCapacity(count)
            for _ in 0 ..< count {
                let handle = try reader.readEventConnectionHandle("HCI.NumberOfCompletedPackets.connectionHandle")
                let completed = try reader.readUInt16("HCI.NumberOfCompletedPackets.numCompletedPackets")
                entries.append(Entry(connectionHandle: handle, numCompletedPackets: completed))
            }
            self.entries = entries
        }

        /// Appends Num_Handles and the entries; more than 255 entries (only possible when
        /// built by hand) are cut at 255 so the count stays true.
        public func encode(to writer: inout ByteWriter) {
            let count = min(entries.count, Int(UInt8.max))
            writer.write(UInt8(count))
            for entry in entries.prefix(count) {
                writer.write(entry.connectionHandle)
                writer.write(entry.numCompletedPackets)
            }
        }
    }

    /// Data Buffer Overflow event (Core 5.4, Vol 4, Part E, §7.7.26): the host sent more
    /// data packets than the controller had buffers for, and data was lost.
    public struct DataBufferOverflow: HCIEvent {
        /// Event code 0x1A.
        public static let eventCode = EventCode.dataBufferOverflow

        /// The Link_Type parameter: which kind of buffer overflowed.
        public enum LinkType: UInt8, Hashable, Sendable, CaseIterable {
            /// Synchronous (SCO/eSCO) buffers: voice channels.
            case synchronous = 0x00
            /// ACL buffers: data channels.
            case acl = 0x01
        }

        /// Which buffers overflowed.
        public var linkType: LinkType

        /// An event for `linkType`.
        public init(linkType: LinkType) { self.linkType = linkType }

        public init(from reader: inout ByteReader) throws(WireError) {
            linkType = try reader.readEventEnumeration(LinkType.self, "HCI.DataBufferOverflow.linkType")
        }

        public func encode(to writer: inout ByteWriter) { writer.write(linkType.rawValue) }
    }
}
