extension HCI {
    /// The most data one LE Set Periodic Advertising Data command carries (Core 5.4, Vol 4,
    /// Part E, §7.8.62); longer periodic data is sent in fragments.
    public static let maximumPeriodicAdvertisingDataFragmentLength = 252

    /// HCI_LE_Set_Periodic_Advertising_Parameters [v1] (Core 5.4, Vol 4, Part E, §7.8.61):
    /// the interval of the periodic train an extended advertising set sends beside its
    /// extended advertising.
    public struct LESetPeriodicAdvertisingParameters: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leSetPeriodicAdvertisingParameters``.
        public static let opcode = Opcode.leSetPeriodicAdvertisingParameters

        // Codec: generated from the stored properties below.
        /// Advertising_Handle: the set.
        public var advertisingHandle: UInt8
        /// Periodic_Advertising_Interval_Min, in units of 1.25 ms (0x0006 and up).
        public var periodicAdvertisingIntervalMin: UInt16
        /// Periodic_Advertising_Interval_Max, in units of 1.25 ms (0x0006 and up).
        public var periodicAdvertisingIntervalMax: UInt16
        /// Periodic_Advertising_Properties: bit 6 asks for the TX power in the PDUs; the
        /// other bits are reserved and kept as received.
        public var periodicAdvertisingProperties: UInt16

        /// The command with every parameter.
        public init(
            advertisingHandle: UInt8, periodicAdvertisingIntervalMin: UInt16,
            periodicAdvertisingIntervalMax: UInt16, periodicAdvertisingProperties: UInt16 = 0
        ) {
            self.advertisingHandle = advertisingHandle
            self.periodicAdvertisingIntervalMin = periodicAdvertisingIntervalMin
            self.periodicAdvertisingIntervalMax = periodicAdvertisingIntervalMax
            self.periodicAdvertisingProperties = periodicAdvertisingProperties
        }
    }

    /// HCI_LE_Set_Periodic_Advertising_Data (Core 5.4, Vol 4, Part E, §7.8.62): one fragment
    /// of the data a set's periodic train carries (up to 1,650 octets in all).
    public struct LESetPeriodicAdvertisingData: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leSetPeriodicAdvertisingData``.
        public static let opcode = Opcode.leSetPeriodicAdvertisingData

        /// Advertising_Handle: the set.
        public var advertisingHandle: UInt8
        /// Which fragment this is; ``AdvertisingDataOperation/unchangedData`` only refreshes
        /// the ADI.
        public var operation: AdvertisingDataOperation
        /// The fragment, at most 252 octets (the encoder sends the first 252 of a longer one).
        public var advertisingData: ArraySlice<UInt8>

        /// The command carrying one fragment.
        public init(advertisingHandle: UInt8, operation: AdvertisingDataOperation = .complete, advertisingData: ArraySlice<UInt8>) {
            self.advertisingHandle = advertisingHandle
            self.operation = operation
            self.advertisingData = advertisingData
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            advertisingHandle = try reader.readUInt8("HCI.LESetPeriodicAdvertisingData.advertisingHandle")
            operation = try reader.readEnumeration(AdvertisingDataOperation.self, "HCI.LESetPeriodicAdvertisingData.operation")
            let length = Int(try reader.readUInt8("HCI.LESetPeriodicAdvertisingData.dataLength"))
            guard length <= HCI.maximumPeriodicAdvertisingDataFragmentLength else {
                throw WireError(field: "HCI.LESetPeriodicAdvertisingData.dataLength", reason: .invalidValue(UInt64(length)))
            }
            advertisingData = try reader.readBytes(length, "HCI.LESetPeriodicAdvertisingData.data")
        }

        public func encode(to writer: inout ByteWriter) {
            let sent = advertisingData.prefix(HCI.maximumPeriodicAdvertisingDataFragmentLength)
            writer.write(advertisingHandle)
            writer.write(operation.rawValue)
            writer.write(UInt8(sent.count))
            writer.write(contentsOf: sent)
        }
    }

    /// HCI_LE_Set_Periodic_Advertising_Enable (Core 5.4, Vol 4, Part E, §7.8.63): starts or
    /// stops a set's periodic train (it goes on the air once the set's extended advertising
    /// is enabled too).
    public struct LESetPeriodicAdvertisingEnable: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leSetPeriodicAdvertisingEnable``.
        public static let opcode = Opcode.leSetPeriodicAdvertisingEnable

        /// Enable bit 0: start (`true`) or stop the train.
        public var enable: Bool
        /// Enable bit 1: put the ADI field in AUX_SYNC_IND PDUs.
        public var includeADI: Bool
        /// Advertising_Handle: the set.
        public var advertisingHandle: UInt8

        /// The command starting or stopping set `advertisingHandle`'s train.
        public init(enable: Bool, includeADI: Bool = false, advertisingHandle: UInt8) {
            self.enable = enable
            self.includeADI = includeADI
            self.advertisingHandle = advertisingHandle
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            let raw = try reader.readUInt8("HCI.LESetPeriodicAdvertisingEnable.enable")
            guard raw & ~0x03 == 0 else {
                throw WireError(field: "HCI.LESetPeriodicAdvertisingEnable.enable", reason: .invalidValue(UInt64(raw)))
            }
            enable = raw & 0x01 != 0
            includeADI = raw & 0x02 != 0
            advertisingHandle = try reader.readUInt8("HCI.LESetPeriodicAdvertisingEnable.advertisingHandle")
        }

        public func encode(to writer: inout ByteWriter) {
            writer.write(UInt8(enable ? 0x01 : 0) | UInt8(includeADI ? 0x02 : 0))
            writer.write(advertisingHandle)
        }
    }
}
