extension LL {
    /// The LLData of a CONNECT_IND PDU (Core 5.4, Vol 6, Part B, §2.3.3.1): everything both
    /// ends need to follow the new connection's events. 22 octets on the wire.
    public struct ConnectionRequestData: WireCodable, Hashable {
        /// The connection's access address.
        public var accessAddress: UInt32
        /// Initial value of the CRC (24 bits).
        public var crcInit: UInt32
        /// transmitWindowSize in 1.25 ms units (1 to min(8, interval − 1)).
        public var windowSize: UInt8
        /// transmitWindowOffset in 1.25 ms units (0 to interval).
        public var windowOffset: UInt16
        /// connInterval in 1.25 ms units (6 to 3200).
        public var interval: UInt16
        /// connPeripheralLatency: connection events the peripheral may skip.
        public var latency: UInt16
        /// connSupervisionTimeout in 10 ms units (10 to 3200).
        public var timeout: UInt16
        /// The 37-bit map of used data channels, bit n for channel n.
        public var channelMap: UInt64
        /// hopIncrement of channel selection algorithm #1 (5 to 16), 5 bits.
        public var hopIncrement: UInt8
        /// The central's sleep clock accuracy code (0 to 7), 3 bits.
        public var sleepClockAccuracy: UInt8

        /// LLData with every field.
        public init(
            accessAddress: UInt32, crcInit: UInt32, windowSize: UInt8, windowOffset: UInt16,
            interval: UInt16, latency: UInt16, timeout: UInt16, channelMap: UInt64,
            hopIncrement: UInt8, sleepClockAccuracy: UInt8
        ) {
            self.accessAddress = accessAddress
            self.crcInit = crcInit & 0xFF_FFFF
            self.windowSize = windowSize
            self.windowOffset = windowOffset
            self.interval = interval
            self.latency = latency
            self.timeout = timeout
            self.channelMap = channelMap & 0x1F_FFFF_FFFF
            self.hopIncrement = hopIncrement & 0x1F
            self.sleepClockAccuracy = sleepClockAccuracy & 0x07
        }

        /// Octets on the wire.
        public static let size = 22

        public init(from reader: inout ByteReader) throws(WireError) {
            accessAddress = try reader.readUInt32("LL.ConnectionRequestData.accessAddress")
            crcInit = try reader.readUInt24("LL.ConnectionRequestData.crcInit")
            windowSize = try reader.readUInt8("LL.ConnectionRequestData.windowSize")
            windowOffset = try reader.readUInt16("LL.ConnectionRequestData.windowOffset")
            interval = try reader.readUInt16("LL.ConnectionRequestData.interval")
            latency = try reader.readUInt16("LL.ConnectionRequestData.latency")
            timeout = try reader.readUInt16("LL.ConnectionRequestData.timeout")
            channelMap = try reader.readLittleEndian(octets: 5, "LL.ConnectionRequestData.channelMap")
            let hopAndClock = try reader.readUInt8("LL.ConnectionRequestData.hopIncrement")
            hopIncrement = hopAndClock & 0x1F
            sleepClockAccuracy = hopAndClock >> 5
        }

        public func encode(to writer: inout ByteWriter) {
            writer.write(accessAddress)
            writer.writeUInt24(crcInit)
            writer.write(windowSize)
            writer.write(windowOffset)
            writer.write(interval)
            writer.write(latency)
            writer.write(timeout)
            writer.writeLittleEndian(channelMap, octets: 5)
            writer.write(hopIncrement & 0x1F | sleepClockAccuracy << 5)
        }
    }
}
