import BLEWire
import Testing

/// Random valid field values for the generated round-trip tests of HCI events
/// (`bool()`, `status()` and `pick(_:)` are shared with the command generators).
extension SeededGenerator {
    mutating func uint8() -> UInt8 { UInt8.random(in: .min ... .max, using: &self) }
    mutating func uint16() -> UInt16 { UInt16.random(in: .min ... .max, using: &self) }
    mutating func uint64() -> UInt64 { UInt64.random(in: .min ... .max, using: &self) }
    mutating func int8() -> Int8 { Int8.random(in: .min ... .max, using: &self) }
    mutating func connectionHandle() -> UInt16 { UInt16.random(in: 0 ... 0x0EFF, using: &self) }
    mutating func address(kind: BluetoothAddress.Kind) -> BluetoothAddress {
        BluetoothAddress(UInt64.random(in: 0 ... 0xFFFF_FFFF_FFFF, using: &self), kind: kind)
    }
    /// `count` random octets as a slice that does not start at index 0, as decoded slices don't.
    mutating func slice(_ count: Int) -> ArraySlice<UInt8> {
        ([0xEE] + bytes(count))[1...]
    }
    mutating func slice(in range: ClosedRange<Int>) -> ArraySlice<UInt8> {
        slice(Int.random(in: range, using: &self))
    }
}

extension HCI.DisconnectionComplete {
    static func random(_ g: inout SeededGenerator) -> Self {
        Self(status: g.status(), connectionHandle: g.connectionHandle(), reason: g.status())
    }
}

extension HCI.ReadRemoteVersionInformationComplete {
    static func random(_ g: inout SeededGenerator) -> Self {
        Self(status: g.status(), connectionHandle: g.connectionHandle(), version: g.uint8(),
             companyIdentifier: g.uint16(), subversion: g.uint16())
    }
}

extension HCI.EncryptionChange {
    static func random(_ g: inout SeededGenerator) -> Self {
        Self(status: g.status(), connectionHandle: g.connectionHandle(), encryptionEnabled: g.pick(Enabled.self))
    }
}

extension HCI.EncryptionChangeV2 {
    static func random(_ g: inout SeededGenerator) -> Self {
        Self(status: g.status(), connectionHandle: g.connectionHandle(),
             encryptionEnabled: g.pick(HCI.EncryptionChange.Enabled.self), encryptionKeySize: g.uint8())
    }
}

extension HCI.CommandComplete {
    static func random(_ g: inout SeededGenerator) -> Self {
        Self(numHCICommandPackets: g.uint8(), opcode: HCI.Opcode(rawValue: g.uint16()),
             returnParameters: g.slice(in: 0 ... 252))
    }
}

extension HCI.CommandStatus {
    static func random(_ g: inout SeededGenerator) -> Self {
        Self(status: g.status(), numHCICommandPackets: g.uint8(), opcode: HCI.Opcode(rawValue: g.uint16()))
    }
}

extension HCI.HardwareError {
    static func random(_ g: inout SeededGenerator) -> Self { Self(hardwareCode: g.uint8()) }
}

extension HCI.NumberOfCompletedPackets {
    static func random(_ g: inout SeededGenerator) -> Self {
        let count = Int.random(in: 0 ... 63, using: &g)
        return Self(entries: (0 ..< count).map { _ in
            Entry(connectionHandle: g.connectionHandle(), numCompletedPackets: g.uint16())
        })
    }
}

extension HCI.DataBufferOverflow {
    static func random(_ g: inout SeededGenerator) -> Self { Self(linkType: g.pick(LinkType.self)) }
}

extension HCI.EncryptionKeyRefreshComplete {
    static func random(_ g: inout SeededGenerator) -> Self {
        Self(status: g.status(), connectionHandle: g.connectionHandle())
    }
}

extension HCI.AuthenticatedPayloadTimeoutExpired {
    static func random(_ g: inout SeededGenerator) -> Self { Self(connectionHandle: g.connectionHandle()) }
}

extension HCI.LEConnectionComplete {
    static func random(_ g: inout SeededGenerator) -> Self {
        let type = g.pick(HCI.AddressType.self)
        return Self(status: g.status(), connectionHandle: g.connectionHandle(), role: g.pick(HCI.Role.self),
                    peerAddressType: type, peerAddress: g.address(kind: type.addressKind),
                    connectionInterval: g.uint16(), peripheralLatency: g.uint16(), supervisionTimeout: g.uint16(),
                    centralClockAccuracy: g.pick(HCI.ClockAccuracy.self))
    }
}

extension HCI.LEAdvertisingReport {
    static func random(_ g: inout SeededGenerator) -> Self {
        let count = Int.random(in: 1 ... 6, using: &g)
        return Self(reports: (0 ..< count).map { _ in
            let type = g.pick(HCI.AddressType.self)
            return Report(eventType: g.pick(EventType.self), addressType: type, address: g.address(kind: type.addressKind),
                          data: g.slice(in: 0 ... 31), rssi: g.int8())
        })
    }
}

extension HCI.LEConnectionUpdateComplete {
    static func random(_ g: inout SeededGenerator) -> Self {
        Self(status: g.status(), connectionHandle: g.connectionHandle(), connectionInterval: g.uint16(),
             peripheralLatency: g.uint16(), supervisionTimeout: g.uint16())
    }
}

extension HCI.LEReadRemoteFeaturesComplete {
    static func random(_ g: inout SeededGenerator) -> Self {
        Self(status: g.status(), connectionHandle: g.connectionHandle(), leFeatures: g.uint64())
    }
}

extension HCI.LELongTermKeyRequest {
    static func random(_ g: inout SeededGenerator) -> Self {
        Self(connectionHandle: g.connectionHandle(), randomNumber: g.uint64(), encryptedDiversifier: g.uint16())
    }
}

extension HCI.LERemoteConnectionParameterRequest {
    static func random(_ g: inout SeededGenerator) -> Self {
        Self(connectionHandle: g.connectionHandle(), intervalMin: g.uint16(), intervalMax: g.uint16(),
             maxLatency: g.uint16(), timeout: g.uint16())
    }
}

extension HCI.LEDataLengthChange {
    static func random(_ g: inout SeededGenerator) -> Self {
        Self(connectionHandle: g.connectionHandle(), maxTxOctets: g.uint16(), maxTxTime: g.uint16(),
             maxRxOctets: g.uint16(), maxRxTime: g.uint16())
    }
}

extension HCI.LEReadLocalP256PublicKeyComplete {
    static func random(_ g: inout SeededGenerator) -> Self {
        Self(status: g.status(), keyXCoordinate: g.slice(32), keyYCoordinate: g.slice(32))
    }
}

extension HCI.LEGenerateDHKeyComplete {
    static func random(_ g: inout SeededGenerator) -> Self { Self(status: g.status(), dhKey: g.slice(32)) }
}

extension HCI.LEEnhancedConnectionComplete {
    static func random(_ g: inout SeededGenerator) -> Self {
        let type = g.pick(HCI.AddressType.self)
        return Self(status: g.status(), connectionHandle: g.connectionHandle(), role: g.pick(HCI.Role.self),
                    peerAddressType: type, peerAddress: g.address(kind: type.addressKind),
                    localResolvablePrivateAddress: g.address(kind: .random),
                    peerResolvablePrivateAddress: g.address(kind: .random),
                    connectionInterval: g.uint16(), peripheralLatency: g.uint16(), supervisionTimeout: g.uint16(),
                    centralClockAccuracy: g.pick(HCI.ClockAccuracy.self))
    }
}

extension HCI.LEEnhancedConnectionCompleteV2 {
    static func random(_ g: inout SeededGenerator) -> Self {
        Self(connection: .random(&g), advertisingHandle: g.uint8(), syncHandle: g.uint16())
    }
}

extension HCI.LEDirectedAdvertisingReport {
    static func random(_ g: inout SeededGenerator) -> Self {
        let count = Int.random(in: 1 ... 10, using: &g)
        return Self(reports: (0 ..< count).map { _ in
            let type = g.pick(HCI.AddressType.self)
            let direct = g.pick(HCI.DirectAddressType.self)
            return Report(eventType: g.pick(HCI.LEAdvertisingReport.EventType.self), addressType: type,
                          address: g.address(kind: type.addressKind), directAddressType: direct,
                          directAddress: g.address(kind: direct.addressKind), rssi: g.int8())
        })
    }
}

extension HCI.LEPHYUpdateComplete {
    static func random(_ g: inout SeededGenerator) -> Self {
        Self(status: g.status(), connectionHandle: g.connectionHandle(), txPHY: g.pick(HCI.PHY.self), rxPHY: g.pick(HCI.PHY.self))
    }
}

extension HCI.LEExtendedAdvertisingReport {
    static func random(_ g: inout SeededGenerator) -> Self {
        let count = Int.random(in: 1 ... 3, using: &g)
        return Self(reports: (0 ..< count).map { _ in
            let type = g.pick(HCI.AddressType.self)
            let direct = g.pick(HCI.DirectAddressType.self)
            let status = g.pick(EventType.DataStatus.self)
            // Random reserved bits 7–15 too: they must survive the round trip.
            let eventType = EventType(rawValue: g.uint16() & 0xFF9F | status.rawValue << 5)
            let sid = g.bool() ? UInt8.random(in: 0 ... 0x0F, using: &g) : 0xFF
            return Report(eventType: eventType, addressType: type, address: g.address(kind: type.addressKind),
                          primaryPHY: g.bool() ? .le1M : .leCoded, secondaryPHY: g.bool() ? nil : g.pick(HCI.PHY.self),
                          advertisingSID: sid, txPower: g.int8(), rssi: g.int8(), periodicAdvertisingInterval: g.uint16(),
                          directAddressType: direct, directAddress: g.address(kind: direct.addressKind),
                          data: g.slice(in: 0 ... 60))
        })
    }
}

extension HCI.LEAdvertisingSetTerminated {
    static func random(_ g: inout SeededGenerator) -> Self {
        Self(status: g.status(), advertisingHandle: g.uint8(), connectionHandle: g.uint16(),
             numCompletedExtendedAdvertisingEvents: g.uint8())
    }
}

extension HCI.LEScanRequestReceived {
    static func random(_ g: inout SeededGenerator) -> Self {
        let type = g.pick(HCI.AddressType.self)
        return Self(advertisingHandle: g.uint8(), scannerAddressType: type, scannerAddress: g.address(kind: type.addressKind))
    }
}

extension HCI.LEChannelSelectionAlgorithm {
    static func random(_ g: inout SeededGenerator) -> Self {
        Self(connectionHandle: g.connectionHandle(), channelSelectionAlgorithm: g.pick(Algorithm.self))
    }
}

extension HCI.LEPeriodicAdvertisingSyncEstablished {
    static func random(_ g: inout SeededGenerator) -> Self {
        let type = g.pick(HCI.AddressType.self)
        return Self(status: g.status(), syncHandle: g.uint16(), advertisingSID: g.uint8(), advertiserAddressType: type,
                    advertiserAddress: g.address(kind: type.addressKind), advertiserPHY: g.pick(),
                    periodicAdvertisingInterval: g.uint16(), advertiserClockAccuracy: g.pick())
    }
}

extension HCI.LEPeriodicAdvertisingReport {
    static func random(_ g: inout SeededGenerator) -> Self {
        Self(syncHandle: g.uint16(), txPower: g.int8(), rssi: g.int8(), cteType: g.uint8(), dataStatus: g.pick(),
             data: g.slice(in: 0 ... HCI.LEPeriodicAdvertisingReport.maximumDataLength))
    }
}
