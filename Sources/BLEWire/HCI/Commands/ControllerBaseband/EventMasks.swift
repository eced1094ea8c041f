extension HCI {
    /// The Event_Mask of HCI_Set_Event_Mask (Core 5.4, Vol 4, Part E, §7.3.1): bit n enables
    /// the event it names. Every bit is kept, named or not, so the value round-trips.
    public struct EventMask: OptionSet, Hashable, Sendable {
        /// The 64-bit mask as on the wire.
        public var rawValue: UInt64
        /// A mask from its bits.
        public init(rawValue: UInt64) { self.rawValue = rawValue }

        /// Bit 4: Disconnection Complete.
        public static let disconnectionComplete = EventMask(rawValue: 1 << 4)
        /// Bit 7: Encryption Change [v1].
        public static let encryptionChange = EventMask(rawValue: 1 << 7)
        /// Bit 11: Read Remote Version Information Complete.
        public static let readRemoteVersionInformationComplete = EventMask(rawValue: 1 << 11)
        /// Bit 15: Hardware Error.
        public static let hardwareError = EventMask(rawValue: 1 << 15)
        /// Bit 25: Data Buffer Overflow.
        public static let dataBufferOverflow = EventMask(rawValue: 1 << 25)
        /// Bit 47: Encryption Key Refresh Complete.
        public static let encryptionKeyRefreshComplete = EventMask(rawValue: 1 << 47)
        /// Bit 61: LE Meta, which carries every LE subevent (filtered by ``LEEventMask``).
        public static let leMeta = EventMask(rawValue: 1 << 61)
        /// The controller's value after reset (0x00001FFFFFFFFFFF).
        public static let defaultAfterReset = EventMask(rawValue: 0x0000_1FFF_FFFF_FFFF)
    }

    /// HCI_Set_Event_Mask (Core 5.4, Vol 4, Part E, §7.3.1): which events the controller
    /// may send to the host.
    public struct SetEventMask: HCICommand {
        /// The command's opcode, ``HCI/Opcode/setEventMask``.
        public static let opcode = Opcode.setEventMask

        // Codec: generated from the stored properties below.
        /// The events to enable.
        public var eventMask: EventMask

        /// The command enabling `eventMask`.
        public init(eventMask: EventMask) { self.eventMask = eventMask }
    }

    /// HCI_Set_Event_Mask_Page_2 (Core 5.4, Vol 4, Part E, §7.3.69): the second page of event
    /// enables (bit 23: Authenticated Payload Timeout Expired, bit 25: Encryption Change
    /// [v2]). Kept as the raw 64-bit mask.
    public struct SetEventMaskPage2: HCICommand {
        /// The command's opcode, ``HCI/Opcode/setEventMaskPage2``.
        public static let opcode = Opcode.setEventMaskPage2

        // Codec: generated from the stored properties below.
        /// The 64-bit mask as on the wire.
        public var eventMaskPage2: UInt64

        /// The command enabling the events of `eventMaskPage2`.
        public init(eventMaskPage2: UInt64) { self.eventMaskPage2 = eventMaskPage2 }
    }

    /// HCI_Reset (Core 5.4, Vol 4, Part E, §7.3.2): returns the controller to its power-on
    /// state. The first command a host sends.
    public struct Reset: ParameterlessCommand {
        /// The command's opcode, ``HCI/Opcode/reset``.
        public static let opcode = Opcode.reset
        /// The command (it has no parameters).
        public init() {}
    }
}
