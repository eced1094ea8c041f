extension HCI {
    /// HCI_Read_Local_Version_Information (Core 5.4, Vol 4, Part E, §7.4.1): the
    /// controller's HCI and link layer versions and manufacturer.
    public struct ReadLocalVersionInformation: ParameterlessCommand {
        /// The command's opcode, ``HCI/Opcode/readLocalVersionInformation``.
        public static let opcode = Opcode.readLocalVersionInformation
        /// The command (it has no parameters).
        public init() {}

        /// The Command Complete return parameters.
        public struct ReturnParameters: WireCodable, Hashable {
            // Codec: generated from the stored properties below.
            /// Whether the command succeeded.
            public var status: StatusCode
            /// HCI_Version, from the Assigned Numbers (0x09 = Core 5.0, 0x0D = Core 5.4).
            public var hciVersion: UInt8
            /// HCI_Subversion, chosen by the manufacturer.
            public var hciSubversion: UInt16
            /// LMP_Version (the LL version on LE), same numbering as `hciVersion`.
            public var lmpVersion: UInt8
            /// Company_Identifier from the Assigned Numbers (0xFFFF: none, e.g. a test device).
            public var companyIdentifier: UInt16
            /// LMP_Subversion, chosen by the manufacturer.
            public var lmpSubversion: UInt16

            /// Return parameters with every field.
            public init(
                status: StatusCode, hciVersion: UInt8, hciSubversion: UInt16,
                lmpVersion: UInt8, companyIdentifier: UInt16, lmpSubversion: UInt16
            ) {
                self.status = status
                self.hciVersion = hciVersion
                self.hciSubversion = hciSubversion
                self.lmpVersion = lmpVersion
                self.companyIdentifier = companyIdentifier
                self.lmpSubversion = lmpSubversion
            }
        }
    }

    /// HCI_Read_Local_Supported_Features (Core 5.4, Vol 4, Part E, §7.4.3): the controller's
    /// LMP feature page 0 (Vol 2, Part C, §3.3); bit 38 says "LE Supported (Controller)".
    public struct ReadLocalSupportedFeatures: ParameterlessCommand {
        /// The command's opcode, ``HCI/Opcode/readLocalSupportedFeatures``.
        public static let opcode = Opcode.readLocalSupportedFeatures
        /// The command (it has no parameters).
        public init() {}

        /// The Command Complete return parameters.
        public struct ReturnParameters: WireCodable, Hashable {
            // Codec: generated from the stored properties below.
            /// Whether the command succeeded.
            public var status: StatusCode
            /// The 64 feature bits, bit 0 of octet 0 as bit 0.
            public var lmpFeatures: UInt64

            /// Return parameters with every field.
            public init(status: StatusCode, lmpFeatures: UInt64) {
                self.status = status
                self.lmpFeatures = lmpFeatures
            }

            /// Whether bit 38, LE Supported (Controller), is set.
            public var leSupportedByController: Bool { lmpFeatures >> 38 & 1 == 1 }
        }
    }

    /// HCI_Read_Local_Extended_Features (Core 5.4, Vol 4, Part E, §7.4.4): one 64-bit page
    /// of the extended LMP feature mask. Page 1 carries the host's LE support bits, which
    /// hosts read during start-up.
    public struct ReadLocalExtendedFeatures: HCICommand {
        /// The command's opcode, ``HCI/Opcode/readLocalExtendedFeatures``.
        public static let opcode = Opcode.readLocalExtendedFeatures
        // Codec: generated from the stored properties below.
        /// The page requested: 0x00 is the normal feature mask, higher pages the extended ones.
        public var pageNumber: UInt8

        /// A request for `pageNumber`.
        public init(pageNumber: UInt8) { self.pageNumber = pageNumber }

        /// The Command Complete return parameters.
        public struct ReturnParameters: WireCodable, Hashable {
            // Codec: generated from the stored properties below.
            /// Whether the command succeeded.
            public var status: StatusCode
            /// The page these features belong to.
            public var pageNumber: UInt8
            /// The highest page with a non-zero bit.
            public var maximumPageNumber: UInt8
            /// The 64 feature bits of the page, bit 0 of octet 0 as bit 0.
            public var extendedLMPFeatures: UInt64

            /// Return parameters with every field.
            public init(status: StatusCode, pageNumber: UInt8, maximumPageNumber: UInt8, extendedLMPFeatures: UInt64) {
                self.status = status
                self.pageNumber = pageNumber
                self.maximumPageNumber = maximumPageNumber
                self.extendedLMPFeatures = extendedLMPFeatures
            }
        }
    }

    /// HCI_Read_Buffer_Size (Core 5.4, Vol 4, Part E, §7.4.5): the controller's shared ACL
    /// and synchronous data buffers, used for LE too when LE Read Buffer Size returns zeros.
    public struct ReadBufferSize: ParameterlessCommand {
        /// The command's opcode, ``HCI/Opcode/readBufferSize``.
        public static let opcode = Opcode.readBufferSize
        /// The command (it has no parameters).
        public init() {}

        /// The Command Complete return parameters.
        public struct ReturnParameters: WireCodable, Hashable {
            // Codec: generated from the stored properties below.
            /// Whether the command succeeded.
            public var status: StatusCode
            /// Largest ACL data payload the controller accepts, in octets.
            public var aclDataPacketLength: UInt16
            /// Largest synchronous data payload, in octets.
            public var synchronousDataPacketLength: UInt8
            /// How many ACL data packets the controller can hold.
            public var totalNumACLDataPackets: UInt16
            /// How many synchronous data packets the controller can hold.
            public var totalNumSynchronousDataPackets: UInt16

            /// Return parameters with every field.
            public init(
                status: StatusCode, aclDataPacketLength: UInt16, synchronousDataPacketLength: UInt8,
                totalNumACLDataPackets: UInt16, totalNumSynchronousDataPackets: UInt16
            ) {
                self.status = status
                self.aclDataPacketLength = aclDataPacketLength
                self.synchronousDataPacketLength = synchronousDataPacketLength
                self.totalNumACLDataPackets = totalNumACLDataPackets
                self.totalNumSynchronousDataPackets = totalNumSynchronousDataPackets
            }
        }
    }

    /// HCI_Read_BD_ADDR (Core 5.4, Vol 4, Part E, §7.4.6): the controller's public address
    /// (all zeros if it has none).
    public struct ReadBDADDR: ParameterlessCommand {
        /// The command's opcode, ``HCI/Opcode/readBDADDR``.
        public static let opcode = Opcode.readBDADDR
        /// The command (it has no parameters).
        public init() {}

        /// The Command Complete return parameters.
        public struct ReturnParameters: WireCodable, Hashable {
            /// Whether the command succeeded.
            public var status: StatusCode
            /// The public device address; its kind is always public (decode sets it).
            public var bdAddr: BluetoothAddress

            /// Return parameters with every field.
            public init(status: StatusCode, bdAddr: BluetoothAddress) {
                self.status = status
                self.bdAddr = bdAddr
            }

            public init(from reader: inout ByteReader) throws(WireError) {
                status = try StatusCode(from: &reader, field: "HCI.ReadBDADDR.status")
                bdAddr = try BluetoothAddress(from: &reader, kind: .public, field: "HCI.ReadBDADDR.bdAddr")
            }

            public func encode(to writer: inout ByteWriter) {
                status.encode(to: &writer)
                bdAddr.encode(to: &writer)
            }
        }
    }
}
