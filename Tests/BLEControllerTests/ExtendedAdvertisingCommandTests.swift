import BLEController
import BLEWire
import Testing

/// The extended advertising and scanning commands' answers to good and bad input (Core 5.4,
/// Vol 4, Part E, §7.8.52–§7.8.65) and the rule that legacy and extended commands do not mix (§3.1.1).
@Suite("Extended advertising commands")
struct ExtendedAdvertisingCommandTests {
    static let unknownAdvertisingIdentifier: UInt8 = 0x42
    static let invalidParameters: UInt8 = 0x12
    static let commandDisallowed: UInt8 = 0x0C
    static let memoryCapacityExceeded: UInt8 = 0x07
    static let unsupportedValue: UInt8 = 0x11

    @Test("The controller reports 1,650 octets of advertising data and 8 sets")
    func limits() throws {
        var air = TestAir()
        let device = air.add(address: 1, seed: 1)
        guard case let .commandComplete(length)? = air.command(device, HCI.LEReadMaximumAdvertisingDataLength()).first,
              case let .commandComplete(sets)? = air.command(device, HCI.LEReadNumberOfSupportedAdvertisingSets()).first
        else {
            Issue.record("no Command Complete")
            return
        }
        #expect(try length.returnParameters(for: HCI.LEReadMaximumAdvertisingDataLength.self).maxAdvertisingDataLength == 1650)
        #expect(try sets.returnParameters(for: HCI.LEReadNumberOfSupportedAdvertisingSets.self).numSupportedAdvertisingSets == 8)
        // Reading the limits chooses no family: legacy advertising still works afterwards.
        air.startAdvertising(device)
        #expect(air.devices[device].controller.isAdvertising)
    }

    @Test("An unknown set handle gets Unknown Advertising Identifier from every command that names a set")
    func unknownHandle() {
        var air = TestAir()
        let device = air.add(address: 1, seed: 1)
        air.createSet(device, handle: 0)
        let status = Self.unknownAdvertisingIdentifier
        #expect(air.setExtendedData(device, handle: 7, [1]) == [status])
        #expect(air.command(device, HCI.LESetExtendedScanResponseData(advertisingHandle: 7, scanResponseData: [])).first?.commandResult?.status == status)
        #expect(air.command(device, HCI.LESetAdvertisingSetRandomAddress(
            advertisingHandle: 7, randomAddress: BluetoothAddress(0xC0_0000_0001, kind: .random))).first?.commandResult?.status == status)
        #expect(air.enableSets(device, [.init(advertisingHandle: 0), .init(advertisingHandle: 7)]) == status)
        #expect(!air.devices[device].controller.isAdvertising, "no set starts when one entry is refused")
        #expect(air.command(device, HCI.LERemoveAdvertisingSet(advertisingHandle: 7)).first?.commandResult?.status == status)
    }

    @Test("Data over 1,650 octets gets Memory Capacity Exceeded and is discarded")
    func tooMuchData() {
        var air = TestAir()
        let device = air.add(address: 1, seed: 1)
        air.createSet(device, handle: 0)
        let statuses = air.setExtendedData(device, handle: 0, [UInt8](repeating: 0xAB, count: 1651))
        #expect(statuses.dropLast().allSatisfy { $0 == 0x00 })
        #expect(statuses.last == Self.memoryCapacityExceeded)
        // Discarded: a last fragment now has no first one before it.
        let last = air.command(device, HCI.LESetExtendedAdvertisingData(advertisingHandle: 0, operation: .lastFragment, advertisingData: [1]))
        #expect(last.first?.commandResult?.status == Self.invalidParameters)
        #expect(air.setExtendedData(device, handle: 0, [UInt8](repeating: 0xAB, count: 1650)).allSatisfy { $0 == 0x00 })
    }

    @Test("Fragment operations out of order or while enabled are refused")
    func fragmentMisuse() {
        var air = TestAir()
        let device = air.add(address: 1, seed: 1)
        air.createSet(device, handle: 0)
        func data(_ operation: HCI.AdvertisingDataOperation, _ bytes: [UInt8]) -> UInt8? {
            air.command(device, HCI.LESetExtendedAdvertisingData(advertisingHandle: 0, operation: operation, advertisingData: bytes[...]))
                .first?.commandResult?.status
        }
        #expect(data(.intermediateFragment, [1]) == Self.invalidParameters)
        #expect(data(.unchangedData, []) == Self.invalidParameters, "unchanged data needs an enabled set with data")
        #expect(data(.firstFragment, [1, 2]) == 0x00)
        #expect(air.enableSets(device, [.init(advertisingHandle: 0)]) == Self.commandDisallowed, "the data is incomplete")
        #expect(data(.lastFragment, [3]) == 0x00)
        #expect(air.enableSets(device, [.init(advertisingHandle: 0)]) == 0x00)
        #expect(data(.firstFragment, [1]) == Self.commandDisallowed)
        #expect(data(.unchangedData, [1]) == Self.invalidParameters)
        #expect(data(.unchangedData, []) == 0x00)
        #expect(data(.complete, [9, 9]) == 0x00, "complete data may replace an enabled set's")
    }

    @Test("Bad set parameters get the specification's status codes")
    func badParameters() {
        var air = TestAir()
        let device = air.add(address: 1, seed: 1)
        #expect(air.createSet(device, handle: 0xF0) == Self.invalidParameters)
        #expect(air.createSet(device, handle: 0, interval: 0x1F) == Self.invalidParameters)
        #expect(air.createSet(device, handle: 0, sid: 0x10) == Self.invalidParameters)
        #expect(air.createSet(device, handle: 0, properties: [.connectable, .scannable]) == Self.invalidParameters)
        #expect(air.createSet(device, handle: 0, secondaryPHY: .leCoded) == Self.unsupportedValue)
        for handle in UInt8(0) ..< 8 { #expect(air.createSet(device, handle: handle) == 0x00) }
        #expect(air.createSet(device, handle: 8) == Self.memoryCapacityExceeded)
        #expect(air.createSet(device, handle: 7, sid: 3) == 0x00, "an existing set may change")
        // A non-scannable set takes no scan response data.
        let response = air.command(device, HCI.LESetExtendedScanResponseData(advertisingHandle: 0, scanResponseData: [1, 2]))
        #expect(response.first?.commandResult?.status == Self.invalidParameters)
        // A random own address needs the set's random address.
        #expect(air.createSet(device, handle: 1, ownAddressType: .random) == 0x00)
        #expect(air.enableSets(device, [.init(advertisingHandle: 1)]) == Self.invalidParameters)
        air.command(device, HCI.LESetAdvertisingSetRandomAddress(advertisingHandle: 1, randomAddress: BluetoothAddress(0xC0_0000_0001, kind: .random)))
        #expect(air.enableSets(device, [.init(advertisingHandle: 1)]) == 0x00)
        // An enabled set cannot change, be removed or cleared.
        #expect(air.createSet(device, handle: 1) == Self.commandDisallowed)
        #expect(air.command(device, HCI.LERemoveAdvertisingSet(advertisingHandle: 1)).first?.commandResult?.status == Self.commandDisallowed)
        #expect(air.command(device, HCI.LEClearAdvertisingSets()).first?.commandResult?.status == Self.commandDisallowed)
        air.command(device, HCI.LESetExtendedAdvertisingEnable(enable: false, sets: []))
        #expect(air.command(device, HCI.LERemoveAdvertisingSet(advertisingHandle: 1)).first?.commandResult?.status == 0x00)
        #expect(air.command(device, HCI.LEClearAdvertisingSets()).first?.commandResult?.status == 0x00)
        #expect(air.setExtendedData(device, handle: 0, [1]) == [Self.unknownAdvertisingIdentifier])
    }

    @Test("Extended scanning on a controller without the LE Coded PHY feature refuses Coded, and a scan period, as unsupported")
    func scanParameters() {
        var air = TestAir()
        let device = air.add(address: 1, seed: 1)
        let phy = HCI.LESetExtendedScanParameters.PHYParameters(scanType: .passive, scanInterval: 0x10, scanWindow: 0x10)
        #expect(air.command(device, HCI.LESetExtendedScanParameters(ownAddressType: .public, le1M: phy, leCoded: phy))
            .first?.commandResult?.status == Self.unsupportedValue)
        let wide = HCI.LESetExtendedScanParameters.PHYParameters(scanType: .passive, scanInterval: 0x10, scanWindow: 0x20)
        #expect(air.command(device, HCI.LESetExtendedScanParameters(ownAddressType: .public, le1M: wide))
            .first?.commandResult?.status == Self.invalidParameters)
        #expect(air.command(device, HCI.LESetExtendedScanEnable(enable: true, duration: 10, period: 5)).first?.commandResult?.status == Self.unsupportedValue)
        #expect(air.command(device, HCI.LESetExtendedScanParameters(ownAddressType: .public, le1M: phy)).first?.commandResult?.status == 0x00)
    }

    @Test("A scan with a duration ends with LE Scan Timeout")
    func scanTimeout() {
        var air = TestAir()
        let device = air.add(address: 1, seed: 1)
        air.startExtendedScanning(device, duration: 20)
        air.run(until: 1_000_000)
        let timeouts = air.devices[device].events.filter {
            if case .leMeta(.scanTimeout) = $0.event { return true }
            return false
        }
        #expect(timeouts.map(\.at) == [200_000])
        #expect(!air.devices[device].controller.isScanning)
    }

    @Test("Legacy commands after extended ones, and extended after legacy, get Command Disallowed until reset")
    func familiesDoNotMix() {
        var air = TestAir()
        let device = air.add(address: 1, seed: 1)
        #expect(air.createSet(device, handle: 0) == 0x00)
        #expect(air.command(device, HCI.LESetAdvertisingData(advertisingData: [1])).first?.commandResult?.status == Self.commandDisallowed)
        #expect(air.command(device, HCI.LESetScanEnable(leScanEnable: true, filterDuplicates: false)).first?.commandResult?.status == Self.commandDisallowed)
        let connect = air.command(device, TestAir.createConnection(to: BluetoothAddress(2)))
        guard case let .commandStatus(status)? = connect.first else {
            Issue.record("LE Create Connection is answered with Command Status")
            return
        }
        #expect(status.status == .commandDisallowed)
        air.command(device, HCI.Reset())
        air.enableLEMetaEvents(device)
        #expect(air.command(device, HCI.LESetAdvertisingData(advertisingData: [1])).first?.commandResult?.status == 0x00)
        #expect(air.createSet(device, handle: 0) == Self.commandDisallowed)
        let scan = HCI.LESetExtendedScanEnable(enable: true)
        #expect(air.command(device, scan).first?.commandResult?.status == Self.commandDisallowed)
    }
}
