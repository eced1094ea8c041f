extension HCI {
    /// HCI_Read_RSSI (Core 5.4, Vol 4, Part E, §7.5.4): the received signal strength of a
    /// connection. On LE this is the absolute RSSI in dBm.
    public struct ReadRSSI: HCICommand {
        /// The command's opcode, ``HCI/Opcode/readRSSI``.
        public static let opcode = Opcode.readRSSI

        // Codec: generated from the stored properties below.
        /// The connection to measure.
        public var connectionHandle: UInt16

        /// The command reading `connectionHandle`'s RSSI.
        public init(connectionHandle: UInt16) { self.connectionHandle = connectionHandle }

        /// The Command Complete return parameters.
        public struct ReturnParameters: WireCodable, Hashable {
            // Codec: generated from the stored properties below.
            /// Whether the command succeeded.
            public var status: StatusCode
            /// The connection that was measured.
            public var connectionHandle: UInt16
            /// The RSSI in dBm (-127 to +20; 127 means not available).
            public var rssi: Int8

            /// Return parameters with every field.
            public init(status: StatusCode, connectionHandle: UInt16, rssi: Int8) {
                self.status = status
                self.connectionHandle = connectionHandle
                self.rssi = rssi
            }
        }
    }
}
