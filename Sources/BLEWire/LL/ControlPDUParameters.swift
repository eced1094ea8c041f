extension LL {
    /// The LL control PDU opcodes this library models (Core 5.4, Vol 6, Part B, §2.4.2).
    public enum ControlOpcode: UInt8, Hashable, Sendable, CaseIterable {
        /// LL_CONNECTION_UPDATE_IND (§2.4.2.1).
        case connectionUpdateIndication = 0x00
        /// LL_CHANNEL_MAP_IND (§2.4.2.2).
        case channelMapIndication = 0x01
        /// LL_TERMINATE_IND (§2.4.2.3).
        case terminateIndication = 0x02
        /// LL_ENC_REQ (§2.4.2.4).
        case encryptionRequest = 0x03
        /// LL_ENC_RSP (§2.4.2.5).
        case encryptionResponse = 0x04
        /// LL_START_ENC_REQ (§2.4.2.6).
        case startEncryptionRequest = 0x05
        /// LL_START_ENC_RSP (§2.4.2.7).
        case startEncryptionResponse = 0x06
        /// LL_UNKNOWN_RSP (§2.4.2.8).
        case unknownResponse = 0x07
        /// LL_FEATURE_REQ (§2.4.2.9).
        case featureRequest = 0x08
        /// LL_FEATURE_RSP (§2.4.2.10).
        case featureResponse = 0x09
        /// LL_PAUSE_ENC_REQ (§2.4.2.11).
        case pauseEncryptionRequest = 0x0A
        /// LL_PAUSE_ENC_RSP (§2.4.2.12).
        case pauseEncryptionResponse = 0x0B
        /// LL_VERSION_IND (§2.4.2.13).
        case versionIndication = 0x0C
        /// LL_REJECT_IND (§2.4.2.14).
        case rejectIndication = 0x0D
        /// LL_PERIPHERAL_FEATURE_REQ (§2.4.2.15).
        case peripheralFeatureRequest = 0x0E
        /// LL_REJECT_EXT_IND (§2.4.2.18).
        case rejectExtendedIndication = 0x11
        /// LL_PING_REQ (§2.4.2.19).
        case pingRequest = 0x12
        /// LL_PING_RSP (§2.4.2.20).
        case pingResponse = 0x13
        /// LL_LENGTH_REQ (§2.4.2.21).
        case lengthRequest = 0x14
        /// LL_LENGTH_RSP (§2.4.2.21).
        case lengthResponse = 0x15
        /// LL_PHY_REQ (§2.4.2.22).
        case phyRequest = 0x16
        /// LL_PHY_RSP (§2.4.2.22).
        case phyResponse = 0x17
        /// LL_PHY_UPDATE_IND (§2.4.2.23).
        case phyUpdateIndication = 0x18
    }

    /// CtrData of LL_CONNECTION_UPDATE_IND (Core 5.4, Vol 6, Part B, §2.4.2.1): the new
    /// connection parameters and the connection event counter at which they apply.
    public struct ConnectionUpdateIndication: WireCodable, Hashable {
        /// transmitWindowSize in 1.25 ms units.
        public var windowSize: UInt8
        /// transmitWindowOffset in 1.25 ms units, from the old anchor at the instant.
        public var windowOffset: UInt16
        /// connInterval in 1.25 ms units.
        public var interval: UInt16
        /// connPeripheralLatency in connection events.
        public var latency: UInt16
        /// connSupervisionTimeout in 10 ms units.
        public var timeout: UInt16
        /// The connection event counter value at which the new parameters apply.
        public var instant: UInt16

        /// CtrData with every field.
        public init(windowSize: UInt8, windowOffset: UInt16, interval: UInt16, latency: UInt16, timeout: UInt16, instant: UInt16) {
            self.windowSize = windowSize
            self.windowOffset = windowOffset
            self.interval = interval
            self.latency = latency
            self.timeout = timeout
            self.instant = instant
        }

        /// Reads the 11 octets of CtrData.
        public init(from reader: inout ByteReader) throws(WireError) {
            windowSize = try reader.readUInt8("LL.ConnectionUpdateIndication.windowSize")
            windowOffset = try reader.readUInt16("LL.ConnectionUpdateIndication.windowOffset")
            interval = try reader.readUInt16("LL.ConnectionUpdateIndication.interval")
            latency = try reader.readUInt16("LL.ConnectionUpdateIndication.latency")
            timeout = try reader.readUInt16("LL.ConnectionUpdateIndication.timeout")
            instant = try reader.readUInt16("LL.ConnectionUpdateIndication.instant")
        }

        /// Appends the 11 octets of CtrData.
        public func encode(to writer: inout ByteWriter) {
            writer.write(windowSize)
            writer.write(windowOffset)
            writer.write(interval)
            writer.write(latency)
            writer.write(timeout)
            writer.write(instant)
        }
    }

    /// CtrData of LL_CHANNEL_MAP_IND (Core 5.4, Vol 6, Part B, §2.4.2.2): a new 37-bit
    /// channel map and the instant it applies from.
    public struct ChannelMapIndication: WireCodable, Hashable {
        /// The used data channels, bit n for channel n (the top three of 40 bits kept as sent).
        public var channelMap: UInt64
        /// The connection event counter value at which the map applies.
        public var instant: UInt16

        /// CtrData with every field; the map is masked to its 40 wire bits.
        public init(channelMap: UInt64, instant: UInt16) {
            self.channelMap = channelMap & 0xFF_FFFF_FFFF
            self.instant = instant
        }

        /// Reads the 7 octets of CtrData.
        public init(from reader: inout ByteReader) throws(WireError) {
            channelMap = try reader.readLittleEndian(octets: 5, "LL.ChannelMapIndication.channelMap")
            instant = try reader.readUInt16("LL.ChannelMapIndication.instant")
        }

        /// Appends the 7 octets of CtrData.
        public func encode(to writer: inout ByteWriter) {
            writer.writeLittleEndian(channelMap, octets: 5)
            writer.write(instant)
        }
    }

    /// CtrData of LL_ENC_REQ (Core 5.4, Vol 6, Part B, §2.4.2.4): the central's half of the
    /// session key diversifier and IV, and the Rand and EDIV that identify the LTK.
    public struct EncryptionRequest: WireCodable, Hashable {
        /// Rand: the 64-bit random number of the LTK (0 for Secure Connections keys).
        public var random: UInt64
        /// EDIV: the encrypted diversifier of the LTK.
        public var encryptedDiversifier: UInt16
        /// SKDm: the central's session key diversifier.
        public var sessionKeyDiversifierCentral: UInt64
        /// IVm: the central's initialization vector.
        public var initializationVectorCentral: UInt32

        /// CtrData with every field.
        public init(random: UInt64, encryptedDiversifier: UInt16, sessionKeyDiversifierCentral: UInt64, initializationVectorCentral: UInt32) {
            self.random = random
            self.encryptedDiversifier = encryptedDiversifier
            self.sessionKeyDiversifierCentral = sessionKeyDiversifierCentral
            self.initializationVectorCentral = initializationVectorCentral
        }

        /// Reads the 22 octets of CtrData.
        public init(from reader: inout ByteReader) throws(WireError) {
            random = try reader.readUInt64("LL.EncryptionRequest.random")
            encryptedDiversifier = try reader.readUInt16("LL.EncryptionRequest.encryptedDiversifier")
            sessionKeyDiversifierCentral = try reader.readUInt64("LL.EncryptionRequest.sessionKeyDiversifierCentral")
            initializationVectorCentral = try reader.readUInt32("LL.EncryptionRequest.initializationVectorCentral")
        }

        /// Appends the 22 octets of CtrData.
        public func encode(to writer: inout ByteWriter) {
            writer.write(random)
            writer.write(encryptedDiversifier)
            writer.write(sessionKeyDiversifierCentral)
            writer.write(initializationVectorCentral)
        }
    }

    /// CtrData of LL_ENC_RSP (Core 5.4, Vol 6, Part B, §2.4.2.5): the peripheral's half of
    /// the session key diversifier and IV.
    public struct EncryptionResponse: WireCodable, Hashable {
        /// SKDs: the peripheral's session key diversifier.
        public var sessionKeyDiversifierPeripheral: UInt64
        /// IVs: the peripheral's initialization vector.
        public var initializationVectorPeripheral: UInt32

        /// CtrData with every field.
        public init(sessionKeyDiversifierPeripheral: UInt64, initializationVectorPeripheral: UInt32) {
            self.sessionKeyDiversifierPeripheral = sessionKeyDiversifierPeripheral
            self.initializationVectorPeripheral = initializationVectorPeripheral
        }

        /// Reads the 12 octets of CtrData.
        public init(from reader: inout ByteReader) throws(WireError) {
            sessionKeyDiversifierPeripheral = try reader.readUInt64("LL.EncryptionResponse.sessionKeyDiversifierPeripheral")
            initializationVectorPeripheral = try reader.readUInt32("LL.EncryptionResponse.initializationVectorPeripheral")
        }

        /// Appends the 12 octets of CtrData.
        public func encode(to writer: inout ByteWriter) {
            writer.write(sessionKeyDiversifierPeripheral)
            writer.write(initializationVectorPeripheral)
        }
    }

    /// CtrData of LL_VERSION_IND (Core 5.4, Vol 6, Part B, §2.4.2.13): the sender's Link
    /// Layer version, company identifier and implementation subversion.
    public struct VersionIndication: WireCodable, Hashable {
        /// VersNr: the Bluetooth version code (0x0D for Core 5.4).
        public var version: UInt8
        /// CompId: the manufacturer's company identifier.
        public var companyIdentifier: UInt16
        /// SubVersNr: the implementation's own revision number.
        public var subversion: UInt16

        /// CtrData with every field.
        public init(version: UInt8, companyIdentifier: UInt16, subversion: UInt16) {
            self.version = version
            self.companyIdentifier = companyIdentifier
            self.subversion = subversion
        }

        /// Reads the 5 octets of CtrData.
        public init(from reader: inout ByteReader) throws(WireError) {
            version = try reader.readUInt8("LL.VersionIndication.version")
            companyIdentifier = try reader.readUInt16("LL.VersionIndication.companyIdentifier")
            subversion = try reader.readUInt16("LL.VersionIndication.subversion")
        }

        /// Appends the 5 octets of CtrData.
        public func encode(to writer: inout ByteWriter) {
            writer.write(version)
            writer.write(companyIdentifier)
            writer.write(subversion)
        }
    }

    /// CtrData of LL_LENGTH_REQ and LL_LENGTH_RSP (Core 5.4, Vol 6, Part B, §2.4.2.21): the
    /// sender's largest receivable and transmittable payloads and their airtimes.
    public struct LengthParameters: WireCodable, Hashable {
        /// MaxRxOctets (27 to 251).
        public var maxRxOctets: UInt16
        /// MaxRxTime in microseconds (328 to 17040).
        public var maxRxTime: UInt16
        /// MaxTxOctets (27 to 251).
        public var maxTxOctets: UInt16
        /// MaxTxTime in microseconds (328 to 17040).
        public var maxTxTime: UInt16

        /// CtrData with every field.
        public init(maxRxOctets: UInt16, maxRxTime: UInt16, maxTxOctets: UInt16, maxTxTime: UInt16) {
            self.maxRxOctets = maxRxOctets
            self.maxRxTime = maxRxTime
            self.maxTxOctets = maxTxOctets
            self.maxTxTime = maxTxTime
        }

        /// Reads the 8 octets of CtrData.
        public init(from reader: inout ByteReader) throws(WireError) {
            maxRxOctets = try reader.readUInt16("LL.LengthParameters.maxRxOctets")
            maxRxTime = try reader.readUInt16("LL.LengthParameters.maxRxTime")
            maxTxOctets = try reader.readUInt16("LL.LengthParameters.maxTxOctets")
            maxTxTime = try reader.readUInt16("LL.LengthParameters.maxTxTime")
        }

        /// Appends the 8 octets of CtrData.
        public func encode(to writer: inout ByteWriter) {
            writer.write(maxRxOctets)
            writer.write(maxRxTime)
            writer.write(maxTxOctets)
            writer.write(maxTxTime)
        }
    }

    /// CtrData of LL_PHY_REQ and LL_PHY_RSP (Core 5.4, Vol 6, Part B, §2.4.2.22): the PHYs
    /// the sender prefers to transmit and receive on, as bit masks (bit 0 LE 1M, bit 1 LE
    /// 2M, bit 2 LE Coded; other bits kept as sent).
    public struct PHYPreferences: WireCodable, Hashable {
        /// TX_PHYS.
        public var txPHYs: UInt8
        /// RX_PHYS.
        public var rxPHYs: UInt8

        /// CtrData with every field.
        public init(txPHYs: UInt8, rxPHYs: UInt8) {
            self.txPHYs = txPHYs
            self.rxPHYs = rxPHYs
        }

        /// Reads the 2 octets of CtrData.
        public init(from reader: inout ByteReader) throws(WireError) {
            txPHYs = try reader.readUInt8("LL.PHYPreferences.txPHYs")
            rxPHYs = try reader.readUInt8("LL.PHYPreferences.rxPHYs")
        }

        /// Appends the 2 octets of CtrData.
        public func encode(to writer: inout ByteWriter) {
            writer.write(txPHYs)
            writer.write(rxPHYs)
        }
    }

    /// CtrData of LL_PHY_UPDATE_IND (Core 5.4, Vol 6, Part B, §2.4.2.23): the PHY of each
    /// direction from the instant on (one bit set, or 0 for no change).
    public struct PHYUpdateIndication: WireCodable, Hashable {
        /// PHY_C_TO_P: the central-to-peripheral PHY bit, or 0 for unchanged.
        public var centralToPeripheralPHY: UInt8
        /// PHY_P_TO_C: the peripheral-to-central PHY bit, or 0 for unchanged.
        public var peripheralToCentralPHY: UInt8
        /// The connection event counter value at which the PHYs change (0 when neither does).
        public var instant: UInt16

        /// CtrData with every field.
        public init(centralToPeripheralPHY: UInt8, peripheralToCentralPHY: UInt8, instant: UInt16) {
            self.centralToPeripheralPHY = centralToPeripheralPHY
            self.peripheralToCentralPHY = peripheralToCentralPHY
            self.instant = instant
        }

        /// Reads the 4 octets of CtrData.
        public init(from reader: inout ByteReader) throws(WireError) {
            centralToPeripheralPHY = try reader.readUInt8("LL.PHYUpdateIndication.centralToPeripheralPHY")
            peripheralToCentralPHY = try reader.readUInt8("LL.PHYUpdateIndication.peripheralToCentralPHY")
            instant = try reader.readUInt16("LL.PHYUpdateIndication.instant")
        }

        /// Appends the 4 octets of CtrData.
        public func encode(to writer: inout ByteWriter) {
            writer.write(centralToPeripheralPHY)
            writer.write(peripheralToCentralPHY)
            writer.write(instant)
        }
    }
}
