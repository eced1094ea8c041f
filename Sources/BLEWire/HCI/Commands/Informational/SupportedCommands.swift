extension HCI {
    /// The Supported_Commands bit field of HCI_Read_Local_Supported_Commands (Core 5.4,
    /// Vol 4, Part E, §6.27 and §7.4.2): 64 octets, where bit b of octet o says whether
    /// the controller supports one command. Held as four 128-bit words so it is a plain
    /// value without heap storage.
    public struct SupportedCommands: Hashable, Sendable {
        /// Octets 0–15, 16–31, 32–47 and 48–63, each little-endian (octet 0 is the least
        /// significant octet of `words.0`).
        public var words: (UInt128, UInt128, UInt128, UInt128)

        /// The bit field from its four words.
        public init(words: (UInt128, UInt128, UInt128, UInt128)) { self.words = words }

        /// A bit field with exactly `entries` set.
        public init(_ entries: [Entry]) {
            self.init(words: (0, 0, 0, 0))
            for entry in entries { insert(entry) }
        }

        /// Whether bit `bit` (0–7) of octet `octet` (0–63) is set; out-of-range positions are
        /// not set.
        public func contains(octet: Int, bit: Int) -> Bool {
            guard (0 ..< 64).contains(octet), (0 ..< 8).contains(bit) else { return false }
            let shift = UInt128((octet % 16) * 8 + bit)
            return word(octet / 16) >> shift & 1 == 1
        }

        /// Whether the controller claims `entry`.
        public func contains(_ entry: Entry) -> Bool { contains(octet: entry.octet, bit: entry.bit) }

        /// Whether the controller claims the command with `opcode`; `false` for opcodes
        /// this module has no entry for.
        public func contains(opcode: Opcode) -> Bool {
            guard let entry = Entry.byOpcode[opcode] else { return false }
            return contains(entry)
        }

        /// Sets the bit of `entry` (out-of-range positions are ignored).
        public mutating func insert(_ entry: Entry) {
            guard (0 ..< 64).contains(entry.octet), (0 ..< 8).contains(entry.bit) else { return }
            let mask = UInt128(1) << UInt128((entry.octet % 16) * 8 + entry.bit)
            switch entry.octet / 16 {
            case 0: words.0 |= mask
            case 1: words.1 |= mask
            case 2: words.2 |= mask
            default: words.3 |= mask
            }
        }

        private func word(_ index: Int) -> UInt128 {
            switch index {
            case 0: return words.0
            case 1: return words.1
            case 2: return words.2
            default: return words.3
            }
        }

        public static func == (lhs: SupportedCommands, rhs: SupportedCommands) -> Bool {
            lhs.words == rhs.words
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(words.0)
            hasher.combine(words.1)
            hasher.combine(words.2)
            hasher.combine(words.3)
        }

        /// Reads the 64 octets.
        public init(from reader: inout ByteReader, field: @autoclosure () -> String) throws(WireError) {
            try reader.require(64, field())
            words = (
                try reader.readUInt128(field()), try reader.readUInt128(field()),
                try reader.readUInt128(field()), try reader.readUInt128(field())
            )
        }

        /// Appends the 64 octets.
        public func encode(to writer: inout ByteWriter) {
            writer.write(words.0)
            writer.write(words.1)
            writer.write(words.2)
            writer.write(words.3)
        }
    }
}

extension HCI.SupportedCommands {
    /// The position of one command's bit in the field (Core 5.4, Vol 4, Part E, §6.27).
    public struct Entry: Hashable, Sendable {
        /// The octet, 0 to 63.
        public var octet: Int
        /// The bit within the octet, 0 to 7.
        public var bit: Int

        /// The entry at `bit` of `octet`.
        public init(octet: Int, bit: Int) {
            self.octet = octet
            self.bit = bit
        }

        /// Disconnect: octet 0, bit 5.
        public static let disconnect = Entry(octet: 0, bit: 5)
        /// Read Remote Version Information: octet 2, bit 7.
        public static let readRemoteVersionInformation = Entry(octet: 2, bit: 7)
        /// Set Event Mask: octet 5, bit 6.
        public static let setEventMask = Entry(octet: 5, bit: 6)
        /// Reset: octet 5, bit 7.
        public static let reset = Entry(octet: 5, bit: 7)
        /// Read Transmit Power Level: octet 10, bit 2.
        public static let readTransmitPowerLevel = Entry(octet: 10, bit: 2)
        /// Set Controller To Host Flow Control: octet 10, bit 5.
        public static let setControllerToHostFlowControl = Entry(octet: 10, bit: 5)
        /// Host Buffer Size: octet 10, bit 6.
        public static let hostBufferSize = Entry(octet: 10, bit: 6)
        /// Host Number Of Completed Packets: octet 10, bit 7.
        public static let hostNumberOfCompletedPackets = Entry(octet: 10, bit: 7)
        /// Set Event Mask Page 2: octet 22, bit 2.
        public static let setEventMaskPage2 = Entry(octet: 22, bit: 2)
        /// Read LE Host Support: octet 24, bit 5.
        public static let readLEHostSupport = Entry(octet: 24, bit: 5)
        /// Write LE Host Support: octet 24, bit 6.
        public static let writeLEHostSupport = Entry(octet: 24, bit: 6)
        /// Read Authenticated Payload Timeout: octet 32, bit 4.
        public static let readAuthenticatedPayloadTimeout = Entry(octet: 32, bit: 4)
        /// Write Authenticated Payload Timeout: octet 32, bit 5.
        public static let writeAuthenticatedPayloadTimeout = Entry(octet: 32, bit: 5)
        /// Read Local Version Information: octet 14, bit 3.
        public static let readLocalVersionInformation = Entry(octet: 14, bit: 3)
        /// Read Local Supported Features: octet 14, bit 5.
        public static let readLocalSupportedFeatures = Entry(octet: 14, bit: 5)
        /// Read Local Extended Features.
        public static let readLocalExtendedFeatures = Entry(octet: 14, bit: 6)
        /// Read Buffer Size: octet 14, bit 7.
        public static let readBufferSize = Entry(octet: 14, bit: 7)
        /// Read BD_ADDR: octet 15, bit 1.
        public static let readBDADDR = Entry(octet: 15, bit: 1)
        /// Read RSSI: octet 15, bit 5.
        public static let readRSSI = Entry(octet: 15, bit: 5)
        /// Read Encryption Key Size: octet 20, bit 4.
        public static let readEncryptionKeySize = Entry(octet: 20, bit: 4)
        /// LE Set Event Mask: octet 25, bit 0.
        public static let leSetEventMask = Entry(octet: 25, bit: 0)
        /// LE Read Buffer Size: octet 25, bit 1.
        public static let leReadBufferSize = Entry(octet: 25, bit: 1)
        /// LE Read Local Supported Features: octet 25, bit 2.
        public static let leReadLocalSupportedFeatures = Entry(octet: 25, bit: 2)
        /// LE Set Random Address: octet 25, bit 4.
        public static let leSetRandomAddress = Entry(octet: 25, bit: 4)
        /// LE Set Advertising Parameters: octet 25, bit 5.
        public static let leSetAdvertisingParameters = Entry(octet: 25, bit: 5)
        /// LE Read Advertising Physical Channel Tx Power: octet 25, bit 6.
        public static let leReadAdvertisingPhysicalChannelTxPower = Entry(octet: 25, bit: 6)
        /// LE Set Advertising Data: octet 25, bit 7.
        public static let leSetAdvertisingData = Entry(octet: 25, bit: 7)
        /// LE Set Scan Response Data: octet 26, bit 0.
        public static let leSetScanResponseData = Entry(octet: 26, bit: 0)
        /// LE Set Advertising Enable: octet 26, bit 1.
        public static let leSetAdvertisingEnable = Entry(octet: 26, bit: 1)
        /// LE Set Scan Parameters: octet 26, bit 2.
        public static let leSetScanParameters = Entry(octet: 26, bit: 2)
        /// LE Set Scan Enable: octet 26, bit 3.
        public static let leSetScanEnable = Entry(octet: 26, bit: 3)
        /// LE Create Connection: octet 26, bit 4.
        public static let leCreateConnection = Entry(octet: 26, bit: 4)
        /// LE Create Connection Cancel: octet 26, bit 5.
        public static let leCreateConnectionCancel = Entry(octet: 26, bit: 5)
        /// LE Read Filter Accept List Size: octet 26, bit 6.
        public static let leReadFilterAcceptListSize = Entry(octet: 26, bit: 6)
        /// LE Clear Filter Accept List: octet 26, bit 7.
        public static let leClearFilterAcceptList = Entry(octet: 26, bit: 7)
        /// LE Add Device To Filter Accept List: octet 27, bit 0.
        public static let leAddDeviceToFilterAcceptList = Entry(octet: 27, bit: 0)
        /// LE Remove Device From Filter Accept List: octet 27, bit 1.
        public static let leRemoveDeviceFromFilterAcceptList = Entry(octet: 27, bit: 1)
        /// LE Connection Update: octet 27, bit 2.
        public static let leConnectionUpdate = Entry(octet: 27, bit: 2)
        /// LE Set Host Channel Classification: octet 27, bit 3.
        public static let leSetHostChannelClassification = Entry(octet: 27, bit: 3)
        /// LE Read Channel Map: octet 27, bit 4.
        public static let leReadChannelMap = Entry(octet: 27, bit: 4)
        /// LE Read Remote Features: octet 27, bit 5.
        public static let leReadRemoteFeatures = Entry(octet: 27, bit: 5)
        /// LE Encrypt: octet 27, bit 6.
        public static let leEncrypt = Entry(octet: 27, bit: 6)
        /// LE Rand: octet 27, bit 7.
        public static let leRand = Entry(octet: 27, bit: 7)
        /// LE Enable Encryption: octet 28, bit 0.
        public static let leEnableEncryption = Entry(octet: 28, bit: 0)
        /// LE Long Term Key Request Reply: octet 28, bit 1.
        public static let leLongTermKeyRequestReply = Entry(octet: 28, bit: 1)
        /// LE Long Term Key Request Negative Reply: octet 28, bit 2.
        public static let leLongTermKeyRequestNegativeReply = Entry(octet: 28, bit: 2)
        /// LE Read Supported States: octet 28, bit 3.
        public static let leReadSupportedStates = Entry(octet: 28, bit: 3)
        /// LE Remote Connection Parameter Request Reply: octet 33, bit 4.
        public static let leRemoteConnectionParameterRequestReply = Entry(octet: 33, bit: 4)
        /// LE Remote Connection Parameter Request Negative Reply: octet 33, bit 5.
        public static let leRemoteConnectionParameterRequestNegativeReply = Entry(octet: 33, bit: 5)
        /// LE Set Data Length: octet 33, bit 6.
        public static let leSetDataLength = Entry(octet: 33, bit: 6)
        /// LE Read Suggested Default Data Length: octet 33, bit 7.
        public static let leReadSuggestedDefaultDataLength = Entry(octet: 33, bit: 7)
        /// LE Write Suggested Default Data Length: octet 34, bit 0.
        public static let leWriteSuggestedDefaultDataLength = Entry(octet: 34, bit: 0)
        /// LE Read Local P-256 Public Key: octet 34, bit 1.
        public static let leReadLocalP256PublicKey = Entry(octet: 34, bit: 1)
        /// LE Generate DHKey: octet 34, bit 2.
        public static let leGenerateDHKey = Entry(octet: 34, bit: 2)
        /// LE Add Device To Resolving List: octet 34, bit 3.
        public static let leAddDeviceToResolvingList = Entry(octet: 34, bit: 3)
        /// LE Remove Device From Resolving List: octet 34, bit 4.
        public static let leRemoveDeviceFromResolvingList = Entry(octet: 34, bit: 4)
        /// LE Clear Resolving List: octet 34, bit 5.
        public static let leClearResolvingList = Entry(octet: 34, bit: 5)
        /// LE Read Resolving List Size: octet 34, bit 6.
        public static let leReadResolvingListSize = Entry(octet: 34, bit: 6)
        /// LE Read Peer Resolvable Address: octet 34, bit 7.
        public static let leReadPeerResolvableAddress = Entry(octet: 34, bit: 7)
        /// LE Read Local Resolvable Address: octet 35, bit 0.
        public static let leReadLocalResolvableAddress = Entry(octet: 35, bit: 0)
        /// LE Set Address Resolution Enable: octet 35, bit 1.
        public static let leSetAddressResolutionEnable = Entry(octet: 35, bit: 1)
        /// LE Set Resolvable Private Address Timeout: octet 35, bit 2.
        public static let leSetResolvablePrivateAddressTimeout = Entry(octet: 35, bit: 2)
        /// LE Read Maximum Data Length: octet 35, bit 3.
        public static let leReadMaximumDataLength = Entry(octet: 35, bit: 3)
        /// LE Read PHY: octet 35, bit 4.
        public static let leReadPHY = Entry(octet: 35, bit: 4)
        /// LE Set Default PHY: octet 35, bit 5.
        public static let leSetDefaultPHY = Entry(octet: 35, bit: 5)
        /// LE Set PHY: octet 35, bit 6.
        public static let leSetPHY = Entry(octet: 35, bit: 6)
        /// LE Set Advertising Set Random Address: octet 36, bit 1.
        public static let leSetAdvertisingSetRandomAddress = Entry(octet: 36, bit: 1)
        /// LE Set Extended Advertising Parameters: octet 36, bit 2.
        public static let leSetExtendedAdvertisingParameters = Entry(octet: 36, bit: 2)
        /// LE Set Extended Advertising Data: octet 36, bit 3.
        public static let leSetExtendedAdvertisingData = Entry(octet: 36, bit: 3)
        /// LE Set Extended Scan Response Data: octet 36, bit 4.
        public static let leSetExtendedScanResponseData = Entry(octet: 36, bit: 4)
        /// LE Set Extended Advertising Enable: octet 36, bit 5.
        public static let leSetExtendedAdvertisingEnable = Entry(octet: 36, bit: 5)
        /// LE Read Maximum Advertising Data Length: octet 36, bit 6.
        public static let leReadMaximumAdvertisingDataLength = Entry(octet: 36, bit: 6)
        /// LE Read Number Of Supported Advertising Sets: octet 36, bit 7.
        public static let leReadNumberOfSupportedAdvertisingSets = Entry(octet: 36, bit: 7)
        /// LE Remove Advertising Set: octet 37, bit 0.
        public static let leRemoveAdvertisingSet = Entry(octet: 37, bit: 0)
        /// LE Clear Advertising Sets: octet 37, bit 1.
        public static let leClearAdvertisingSets = Entry(octet: 37, bit: 1)
        /// LE Set Periodic Advertising Parameters: octet 37, bit 2.
        public static let leSetPeriodicAdvertisingParameters = Entry(octet: 37, bit: 2)
        /// LE Set Periodic Advertising Data: octet 37, bit 3.
        public static let leSetPeriodicAdvertisingData = Entry(octet: 37, bit: 3)
        /// LE Set Periodic Advertising Enable: octet 37, bit 4.
        public static let leSetPeriodicAdvertisingEnable = Entry(octet: 37, bit: 4)
        /// LE Set Extended Scan Parameters: octet 37, bit 5.
        public static let leSetExtendedScanParameters = Entry(octet: 37, bit: 5)
        /// LE Set Extended Scan Enable: octet 37, bit 6.
        public static let leSetExtendedScanEnable = Entry(octet: 37, bit: 6)
        /// LE Extended Create Connection: octet 37, bit 7.
        public static let leExtendedCreateConnection = Entry(octet: 37, bit: 7)
        /// LE Periodic Advertising Create Sync: octet 38, bit 0.
        public static let lePeriodicAdvertisingCreateSync = Entry(octet: 38, bit: 0)
        /// LE Periodic Advertising Create Sync Cancel: octet 38, bit 1.
        public static let lePeriodicAdvertisingCreateSyncCancel = Entry(octet: 38, bit: 1)
        /// LE Periodic Advertising Terminate Sync: octet 38, bit 2.
        public static let lePeriodicAdvertisingTerminateSync = Entry(octet: 38, bit: 2)
        /// LE Read Transmit Power: octet 38, bit 7.
        public static let leReadTransmitPower = Entry(octet: 38, bit: 7)
        /// LE Set Privacy Mode: octet 39, bit 2.
        public static let leSetPrivacyMode = Entry(octet: 39, bit: 2)
        /// LE Read Buffer Size [v2]: octet 41, bit 5.
        public static let leReadBufferSizeV2 = Entry(octet: 41, bit: 5)
        /// LE Set Extended Advertising Parameters [v2]: octet 46, bit 2.
        public static let leSetExtendedAdvertisingParametersV2 = Entry(octet: 46, bit: 2)

        /// The entry of each command this module defines, by opcode.
        static let byOpcode: [HCI.Opcode: Entry] = [
            .disconnect: .disconnect,
            .readRemoteVersionInformation: .readRemoteVersionInformation,
            .setEventMask: .setEventMask,
            .reset: .reset,
            .readTransmitPowerLevel: .readTransmitPowerLevel,
            .setControllerToHostFlowControl: .setControllerToHostFlowControl,
            .hostBufferSize: .hostBufferSize,
            .hostNumberOfCompletedPackets: .hostNumberOfCompletedPackets,
            .setEventMaskPage2: .setEventMaskPage2,
            .readLEHostSupport: .readLEHostSupport,
            .writeLEHostSupport: .writeLEHostSupport,
            .readAuthenticatedPayloadTimeout: .readAuthenticatedPayloadTimeout,
            .writeAuthenticatedPayloadTimeout: .writeAuthenticatedPayloadTimeout,
            .readLocalVersionInformation: .readLocalVersionInformation,
            .readLocalSupportedFeatures: .readLocalSupportedFeatures,
            .readLocalExtendedFeatures: .readLocalExtendedFeatures,
            .readBufferSize: .readBufferSize,
            .readBDADDR: .readBDADDR,
            .readRSSI: .readRSSI,
            .readEncryptionKeySize: .readEncryptionKeySize,
            .leSetEventMask: .leSetEventMask,
            .leReadBufferSize: .leReadBufferSize,
            .leReadLocalSupportedFeatures: .leReadLocalSupportedFeatures,
            .leSetRandomAddress: .leSetRandomAddress,
            .leSetAdvertisingParameters: .leSetAdvertisingParameters,
            .leReadAdvertisingPhysicalChannelTxPower: .leReadAdvertisingPhysicalChannelTxPower,
            .leSetAdvertisingData: .leSetAdvertisingData,
            .leSetScanResponseData: .leSetScanResponseData,
            .leSetAdvertisingEnable: .leSetAdvertisingEnable,
            .leSetScanParameters: .leSetScanParameters,
            .leSetScanEnable: .leSetScanEnable,
            .leCreateConnection: .leCreateConnection,
            .leCreateConnectionCancel: .leCreateConnectionCancel,
            .leReadFilterAcceptListSize: .leReadFilterAcceptListSize,
            .leClearFilterAcceptList: .leClearFilterAcceptList,
            .leAddDeviceToFilterAcceptList: .leAddDeviceToFilterAcceptList,
            .leRemoveDeviceFromFilterAcceptList: .leRemoveDeviceFromFilterAcceptList,
            .leConnectionUpdate: .leConnectionUpdate,
            .leSetHostChannelClassification: .leSetHostChannelClassification,
            .leReadChannelMap: .leReadChannelMap,
            .leReadRemoteFeatures: .leReadRemoteFeatures,
            .leEncrypt: .leEncrypt,
            .leRand: .leRand,
            .leEnableEncryption: .leEnableEncryption,
            .leLongTermKeyRequestReply: .leLongTermKeyRequestReply,
            .leLongTermKeyRequestNegativeReply: .leLongTermKeyRequestNegativeReply,
            .leReadSupportedStates: .leReadSupportedStates,
            .leRemoteConnectionParameterRequestReply: .leRemoteConnectionParameterRequestReply,
            .leRemoteConnectionParameterRequestNegativeReply: .leRemoteConnectionParameterRequestNegativeReply,
            .leSetDataLength: .leSetDataLength,
            .leReadSuggestedDefaultDataLength: .leReadSuggestedDefaultDataLength,
            .leWriteSuggestedDefaultDataLength: .leWriteSuggestedDefaultDataLength,
            .leReadLocalP256PublicKey: .leReadLocalP256PublicKey,
            .leGenerateDHKey: .leGenerateDHKey,
            .leAddDeviceToResolvingList: .leAddDeviceToResolvingList,
            .leRemoveDeviceFromResolvingList: .leRemoveDeviceFromResolvingList,
            .leClearResolvingList: .leClearResolvingList,
            .leReadResolvingListSize: .leReadResolvingListSize,
            .leReadPeerResolvableAddress: .leReadPeerResolvableAddress,
            .leReadLocalResolvableAddress: .leReadLocalResolvableAddress,
            .leSetAddressResolutionEnable: .leSetAddressResolutionEnable,
            .leSetResolvablePrivateAddressTimeout: .leSetResolvablePrivateAddressTimeout,
            .leReadMaximumDataLength: .leReadMaximumDataLength,
            .leReadPHY: .leReadPHY,
            .leSetDefaultPHY: .leSetDefaultPHY,
            .leSetPHY: .leSetPHY,
            .leSetAdvertisingSetRandomAddress: .leSetAdvertisingSetRandomAddress,
            .leSetExtendedAdvertisingParameters: .leSetExtendedAdvertisingParameters,
            .leSetExtendedAdvertisingData: .leSetExtendedAdvertisingData,
            .leSetExtendedScanResponseData: .leSetExtendedScanResponseData,
            .leSetExtendedAdvertisingEnable: .leSetExtendedAdvertisingEnable,
            .leReadMaximumAdvertisingDataLength: .leReadMaximumAdvertisingDataLength,
            .leReadNumberOfSupportedAdvertisingSets: .leReadNumberOfSupportedAdvertisingSets,
            .leRemoveAdvertisingSet: .leRemoveAdvertisingSet,
            .leClearAdvertisingSets: .leClearAdvertisingSets,
            .leSetExtendedScanParameters: .leSetExtendedScanParameters,
            .leSetExtendedScanEnable: .leSetExtendedScanEnable,
            .leExtendedCreateConnection: .leExtendedCreateConnection,
            .leSetPeriodicAdvertisingParameters: .leSetPeriodicAdvertisingParameters,
            .leSetPeriodicAdvertisingData: .leSetPeriodicAdvertisingData,
            .leSetPeriodicAdvertisingEnable: .leSetPeriodicAdvertisingEnable,
            .lePeriodicAdvertisingCreateSync: .lePeriodicAdvertisingCreateSync,
            .lePeriodicAdvertisingCreateSyncCancel: .lePeriodicAdvertisingCreateSyncCancel,
            .lePeriodicAdvertisingTerminateSync: .lePeriodicAdvertisingTerminateSync,
            .leReadTransmitPower: .leReadTransmitPower,
            .leSetPrivacyMode: .leSetPrivacyMode,
            .leReadBufferSizeV2: .leReadBufferSizeV2,
            .leSetExtendedAdvertisingParametersV2: .leSetExtendedAdvertisingParametersV2,
        ]
    }
}

extension HCI {
    /// HCI_Read_Local_Supported_Commands (Core 5.4, Vol 4, Part E, §7.4.2): which commands
    /// the controller supports, so the host can choose e.g. extended over legacy advertising.
    public struct ReadLocalSupportedCommands: ParameterlessCommand {
        /// The command's opcode, ``HCI/Opcode/readLocalSupportedCommands``.
        public static let opcode = Opcode.readLocalSupportedCommands
        /// The command (it has no parameters).
        public init() {}

        /// The Command Complete return parameters.
        public struct ReturnParameters: WireCodable, Hashable {
            // Codec: generated from the stored properties below.
            /// Whether the command succeeded.
            public var status: StatusCode
            /// The 64-octet bit field.
            public var supportedCommands: SupportedCommands

            /// Return parameters with every field.
            public init(status: StatusCode, supportedCommands: SupportedCommands) {
                self.status = status
                self.supportedCommands = supportedCommands
            }
        }
    }
}
