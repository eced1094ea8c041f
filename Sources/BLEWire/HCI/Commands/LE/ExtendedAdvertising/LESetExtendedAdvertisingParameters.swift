extension HCI {
    /// Advertising_Event_Properties of extended advertising (Core 5.4, Vol 4, Part E,
    /// §7.8.53): what kind of advertising a set does. Reserved bits are kept so the value
    /// round-trips.
    public struct AdvertisingEventProperties: OptionSet, Hashable, Sendable {
        /// The 16-bit field as on the wire.
        public var rawValue: UInt16
        /// Properties from their bits.
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// Bit 0: connectable.
        public static let connectable = AdvertisingEventProperties(rawValue: 1 << 0)
        /// Bit 1: scannable.
        public static let scannable = AdvertisingEventProperties(rawValue: 1 << 1)
        /// Bit 2: directed.
        public static let directed = AdvertisingEventProperties(rawValue: 1 << 2)
        /// Bit 3: high duty cycle directed connectable (legacy only).
        public static let highDutyCycleDirected = AdvertisingEventProperties(rawValue: 1 << 3)
        /// Bit 4: use legacy advertising PDUs.
        public static let legacy = AdvertisingEventProperties(rawValue: 1 << 4)
        /// Bit 5: omit the advertiser's address (anonymous advertising).
        public static let anonymous = AdvertisingEventProperties(rawValue: 1 << 5)
        /// Bit 6: include TxPower in the extended header.
        public static let includeTxPower = AdvertisingEventProperties(rawValue: 1 << 6)
    }

    /// HCI_LE_Set_Extended_Advertising_Parameters [v1] (Core 5.4, Vol 4, Part E, §7.8.53):
    /// creates or changes one advertising set.
    public struct LESetExtendedAdvertisingParameters: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leSetExtendedAdvertisingParameters``.
        public static let opcode = Opcode.leSetExtendedAdvertisingParameters

        /// Advertising_Handle: the set (0x00 to 0xEF).
        public var advertisingHandle: UInt8
        /// What kind of advertising the set does.
        public var advertisingEventProperties: AdvertisingEventProperties
        /// Primary_Advertising_Interval_Min, 24 bits, in units of 0.625 ms. Values above
        /// 0xFFFFFF do not fit the field; the encoder keeps the low 24 bits.
        public var primaryAdvertisingIntervalMin: UInt32
        /// Primary_Advertising_Interval_Max, 24 bits, in units of 0.625 ms.
        public var primaryAdvertisingIntervalMax: UInt32
        /// Primary_Advertising_Channel_Map.
        public var primaryAdvertisingChannelMap: AdvertisingChannelMap
        /// Which own address goes into the PDUs.
        public var ownAddressType: OwnAddressType
        /// Peer_Address_Type and Peer_Address (directed target or IRK lookup), public or random.
        public var peerAddress: BluetoothAddress
        /// Advertising_Filter_Policy.
        public var advertisingFilterPolicy: AdvertisingFilterPolicy
        /// Advertising_TX_Power, dBm (-127 to +20); 127 means no preference.
        public var advertisingTxPower: Int8
        /// Primary_Advertising_PHY: LE 1M or LE Coded.
        public var primaryAdvertisingPHY: PHY
        /// Secondary_Advertising_Max_Skip: advertising events the AUX_ADV_IND may skip.
        public var secondaryAdvertisingMaxSkip: UInt8
        /// Secondary_Advertising_PHY.
        public var secondaryAdvertisingPHY: PHY
        /// Advertising_SID (0x00 to 0x0F), identifying the set to scanners.
        public var advertisingSID: UInt8
        /// Scan_Request_Notification_Enable: report scan requests with an event.
        public var scanRequestNotificationEnable: Bool

        /// The command with every parameter.
        public init(
            advertisingHandle: UInt8, advertisingEventProperties: AdvertisingEventProperties,
            primaryAdvertisingIntervalMin: UInt32, primaryAdvertisingIntervalMax: UInt32,
            primaryAdvertisingChannelMap: AdvertisingChannelMap = .all, ownAddressType: OwnAddressType,
            peerAddress: BluetoothAddress = BluetoothAddress(0),
            advertisingFilterPolicy: AdvertisingFilterPolicy = .acceptAll, advertisingTxPower: Int8 = 127,
            primaryAdvertisingPHY: PHY = .le1M, secondaryAdvertisingMaxSkip: UInt8 = 0,
            secondaryAdvertisingPHY: PHY = .le1M, advertisingSID: UInt8 = 0,
            scanRequestNotificationEnable: Bool = false
        ) {
            self.advertisingHandle = advertisingHandle
            self.advertisingEventProperties = advertisingEventProperties
            self.primaryAdvertisingIntervalMin = primaryAdvertisingIntervalMin
            self.primaryAdvertisingIntervalMax = primaryAdvertisingIntervalMax
            self.primaryAdvertisingChannelMap = primaryAdvertisingChannelMap
            self.ownAddressType = ownAddressType
            self.peerAddress = peerAddress
            self.advertisingFilterPolicy = advertisingFilterPolicy
            self.advertisingTxPower = advertisingTxPower
            self.primaryAdvertisingPHY = primaryAdvertisingPHY
            self.secondaryAdvertisingMaxSkip = secondaryAdvertisingMaxSkip
            self.secondaryAdvertisingPHY = secondaryAdvertisingPHY
            self.advertisingSID = advertisingSID
            self.scanRequestNotificationEnable = scanRequestNotificationEnable
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            let type = "HCI.LESetExtendedAdvertisingParameters"
            advertisingHandle = try reader.readUInt8(type + ".advertisingHandle")
            advertisingEventProperties = AdvertisingEventProperties(
                rawValue: try reader.readUInt16(type + ".advertisingEventProperties"))
            primaryAdvertisingIntervalMin = try reader.readUInt24(type + ".primaryAdvertisingIntervalMin")
            primaryAdvertisingIntervalMax = try reader.readUInt24(type + ".primaryAdvertisingIntervalMax")
            primaryAdvertisingChannelMap = AdvertisingChannelMap(
                rawValue: try reader.readUInt8(type + ".primaryAdvertisingChannelMap"))
            ownAddressType = try reader.readEnumeration(OwnAddressType.self, type + ".ownAddressType")
            peerAddress = try reader.readTypedAddress(type + ".peerAddressType", type + ".peerAddress")
            advertisingFilterPolicy = try reader.readEnumeration(
                AdvertisingFilterPolicy.self, type + ".advertisingFilterPolicy")
            advertisingTxPower = try reader.readInt8(type + ".advertisingTxPower")
            primaryAdvertisingPHY = try reader.readEnumeration(PHY.self, type + ".primaryAdvertisingPHY")
            secondaryAdvertisingMaxSkip = try reader.readUInt8(type + ".secondaryAdvertisingMaxSkip")
            secondaryAdvertisingPHY = try reader.readEnumeration(PHY.self, type + ".secondaryAdvertisingPHY")
            advertisingSID = try reader.readUInt8(type + ".advertisingSID")
            scanRequestNotificationEnable = try reader.readFlag(type + ".scanRequestNotificationEnable")
        }

        public func encode(to writer: inout ByteWriter) {
            writer.write(advertisingHandle)
            writer.write(advertisingEventProperties.rawValue)
            writer.writeUInt24(primaryAdvertisingIntervalMin)
            writer.writeUInt24(primaryAdvertisingIntervalMax)
            writer.write(primaryAdvertisingChannelMap.rawValue)
            writer.write(ownAddressType.rawValue)
            writer.writeTypedAddress(peerAddress)
            writer.write(advertisingFilterPolicy.rawValue)
            writer.write(advertisingTxPower)
            writer.write(primaryAdvertisingPHY.rawValue)
            writer.write(secondaryAdvertisingMaxSkip)
            writer.write(secondaryAdvertisingPHY.rawValue)
            writer.write(advertisingSID)
            writer.writeFlag(scanRequestNotificationEnable)
        }

        /// The Command Complete return parameters.
        public struct ReturnParameters: WireCodable, Hashable {
            // Codec: generated from the stored properties below.
            /// Whether the command succeeded.
            public var status: StatusCode
            /// Selected_TX_Power: the power the controller will use, dBm.
            public var selectedTxPower: Int8

            /// Return parameters with every field.
            public init(status: StatusCode, selectedTxPower: Int8) {
                self.status = status
                self.selectedTxPower = selectedTxPower
            }
        }
    }

    /// HCI_LE_Set_Advertising_Set_Random_Address (Core 5.4, Vol 4, Part E, §7.8.52): the
    /// random address of one advertising set.
    public struct LESetAdvertisingSetRandomAddress: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leSetAdvertisingSetRandomAddress``.
        public static let opcode = Opcode.leSetAdvertisingSetRandomAddress

        /// Advertising_Handle: the set.
        public var advertisingHandle: UInt8
        /// The address; decoding gives it the random kind.
        public var randomAddress: BluetoothAddress

        /// The command giving set `advertisingHandle` the address `randomAddress`.
        public init(advertisingHandle: UInt8, randomAddress: BluetoothAddress) {
            self.advertisingHandle = advertisingHandle
            self.randomAddress = randomAddress
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            advertisingHandle = try reader.readUInt8("HCI.LESetAdvertisingSetRandomAddress.advertisingHandle")
            randomAddress = try BluetoothAddress(
                from: &reader, kind: .random, field: "HCI.LESetAdvertisingSetRandomAddress.randomAddress")
        }

        public func encode(to writer: inout ByteWriter) {
            writer.write(advertisingHandle)
            randomAddress.encode(to: &writer)
        }
    }
}
