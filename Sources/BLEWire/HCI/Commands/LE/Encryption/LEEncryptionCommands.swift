extension HCI {
    /// HCI_LE_Encrypt (Core 5.4, Vol 4, Part E, §7.8.22): AES-128 of one block in the
    /// controller, for hosts without their own AES (e.g. to resolve private addresses).
    public struct LEEncrypt: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leEncrypt``.
        public static let opcode = Opcode.leEncrypt

        // Codec: generated from the stored properties below.
        /// Key: the 128-bit key, most significant octet first as the specification writes it
        /// (least significant first on the wire).
        public var key: UInt128
        /// Plaintext_Data: the 128-bit block to encrypt.
        public var plaintextData: UInt128

        /// The command encrypting `plaintextData` with `key`.
        public init(key: UInt128, plaintextData: UInt128) {
            self.key = key
            self.plaintextData = plaintextData
        }

        /// The Command Complete return parameters.
        public struct ReturnParameters: WireCodable, Hashable {
            // Codec: generated from the stored properties below.
            /// Whether the command succeeded.
            public var status: StatusCode
            /// Encrypted_Data: the 128-bit result.
            public var encryptedData: UInt128

            /// Return parameters with every field.
            public init(status: StatusCode, encryptedData: UInt128) {
                self.status = status
                self.encryptedData = encryptedData
            }
        }
    }

    /// HCI_LE_Rand (Core 5.4, Vol 4, Part E, §7.8.23): 64 random bits from the controller's
    /// random number generator.
    public struct LERand: ParameterlessCommand {
        /// The command's opcode, ``HCI/Opcode/leRand``.
        public static let opcode = Opcode.leRand
        /// The command (it has no parameters).
        public init() {}

        /// The Command Complete return parameters.
        public struct ReturnParameters: WireCodable, Hashable {
            // Codec: generated from the stored properties below.
            /// Whether the command succeeded.
            public var status: StatusCode
            /// Random_Number.
            public var randomNumber: UInt64

            /// Return parameters with every field.
            public init(status: StatusCode, randomNumber: UInt64) {
                self.status = status
                self.randomNumber = randomNumber
            }
        }
    }

    /// HCI_LE_Enable_Encryption (Core 5.4, Vol 4, Part E, §7.8.24): the central starts or
    /// refreshes encryption with a stored key. Answered by Command Status, then Encryption
    /// Change or Encryption Key Refresh Complete.
    public struct LEEnableEncryption: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leEnableEncryption``.
        public static let opcode = Opcode.leEnableEncryption
        /// Answered by Command Status, then by the event that carries the result.
        public static let completion = CommandCompletion.commandStatus

        // Codec: generated from the stored properties below.
        /// The connection to encrypt.
        public var connectionHandle: UInt16
        /// Random_Number (Rand) that identifies the key; 0 for LE Secure Connections keys.
        public var randomNumber: UInt64
        /// Encrypted_Diversifier (EDIV); 0 for LE Secure Connections keys.
        public var encryptedDiversifier: UInt16
        /// Long_Term_Key, most significant octet first as written in the specification.
        public var longTermKey: UInt128

        /// The command with every parameter.
        public init(connectionHandle: UInt16, randomNumber: UInt64, encryptedDiversifier: UInt16, longTermKey: UInt128) {
            self.connectionHandle = connectionHandle
            self.randomNumber = randomNumber
            self.encryptedDiversifier = encryptedDiversifier
            self.longTermKey = longTermKey
        }
    }

    /// HCI_LE_Long_Term_Key_Request_Reply (Core 5.4, Vol 4, Part E, §7.8.25): the peripheral
    /// host answers LE Long Term Key Request with the key.
    public struct LELongTermKeyRequestReply: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leLongTermKeyRequestReply``.
        public static let opcode = Opcode.leLongTermKeyRequestReply
        /// Command Complete returns the status and the connection handle.
        public typealias ReturnParameters = StatusAndHandleReturnParameters

        // Codec: generated from the stored properties below.
        /// The connection that asked.
        public var connectionHandle: UInt16
        /// Long_Term_Key, most significant octet first as written in the specification.
        public var longTermKey: UInt128

        /// The reply giving `longTermKey` for `connectionHandle`.
        public init(connectionHandle: UInt16, longTermKey: UInt128) {
            self.connectionHandle = connectionHandle
            self.longTermKey = longTermKey
        }
    }

    /// HCI_LE_Long_Term_Key_Request_Negative_Reply (Core 5.4, Vol 4, Part E, §7.8.26): the
    /// peripheral host has no key for the request.
    public struct LELongTermKeyRequestNegativeReply: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leLongTermKeyRequestNegativeReply``.
        public static let opcode = Opcode.leLongTermKeyRequestNegativeReply
        /// Command Complete returns the status and the connection handle.
        public typealias ReturnParameters = StatusAndHandleReturnParameters

        // Codec: generated from the stored properties below.
        /// The connection that asked.
        public var connectionHandle: UInt16

        /// The negative reply for `connectionHandle`.
        public init(connectionHandle: UInt16) { self.connectionHandle = connectionHandle }
    }

    /// HCI_LE_Read_Local_P-256_Public_Key (Core 5.4, Vol 4, Part E, §7.8.36): asks the
    /// controller for a new P-256 key pair. Answered by Command Status, then LE Read Local
    /// P-256 Public Key Complete.
    public struct LEReadLocalP256PublicKey: ParameterlessCommand {
        /// The command's opcode, ``HCI/Opcode/leReadLocalP256PublicKey``.
        public static let opcode = Opcode.leReadLocalP256PublicKey
        /// Answered by Command Status, then by the event that carries the result.
        public static let completion = CommandCompletion.commandStatus
        /// The command (it has no parameters).
        public init() {}
    }

    /// HCI_LE_Generate_DHKey [v1] (Core 5.4, Vol 4, Part E, §7.8.37): the controller computes
    /// the Diffie-Hellman key from the peer's public key and its own private key. Answered
    /// by Command Status, then LE Generate DHKey Complete.
    public struct LEGenerateDHKey: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leGenerateDHKey``.
        public static let opcode = Opcode.leGenerateDHKey
        /// Answered by Command Status, then by the event that carries the result.
        public static let completion = CommandCompletion.commandStatus

        /// The size of the public key field: X then Y, 32 octets each.
        public static let publicKeyLength = 64

        /// Remote_P-256_Public_Key: X then Y, each least significant octet first, exactly as
        /// on the wire. The encoder sends exactly 64 octets (cut, or padded with zeros).
        public var remoteP256PublicKey: ArraySlice<UInt8>

        /// The command for the peer's `remoteP256PublicKey`.
        public init(remoteP256PublicKey: ArraySlice<UInt8>) { self.remoteP256PublicKey = remoteP256PublicKey }

        public init(from reader: inout ByteReader) throws(WireError) {
            remoteP256PublicKey = try reader.readBytes(Self.publicKeyLength, "HCI.LEGenerateDHKey.remoteP256PublicKey")
        }

        public func encode(to writer: inout ByteWriter) {
            let key = remoteP256PublicKey.prefix(Self.publicKeyLength)
            writer.write(contentsOf: key)
            for _ in key.count ..< Self.publicKeyLength { writer.write(UInt8(0)) }
        }
    }
}
