extension LL {
    /// SyncInfo (Core 5.4, Vol 6, Part B, §2.3.4.6): the 18 octets an AUX_ADV_IND carries
    /// in its extended header so that a scanner can find the set's periodic train — when
    /// the next AUX_SYNC_IND starts, the train's interval, channel map, access address,
    /// CRC initial value and event counter.
    public struct SyncInfo: WireCodable, Hashable {
        /// The encoded size.
        public static let length = 18
        /// What Offset Adjust adds to the offset: 2.4576 s.
        public static let offsetAdjustMicroseconds: Int64 = 2_457_600

        /// Sync Packet Offset, 13 bits, in ``offsetUnit``s from the start of the AUX_ADV_IND.
        public var syncPacketOffset: UInt16
        /// Offset Units: 30 µs, or 300 µs for offsets of 245,700 µs and more.
        public var offsetUnit: ExtendedAdvertisingPayload.AuxiliaryPointer.OffsetUnit
        /// Offset Adjust: 2.4576 s is added to the offset.
        public var offsetAdjust: Bool
        /// Interval of the train, in units of 1.25 ms.
        public var interval: UInt16
        /// ChM: the secondary channels the train uses, bit n for channel n (37 bits).
        public var channelMap: UInt64
        /// SCA: the advertiser's sleep clock accuracy, 3 bits (the HCI Clock_Accuracy coding).
        public var sleepClockAccuracy: UInt8
        /// AA: the train's access address.
        public var accessAddress: UInt32
        /// CRCInit, 24 bits.
        public var crcInit: UInt32
        /// Event Counter: the paEventCounter of the AUX_SYNC_IND the offset points to.
        public var eventCounter: UInt16

        /// A SyncInfo with every field; values are cut to their widths.
        public init(
            syncPacketOffset: UInt16, offsetUnit: ExtendedAdvertisingPayload.AuxiliaryPointer.OffsetUnit, offsetAdjust: Bool = false,
            interval: UInt16, channelMap: UInt64, sleepClockAccuracy: UInt8, accessAddress: UInt32, crcInit: UInt32, eventCounter: UInt16
        ) {
            self.syncPacketOffset = syncPacketOffset & 0x1FFF
            self.offsetUnit = offsetUnit
            self.offsetAdjust = offsetAdjust
            self.interval = interval
            self.channelMap = channelMap & 0x1F_FFFF_FFFF
            self.sleepClockAccuracy = sleepClockAccuracy & 0x07
            self.accessAddress = accessAddress
            self.crcInit = crcInit & 0xFF_FFFF
            self.eventCounter = eventCounter
        }

        /// The offset in microseconds, Offset Adjust included.
        public var offsetMicroseconds: Int64 {
            Int64(syncPacketOffset) * offsetUnit.microseconds + (offsetAdjust ? Self.offsetAdjustMicroseconds : 0)
        }

        /// The SyncInfo whose offset is `microseconds` rounded down to its unit, or `nil` when
        /// even the 300 µs unit with Offset Adjust cannot reach it (4.9 s and more).
        public static func offset(
            _ microseconds: Int64
        ) -> (offset: UInt16, unit: ExtendedAdvertisingPayload.AuxiliaryPointer.OffsetUnit, adjust: Bool)? {
            guard microseconds >= 0 else { return nil }
            if microseconds < 245_700 { return (UInt16(microseconds / 30), .thirty, false) }
            let adjust = microseconds >= offsetAdjustMicroseconds
            let units = (microseconds - (adjust ? offsetAdjustMicroseconds : 0)) / 300
            guard units <= 0x1FFF else { return nil }
            return (UInt16(units), .threeHundred, adjust)
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            let first = try reader.readUInt16("LL.SyncInfo.syncPacketOffset")
            syncPacketOffset = first & 0x1FFF
            offsetUnit = first & 0x2000 != 0 ? .threeHundred : .thirty
            offsetAdjust = first & 0x4000 != 0
            interval = try reader.readUInt16("LL.SyncInfo.interval")
            let mapAndAccuracy = try reader.readLittleEndian(octets: 5, "LL.SyncInfo.channelMap")
            channelMap = mapAndAccuracy & 0x1F_FFFF_FFFF
            sleepClockAccuracy = UInt8(mapAndAccuracy >> 37)
            accessAddress = try reader.readUInt32("LL.SyncInfo.accessAddress")
            crcInit = try reader.readUInt24("LL.SyncInfo.crcInit")
            eventCounter = try reader.readUInt16("LL.SyncInfo.eventCounter")
        }

        public func encode(to writer: inout ByteWriter) {
            writer.write(syncPacketOffset | (offsetUnit == .threeHundred ? 0x2000 : 0) | (offsetAdjust ? 0x4000 : 0))
            writer.write(interval)
            writer.writeLittleEndian(channelMap | UInt64(sleepClockAccuracy) << 37, octets: 5)
            writer.write(accessAddress)
            writer.writeUInt24(crcInit)
            writer.write(eventCounter)
        }
    }
}
