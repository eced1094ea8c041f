extension HCI {
    /// HCI_LE_Set_Random_Address (Core 5.4, Vol 4, Part E, §7.8.4): the random address the
    /// controller uses for legacy advertising, scanning and initiating.
    public struct LESetRandomAddress: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leSetRandomAddress``.
        public static let opcode = Opcode.leSetRandomAddress

        /// The address; decoding gives it the random kind (only its value is on the wire).
        public var randomAddress: BluetoothAddress

        /// The command setting `randomAddress`.
        public init(randomAddress: BluetoothAddress) { self.randomAddress = randomAddress }

        public init(from reader: inout ByteReader) throws(WireError) {
            randomAddress = try BluetoothAddress(from: &reader, kind: .random, field: "HCI.LESetRandomAddress.randomAddress")
        }

        public func encode(to writer: inout ByteWriter) { randomAddress.encode(to: &writer) }
    }

    /// HCI_LE_Set_Advertising_Parameters (Core 5.4, Vol 4, Part E, §7.8.5): how legacy
    /// advertising runs: interval, PDU type, addresses, channels and filter.
    public struct LESetAdvertisingParameters: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leSetAdvertisingParameters``.
        public static let opcode = Opcode.leSetAdvertisingParameters

        /// Advertising_Type: the legacy PDU to send.
        public enum AdvertisingType: UInt8, Hashable, Sendable, CaseIterable {
            /// ADV_IND: connectable and scannable undirected.
            case connectableUndirected = 0x00
            /// ADV_DIRECT_IND, high duty cycle: connectable directed, at most 1.28 s.
            case connectableDirectedHighDutyCycle = 0x01
            /// ADV_SCAN_IND: scannable undirected.
            case scannableUndirected = 0x02
            /// ADV_NONCONN_IND: non-connectable, non-scannable (a beacon).
            case nonConnectableUndirected = 0x03
            /// ADV_DIRECT_IND, low duty cycle: connectable directed.
            case connectableDirectedLowDutyCycle = 0x04
        }

        // Codec: generated from the stored properties below.
        /// Advertising_Interval_Min, in units of 0.625 ms (0x0020 to 0x4000, i.e. 20 ms to
        /// 10.24 s).
        public var advertisingIntervalMin: UInt16
        /// Advertising_Interval_Max, in units of 0.625 ms.
        public var advertisingIntervalMax: UInt16
        /// The PDU type.
        public var advertisingType: AdvertisingType
        /// Which own address goes into the PDUs.
        public var ownAddressType: OwnAddressType
        /// Peer_Address_Type and Peer_Address: the target of directed advertising, or the
        /// identity whose IRK is used for a resolvable own address. Public or random only.
        public var peerAddress: BluetoothAddress
        /// Advertising_Channel_Map: the primary channels to use.
        public var advertisingChannelMap: AdvertisingChannelMap
        /// Advertising_Filter_Policy.
        public var advertisingFilterPolicy: AdvertisingFilterPolicy

        /// The command with every parameter.
        public init(
            advertisingIntervalMin: UInt16, advertisingIntervalMax: UInt16,
            advertisingType: AdvertisingType, ownAddressType: OwnAddressType,
            peerAddress: BluetoothAddress = BluetoothAddress(0),
            advertisingChannelMap: AdvertisingChannelMap = .all,
            advertisingFilterPolicy: AdvertisingFilterPolicy = .acceptAll
        ) {
            self.advertisingIntervalMin = advertisingIntervalMin
            self.advertisingIntervalMax = advertisingIntervalMax
            self.advertisingType = advertisingType
            self.ownAddressType = ownAddressType
            self.peerAddress = peerAddress
            self.advertisingChannelMap = advertisingChannelMap
            self.advertisingFilterPolicy = advertisingFilterPolicy
        }
    }

    /// HCI_LE_Read_Advertising_Physical_Channel_Tx_Power (Core 5.4, Vol 4, Part E, §7.8.6):
    /// the transmit power of legacy advertising, for the TX Power Level AD type.
    public struct LEReadAdvertisingPhysicalChannelTxPower: ParameterlessCommand {
        /// The command's opcode, ``HCI/Opcode/leReadAdvertisingPhysicalChannelTxPower``.
        public static let opcode = Opcode.leReadAdvertisingPhysicalChannelTxPower
        /// The command (it has no parameters).
        public init() {}

        /// The Command Complete return parameters.
        public struct ReturnParameters: WireCodable, Hashable {
            // Codec: generated from the stored properties below.
            /// Whether the command succeeded.
            public var status: StatusCode
            /// TX_Power_Level in dBm (-127 to +20).
            public var txPowerLevel: Int8

            /// Return parameters with every field.
            public init(status: StatusCode, txPowerLevel: Int8) {
                self.status = status
                self.txPowerLevel = txPowerLevel
            }
        }
    }

    /// HCI_LE_Set_Advertising_Enable (Core 5.4, Vol 4, Part E, §7.8.9): starts or stops
    /// legacy advertising.
    public struct LESetAdvertisingEnable: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leSetAdvertisingEnable``.
        public static let opcode = Opcode.leSetAdvertisingEnable

        // Codec: generated from the stored properties below.
        /// Advertising_Enable.
        public var advertisingEnable: Bool

        /// The command starting (`true`) or stopping advertising.
        public init(advertisingEnable: Bool) { self.advertisingEnable = advertisingEnable }
    }
}
