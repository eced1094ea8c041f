extension HCI {
    /// HCI_Read_Encryption_Key_Size (Core 5.4, Vol 4, Part E, §7.5.7): the size of the key
    /// an encrypted connection uses. A host learns it this way when the controller reports
    /// encryption with Encryption Change [v1], which carries no key size (§7.7.8).
    public struct ReadEncryptionKeySize: HCICommand {
        /// The command's opcode, ``HCI/Opcode/readEncryptionKeySize``.
        public static let opcode = Opcode.readEncryptionKeySize

        // Codec: generated from the stored properties below.
        /// The encrypted connection.
        public var connectionHandle: UInt16

        /// The command reading `connectionHandle`'s key size.
        public init(connectionHandle: UInt16) { self.connectionHandle = connectionHandle }

        /// The Command Complete return parameters.
        public struct ReturnParameters: WireCodable, Hashable {
            // Codec: generated from the stored properties below.
            /// Whether the command succeeded (Insufficient Security, 0x2F, when the link is
            /// not encrypted).
            public var status: StatusCode
            /// The connection that was asked about.
            public var connectionHandle: UInt16
            /// The key size in octets (1–16; 7–16 on LE links).
            public var keySize: UInt8

            /// Return parameters with every field.
            public init(status: StatusCode, connectionHandle: UInt16, keySize: UInt8) {
                self.status = status
                self.connectionHandle = connectionHandle
                self.keySize = keySize
            }
        }
    }
}
