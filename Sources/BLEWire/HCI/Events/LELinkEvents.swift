extension HCI {
    /// LE Connection Update Complete event (Core 5.4, Vol 4, Part E, §7.7.65.3): the
    /// connection parameters changed (or the update failed).
    public struct LEConnectionUpdateComplete: HCILEMetaEvent {
        /// Subevent code 0x03.
        public static let subeventCode = LESubeventCode.connectionUpdateComplete

        /// Whether the update succeeded.
        public var status: StatusCode
        /// The connection (0x0000–0x0EFF).
        public var connectionHandle: UInt16
        /// Connection interval in units of 1.25 ms.
        public var connectionInterval: UInt16
        /// Peripheral latency in connection events.
        public var peripheralLatency: UInt16
        /// Supervision timeout in units of 10 ms.
        public var supervisionTimeout: UInt16

        /// An event with every field given.
        public init(status: StatusCode, connectionHandle: UInt16, connectionInterval: UInt16, peripheralLatency: UInt16, supervisionTimeout: UInt16) {
            self.status = status
            self.connectionHandle = connectionHandle
            self.connectionInterval = connectionInterval
            self.peripheralLatency = peripheralLatency
            self.supervisionTimeout = supervisionTimeout
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            status = try StatusCode(from: &reader, field: "HCI.LEConnectionUpdateComplete.status")
            connectionHandle = try reader.readEventConnectionHandle("HCI.LEConnectionUpdateComplete.connectionHandle")
            connectionInterval = try reader.readUInt16("HCI.LEConnectionUpdateComplete.connectionInterval")
            peripheralLatency = try reader.readUInt16("HCI.LEConnectionUpdateComplete.peripheralLatency")
            supervisionTimeout = try reader.readUInt16("HCI.LEConnectionUpdateComplete.supervisionTimeout")
        }

        public func encode(to writer: inout ByteWriter) {
            status.encode(to: &writer)
            writer.write(connectionHandle)
            writer.write(connectionInterval)
            writer.write(peripheralLatency)
            writer.write(supervisionTimeout)
        }
    }

    /// LE Read Remote Features Complete event (Core 5.4, Vol 4, Part E, §7.7.65.4): the
    /// peer's LE features, after LE Read Remote Features or the automatic exchange.
    public struct LEReadRemoteFeaturesComplete: HCILEMetaEvent {
        /// Subevent code 0x04.
        public static let subeventCode = LESubeventCode.readRemoteFeaturesComplete

        /// Whether the features were read.
        public var status: StatusCode
        /// The connection (0x0000–0x0EFF).
        public var connectionHandle: UInt16
        /// The peer's LE feature bits (Vol 6, Part B, §4.6), bit 0 = LE Encryption; kept
        /// raw here, the commands layer names the bits.
        public var leFeatures: UInt64

        /// An event with every field given.
        public init(status: StatusCode, connectionHandle: UInt16, leFeatures: UInt64) {
            self.status = status
            self.connectionHandle = connectionHandle
            self.leFeatures = leFeatures
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            status = try StatusCode(from: &reader, field: "HCI.LEReadRemoteFeaturesComplete.status")
            connectionHandle = try reader.readEventConnectionHandle("HCI.LEReadRemoteFeaturesComplete.connectionHandle")
            leFeatures = try reader.readUInt64("HCI.LEReadRemoteFeaturesComplete.leFeatures")
        }

        public func encode(to writer: inout ByteWriter) {
            status.encode(to: &writer)
            writer.write(connectionHandle)
            writer.write(leFeatures)
        }
    }

    /// LE Remote Connection Parameter Request event (Core 5.4, Vol 4, Part E, §7.7.65.6):
    /// the peer asks for new connection parameters; the host answers with the Remote
    /// Connection Parameter Request Reply or Negative Reply command.
    public struct LERemoteConnectionParameterRequest: HCILEMetaEvent {
        /// Subevent code 0x06.
        public static let subeventCode = LESubeventCode.remoteConnectionParameterRequest

        /// The connection (0x0000–0x0EFF).
        public var connectionHandle: UInt16
        /// Smallest acceptable connection interval, units of 1.25 ms.
        public var intervalMin: UInt16
        /// Largest acceptable connection interval, units of 1.25 ms.
        public var intervalMax: UInt16
        /// Largest peripheral latency, in connection events.
        public var maxLatency: UInt16
        /// Supervision timeout in units of 10 ms.
        public var timeout: UInt16

        /// An event with every field given.
        public init(connectionHandle: UInt16, intervalMin: UInt16, intervalMax: UInt16, maxLatency: UInt16, timeout: UInt16) {
            self.connectionHandle = connectionHandle
            self.intervalMin = intervalMin
            self.intervalMax = intervalMax
            self.maxLatency = maxLatency
            self.timeout = timeout
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            connectionHandle = try reader.readEventConnectionHandle("HCI.LERemoteConnectionParameterRequest.connectionHandle")
            intervalMin = try reader.readUInt16("HCI.LERemoteConnectionParameterRequest.intervalMin")
            intervalMax = try reader.readUInt16("HCI.LERemoteConnectionParameterRequest.intervalMax")
            maxLatency = try reader.readUInt16("HCI.LERemoteConnectionParameterRequest.maxLatency")
            timeout = try reader.readUInt16("HCI.LERemoteConnectionParameterRequest.timeout")
        }

        public func encode(to writer: inout ByteWriter) {
            writer.write(connectionHandle)
            writer.write(intervalMin)
            writer.write(intervalMax)
            writer.write(maxLatency)
            writer.write(timeout)
        }
    }

    /// LE Data Length Change event (Core 5.4, Vol 4, Part E, §7.7.65.7): the largest link
    /// layer payloads and their air times changed in either direction.
    public struct LEDataLengthChange: HCILEMetaEvent {
        /// Subevent code 0x07.
        public static let subeventCode = LESubeventCode.dataLengthChange

        /// The connection (0x0000–0x0EFF).
        public var connectionHandle: UInt16
        /// Largest payload the local device will send, in octets (27–251).
        public var maxTxOctets: UInt16
        /// Longest time to send one packet, in µs (328–17040).
        public var maxTxTime: UInt16
        /// Largest payload the local device expects to receive, in octets (27–251).
        public var maxRxOctets: UInt16
        /// Longest time to receive one packet, in µs (328–17040).
        public var maxRxTime: UInt16

        /// An event with every field given.
        public init(connectionHandle: UInt16, maxTxOctets: UInt16, maxTxTime: UInt16, maxRxOctets: UInt16, maxRxTime: UInt16) {
            self.connectionHandle = connectionHandle
            self.maxTxOctets = maxTxOctets
            self.maxTxTime = maxTxTime
            self.maxRxOctets = maxRxOctets
            self.maxRxTime = maxRxTime
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            connectionHandle = try reader.readEventConnectionHandle("HCI.LEDataLengthChange.connectionHandle")
            maxTxOctets = try reader.readUInt16("HCI.LEDataLengthChange.maxTxOctets")
            maxTxTime = try reader.readUInt16("HCI.LEDataLengthChange.maxTxTime")
            maxRxOctets = try reader.readUInt16("HCI.LEDataLengthChange.maxRxOctets")
            maxRxTime = try reader.readUInt16("HCI.LEDataLengthChange.maxRxTime")
        }

        public func encode(to writer: inout ByteWriter) {
            writer.write(connectionHandle)
            writer.write(maxTxOctets)
            writer.write(maxTxTime)
            writer.write(maxRxOctets)
            writer.write(maxRxTime)
        }
    }

    /// LE PHY Update Complete event (Core 5.4, Vol 4, Part E, §7.7.65.12): the PHYs in use
    /// on a connection changed, or the LE Set PHY procedure finished.
    public struct LEPHYUpdateComplete: HCILEMetaEvent {
        /// Subevent code 0x0C.
        public static let subeventCode = LESubeventCode.phyUpdateComplete

        /// Whether the procedure succeeded.
        public var status: StatusCode
        /// The connection (0x0000–0x0EFF).
        public var connectionHandle: UInt16
        /// The transmitter PHY now in use.
        public var txPHY: PHY
        /// The receiver PHY now in use.
        public var rxPHY: PHY

        /// An event with every field given.
        public init(status: StatusCode, connectionHandle: UInt16, txPHY: PHY, rxPHY: PHY) {
            self.status = status
            self.connectionHandle = connectionHandle
            self.txPHY = txPHY
            self.rxPHY = rxPHY
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            status = try StatusCode(from: &reader, field: "HCI.LEPHYUpdateComplete.status")
            connectionHandle = try reader.readEventConnectionHandle("HCI.LEPHYUpdateComplete.connectionHandle")
            txPHY = try reader.readEventEnumeration(PHY.self, "HCI.LEPHYUpdateComplete.txPHY")
            rxPHY = try reader.readEventEnumeration(PHY.self, "HCI.LEPHYUpdateComplete.rxPHY")
        }

        public func encode(to writer: inout ByteWriter) {
            status.encode(to: &writer)
            writer.write(connectionHandle)
            writer.write(txPHY.rawValue)
            writer.write(rxPHY.rawValue)
        }
    }

    /// LE Channel Selection Algorithm event (Core 5.4, Vol 4, Part E, §7.7.65.20): which
    /// channel selection algorithm a new connection uses.
    public struct LEChannelSelectionAlgorithm: HCILEMetaEvent {
        /// Subevent code 0x14.
        public static let subeventCode = LESubeventCode.channelSelectionAlgorithm

        /// The Channel_Selection_Algorithm parameter.
        public enum Algorithm: UInt8, Hashable, Sendable, CaseIterable {
            /// LE Channel Selection Algorithm #1.
            case algorithm1 = 0x00
            /// LE Channel Selection Algorithm #2.
            case algorithm2 = 0x01
        }

        /// The connection (0x0000–0x0EFF).
        public var connectionHandle: UInt16
        /// The algorithm in use.
        public var channelSelectionAlgorithm: Algorithm

        /// An event with every field given.
        public init(connectionHandle: UInt16, channelSelectionAlgorithm: Algorithm) {
            self.connectionHandle = connectionHandle
            self.channelSelectionAlgorithm = channelSelectionAlgorithm
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            connectionHandle = try reader.readEventConnectionHandle("HCI.LEChannelSelectionAlgorithm.connectionHandle")
            channelSelectionAlgorithm = try reader.readEventEnumeration(
                Algorithm.self, "HCI.LEChannelSelectionAlgorithm.channelSelectionAlgorithm")
        }

        public func encode(to writer: inout ByteWriter) {
            writer.write(connectionHandle)
            writer.write(channelSelectionAlgorithm.rawValue)
        }
    }
}
