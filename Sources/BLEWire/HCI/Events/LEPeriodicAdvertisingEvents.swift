extension HCI {
    /// LE Periodic Advertising Sync Established [v1] event (Core 5.4, Vol 4, Part E,
    /// §7.7.65.14): the scanner heard the first AUX_SYNC_IND of the train it was asked to
    /// follow, or Create Sync ended without it (e.g. Operation Cancelled by Host, 0x44).
    public struct LEPeriodicAdvertisingSyncEstablished: HCILEMetaEvent {
        /// Subevent code 0x0E.
        public static let subeventCode = LESubeventCode.periodicAdvertisingSyncEstablished

        /// Success, or why no sync was made.
        public var status: StatusCode
        /// Sync_Handle: names the sync in reports, Sync Lost and Terminate Sync (kept as
        /// received, since the specification leaves it undefined on failure).
        public var syncHandle: UInt16
        /// Advertising_SID: the advertiser's set.
        public var advertisingSID: UInt8
        /// Advertiser_Address_Type; ``advertiserAddress``'s kind follows it.
        public var advertiserAddressType: AddressType
        /// Advertiser_Address.
        public var advertiserAddress: BluetoothAddress
        /// Advertiser_PHY: the PHY the train is sent on.
        public var advertiserPHY: PHY
        /// Periodic_Advertising_Interval, in units of 1.25 ms.
        public var periodicAdvertisingInterval: UInt16
        /// Advertiser_Clock_Accuracy: the advertiser's sleep clock accuracy from SyncInfo.
        public var advertiserClockAccuracy: ClockAccuracy

        /// An event with every field given.
        public init(
            status: StatusCode, syncHandle: UInt16, advertisingSID: UInt8, advertiserAddressType: AddressType,
            advertiserAddress: BluetoothAddress, advertiserPHY: PHY, periodicAdvertisingInterval: UInt16,
            advertiserClockAccuracy: ClockAccuracy
        ) {
            self.status = status
            self.syncHandle = syncHandle
            self.advertisingSID = advertisingSID
            self.advertiserAddressType = advertiserAddressType
            self.advertiserAddress = advertiserAddress
            self.advertiserPHY = advertiserPHY
            self.periodicAdvertisingInterval = periodicAdvertisingInterval
            self.advertiserClockAccuracy = advertiserClockAccuracy
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            status = try StatusCode(from: &reader, field: "HCI.LEPeriodicAdvertisingSyncEstablished.status")
            syncHandle = try reader.readUInt16("HCI.LEPeriodicAdvertisingSyncEstablished.syncHandle")
            advertisingSID = try reader.readUInt8("HCI.LEPeriodicAdvertisingSyncEstablished.advertisingSID")
            advertiserAddressType = try AddressType(
                from: &reader, field: "HCI.LEPeriodicAdvertisingSyncEstablished.advertiserAddressType")
            advertiserAddress = try reader.readEventAddress(
                type: advertiserAddressType, "HCI.LEPeriodicAdvertisingSyncEstablished.advertiserAddress")
            advertiserPHY = try reader.readEventEnumeration(PHY.self, "HCI.LEPeriodicAdvertisingSyncEstablished.advertiserPHY")
            periodicAdvertisingInterval = try reader.readUInt16(
                "HCI.LEPeriodicAdvertisingSyncEstablished.periodicAdvertisingInterval")
            advertiserClockAccuracy = try reader.readEventEnumeration(
                ClockAccuracy.self, "HCI.LEPeriodicAdvertisingSyncEstablished.advertiserClockAccuracy")
        }

        public func encode(to writer: inout ByteWriter) {
            status.encode(to: &writer)
            writer.write(syncHandle)
            writer.write(advertisingSID)
            writer.write(advertiserAddressType.rawValue)
            advertiserAddress.encode(to: &writer)
            writer.write(advertiserPHY.rawValue)
            writer.write(periodicAdvertisingInterval)
            writer.write(advertiserClockAccuracy.rawValue)
        }
    }

    /// LE Periodic Advertising Report [v1] event (Core 5.4, Vol 4, Part E, §7.7.65.15): data
    /// from one AUX_SYNC_IND and its AUX_CHAIN_INDs; long data comes in several reports,
    /// each marked by ``dataStatus``.
    public struct LEPeriodicAdvertisingReport: HCILEMetaEvent {
        /// Subevent code 0x0F.
        public static let subeventCode = LESubeventCode.periodicAdvertisingReport
        /// The most data one report carries (Data_Length 0–247).
        public static let maximumDataLength = 247

        /// Data_Status: whether more reports with the rest follow.
        public typealias DataStatus = LEExtendedAdvertisingReport.EventType.DataStatus

        /// Sync_Handle: the sync this report belongs to.
        public var syncHandle: UInt16
        /// TX_Power in dBm; 127 means not available.
        public var txPower: Int8
        /// RSSI in dBm; 127 means not available.
        public var rssi: Int8
        /// CTE_Type: 0xFF when the PDU had no Constant Tone Extension.
        public var cteType: UInt8
        /// Data_Status: complete, more to come, or truncated.
        public var dataStatus: DataStatus
        /// Data: at most 247 octets (the encoder sends the first 247 of a longer one).
        public var data: ArraySlice<UInt8>

        /// An event with every field given.
        public init(
            syncHandle: UInt16, txPower: Int8 = 127, rssi: Int8, cteType: UInt8 = 0xFF,
            dataStatus: DataStatus, data: ArraySlice<UInt8>
        ) {
            self.syncHandle = syncHandle
            self.txPower = txPower
            self.rssi = rssi
            self.cteType = cteType
            self.dataStatus = dataStatus
            self.data = data
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            syncHandle = try reader.readUInt16("HCI.LEPeriodicAdvertisingReport.syncHandle")
            txPower = try reader.readInt8("HCI.LEPeriodicAdvertisingReport.txPower")
            rssi = try reader.readInt8("HCI.LEPeriodicAdvertisingReport.rssi")
            cteType = try reader.readUInt8("HCI.LEPeriodicAdvertisingReport.cteType")
            let status = try reader.readUInt8("HCI.LEPeriodicAdvertisingReport.dataStatus")
            guard let dataStatus = DataStatus(rawValue: UInt16(status)) else {
                throw WireError(field: "HCI.LEPeriodicAdvertisingReport.dataStatus", reason: .invalidValue(UInt64(status)))
            }
            self.dataStatus = dataStatus
            let length = Int(try reader.readUInt8("HCI.LEPeriodicAdvertisingReport.dataLength"))
            guard length <= Self.maximumDataLength else {
                throw WireError(field: "HCI.LEPeriodicAdvertisingReport.dataLength", reason: .invalidValue(UInt64(length)))
            }
            data = try reader.readBytes(length, "HCI.LEPeriodicAdvertisingReport.data")
        }

        public func encode(to writer: inout ByteWriter) {
            let sent = data.prefix(Self.maximumDataLength)
            writer.write(syncHandle)
            writer.write(UInt8(bitPattern: txPower))
            writer.write(UInt8(bitPattern: rssi))
            writer.write(cteType)
            writer.write(UInt8(dataStatus.rawValue))
            writer.write(UInt8(sent.count))
            writer.write(contentsOf: sent)
        }
    }

    /// LE Periodic Advertising Sync Lost event (Core 5.4, Vol 4, Part E, §7.7.65.16): no
    /// AUX_SYNC_IND of the train was received for Sync_Timeout, so the sync ended.
    public struct LEPeriodicAdvertisingSyncLost: HCILEMetaEvent {
        /// Subevent code 0x10.
        public static let subeventCode = LESubeventCode.periodicAdvertisingSyncLost

        /// Sync_Handle: the sync that ended.
        public var syncHandle: UInt16

        /// An event for sync `syncHandle`.
        public init(syncHandle: UInt16) { self.syncHandle = syncHandle }

        public init(from reader: inout ByteReader) throws(WireError) {
            syncHandle = try reader.readUInt16("HCI.LEPeriodicAdvertisingSyncLost.syncHandle")
        }

        public func encode(to writer: inout ByteWriter) { writer.write(syncHandle) }
    }
}
