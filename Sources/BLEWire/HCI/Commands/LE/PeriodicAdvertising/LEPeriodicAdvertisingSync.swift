extension HCI {
    /// HCI_LE_Periodic_Advertising_Create_Sync (Core 5.4, Vol 4, Part E, §7.8.67): asks the
    /// scanner to follow an advertiser's periodic train once its SyncInfo is heard. Answered
    /// by Command Status, then LE Periodic Advertising Sync Established.
    public struct LEPeriodicAdvertisingCreateSync: HCICommand {
        /// The command's opcode, ``HCI/Opcode/lePeriodicAdvertisingCreateSync``.
        public static let opcode = Opcode.lePeriodicAdvertisingCreateSync
        /// Answered by Command Status, then by LE Periodic Advertising Sync Established.
        public static let completion = CommandCompletion.commandStatus

        /// The Options bit field (§7.8.67). Reserved bits 3–7 are kept as received.
        public struct Options: OptionSet, Hashable, Sendable {
            /// The 8 bits as on the wire.
            public let rawValue: UInt8
            /// Options from their bits.
            public init(rawValue: UInt8) { self.rawValue = rawValue }
            /// Bit 0: take the advertiser from the Periodic Advertiser List, not the fields below.
            public static let usePeriodicAdvertiserList = Options(rawValue: 1 << 0)
            /// Bit 1: start with reports disabled.
            public static let reportingInitiallyDisabled = Options(rawValue: 1 << 1)
            /// Bit 2: filter duplicate reports.
            public static let duplicateFilteringInitiallyEnabled = Options(rawValue: 1 << 2)
        }

        /// Options: where the advertiser comes from and how reports start.
        public var options: Options
        /// Advertising_SID: the advertiser's set (0x00–0x0F).
        public var advertisingSID: UInt8
        /// Advertiser_Address_Type: public (0x00) or random (0x01).
        public var advertiserAddressType: AddressType
        /// Advertiser_Address; decoding sets its kind from `advertiserAddressType`.
        public var advertiserAddress: BluetoothAddress
        /// Skip: how many periodic events the scanner may skip after a received one.
        public var skip: UInt16
        /// Sync_Timeout, in units of 10 ms (0x000A–0x4000): silence after which the sync is lost.
        public var syncTimeout: UInt16
        /// Sync_CTE_Type: which Constant Tone Extensions exclude a train (0 = none excluded).
        public var syncCTEType: UInt8

        /// The command with every parameter.
        public init(
            options: Options = [], advertisingSID: UInt8, advertiserAddressType: AddressType,
            advertiserAddress: BluetoothAddress, skip: UInt16 = 0, syncTimeout: UInt16, syncCTEType: UInt8 = 0
        ) {
            self.options = options
            self.advertisingSID = advertisingSID
            self.advertiserAddressType = advertiserAddressType
            self.advertiserAddress = advertiserAddress
            self.skip = skip
            self.syncTimeout = syncTimeout
            self.syncCTEType = syncCTEType
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            options = Options(rawValue: try reader.readUInt8("HCI.LEPeriodicAdvertisingCreateSync.options"))
            advertisingSID = try reader.readUInt8("HCI.LEPeriodicAdvertisingCreateSync.advertisingSID")
            (advertiserAddressType, advertiserAddress) = try reader.readPeerAddress(
                "HCI.LEPeriodicAdvertisingCreateSync.advertiserAddressType",
                "HCI.LEPeriodicAdvertisingCreateSync.advertiserAddress")
            skip = try reader.readUInt16("HCI.LEPeriodicAdvertisingCreateSync.skip")
            syncTimeout = try reader.readUInt16("HCI.LEPeriodicAdvertisingCreateSync.syncTimeout")
            syncCTEType = try reader.readUInt8("HCI.LEPeriodicAdvertisingCreateSync.syncCTEType")
        }

        public func encode(to writer: inout ByteWriter) {
            writer.write(options.rawValue)
            writer.write(advertisingSID)
            writer.write(advertiserAddressType.rawValue)
            advertiserAddress.encode(to: &writer)
            writer.write(skip)
            writer.write(syncTimeout)
            writer.write(syncCTEType)
        }
    }

    /// HCI_LE_Periodic_Advertising_Create_Sync_Cancel (Core 5.4, Vol 4, Part E, §7.8.68):
    /// stops a pending Create Sync; the controller then sends Sync Established with
    /// Operation Cancelled by Host (0x44).
    public struct LEPeriodicAdvertisingCreateSyncCancel: ParameterlessCommand {
        /// The command's opcode, ``HCI/Opcode/lePeriodicAdvertisingCreateSyncCancel``.
        public static let opcode = Opcode.lePeriodicAdvertisingCreateSyncCancel
        /// The command (it has no parameters).
        public init() {}
    }

    /// HCI_LE_Periodic_Advertising_Terminate_Sync (Core 5.4, Vol 4, Part E, §7.8.69): stops
    /// following a periodic train.
    public struct LEPeriodicAdvertisingTerminateSync: HCICommand {
        /// The command's opcode, ``HCI/Opcode/lePeriodicAdvertisingTerminateSync``.
        public static let opcode = Opcode.lePeriodicAdvertisingTerminateSync

        // Codec: generated from the stored properties below.
        /// Sync_Handle: the sync to stop (0x0000–0x0EFF).
        public var syncHandle: UInt16

        /// The command stopping sync `syncHandle`.
        public init(syncHandle: UInt16) { self.syncHandle = syncHandle }
    }
}
