import BLEController
import BLEWire
import Testing

/// Link-layer privacy for advertising sets and the extended scanner (Core 5.4, Vol 6, Part B,
/// §6; Vol 4, Part E, §7.8.53, §7.7.65.13): a set with own address type 0x02/0x03 advertises
/// on a resolvable private address of the local IRK, renewed every RPA_Timeout, and a scanner
/// holding the IRK reports the identity.
@Suite("Controller privacy for advertising sets")
struct ExtendedPrivacyTests {
    /// The peripheral's set 1 (own address type 0x03, resolution on), non-connectable, with data.
    private static func advertise(_ pair: inout PrivatePair) {
        #expect(pair.air.createSet(pair.peripheral, handle: 1, sid: 2, ownAddressType: .resolvableOrRandom) == 0x00)
        #expect(pair.air.setExtendedData(pair.peripheral, handle: 1, Array(repeating: 0x42, count: 40)) == [0x00])
        #expect(pair.air.enableSets(pair.peripheral, [.init(advertisingHandle: 1)]) == 0x00)
    }

    /// The addresses the peripheral's AUX_ADV_INDs carried, in order of first use.
    private static func advertisedAddresses(_ pair: PrivatePair) -> [BluetoothAddress] {
        var addresses: [BluetoothAddress] = []
        for sent in pair.air.extendedPDUs(from: pair.peripheral) {
            if let address = sent.payload.advertiserAddress, !addresses.contains(address) { addresses.append(address) }
        }
        return addresses
    }

    @Test("a set with own address type 0x03 advertises on a private address of the local IRK; a scanner with the IRK reports the identity, type 0x02")
    func setAdvertisesPrivately() throws {
        var pair = PrivatePair(extended: true)
        Self.advertise(&pair)
        pair.air.startExtendedScanning(pair.central)
        pair.air.run(until: 400_000)
        let addresses = Self.advertisedAddresses(pair)
        #expect(addresses.count == 1)
        let address = try #require(addresses.first)
        #expect(PrivatePair.isPrivate(address, of: PrivatePair.peripheralIRK) && address != pair.air.address(pair.peripheral))
        let reports = pair.air.extendedReports(pair.central).filter { $0.advertisingSID == 2 }
        #expect(!reports.isEmpty)
        #expect(reports.allSatisfy { $0.address == pair.air.address(pair.peripheral) && $0.addressType == .publicIdentity })
    }

    @Test("a scanner without the IRK reports the set's private address as received, type 0x01")
    func strangerSeesPrivateAddress() throws {
        var pair = PrivatePair(extended: true)
        Self.advertise(&pair)
        let stranger = pair.air.add(address: 0xF0_00_00_00_00_03, seed: 3, claimsExtendedAdvertising: true)
        pair.air.startExtendedScanning(stranger)
        pair.air.run(until: 400_000)
        let address = try #require(Self.advertisedAddresses(pair).first)
        let reports = pair.air.extendedReports(stranger).filter { $0.advertisingSID == 2 }
        #expect(!reports.isEmpty && reports.allSatisfy { $0.address == address && $0.addressType == .random })
    }

    @Test("after RPA_Timeout a running set moves to a new private address of the same IRK")
    func setRotatesAtTimeout() throws {
        var pair = PrivatePair(extended: true)
        pair.air.command(pair.peripheral, HCI.LESetResolvablePrivateAddressTimeout(rpaTimeout: 1))
        Self.advertise(&pair)
        pair.air.run(until: 2_500_000)
        let addresses = Self.advertisedAddresses(pair)
        #expect(addresses.count >= 2)
        for address in addresses { #expect(PrivatePair.isPrivate(address, of: PrivatePair.peripheralIRK)) }
    }

    @Test("without address resolution a set with own address type 0x02 advertises on the public address")
    func setFallsBackWithoutResolution() throws {
        var air = TestAir()
        let device = air.add(address: 0xF0_00_00_00_00_01, seed: 1, claimsExtendedAdvertising: true)
        air.command(device, HCI.LEAddDeviceToResolvingList(peerIdentityAddress: BluetoothAddress(0), peerIRK: 0, localIRK: 3))
        #expect(air.createSet(device, handle: 1, ownAddressType: .resolvableOrPublic) == 0x00)
        #expect(air.enableSets(device, [.init(advertisingHandle: 1)]) == 0x00)
        air.run(until: 200_000)
        #expect(air.extendedPDUs(from: device).compactMap(\.payload.advertiserAddress).allSatisfy { $0 == air.address(device) })
        #expect(!air.extendedPDUs(from: device).isEmpty)
    }

    @Test("Extended Create Connection to the identity (type 0x02) connects to a connectable set's private address; both Enhanced Connection Completes carry the identities and private addresses")
    func connectsToIdentity() throws {
        var pair = PrivatePair(extended: true)
        for device in [pair.peripheral, pair.central] { pair.air.command(device, HCI.LESetEventMask(leEventMask: TestAir.connectionTestEvents)) }
        #expect(pair.air.startConnectableSet(pair.peripheral, handle: 1, ownAddressType: .resolvableOrRandom).allSatisfy { $0 == 0x00 })
        var create = TestAir.extendedCreateConnection(to: pair.air.address(pair.peripheral), scanning: [.le1M], le2M: false)
        create.peerAddressType = .publicIdentity
        create.ownAddressType = .resolvableOrPublic
        pair.air.command(pair.central, create)
        pair.air.run(until: 1_000_000)
        func completes(_ device: Int) -> [HCI.LEEnhancedConnectionComplete] {
            pair.air.leMetaEvents(device).compactMap { if case let .enhancedConnectionComplete(done) = $0 { done } else { nil } }
        }
        let central = try #require(completes(pair.central).first)
        #expect(central.status == .success)
        #expect(central.peerAddress == pair.air.address(pair.peripheral) && central.peerAddressType == .publicIdentity)
        #expect(PrivatePair.isPrivate(central.peerResolvablePrivateAddress, of: PrivatePair.peripheralIRK))
        #expect(PrivatePair.isPrivate(central.localResolvablePrivateAddress, of: PrivatePair.centralIRK))
        let peripheral = try #require(completes(pair.peripheral).first)
        #expect(peripheral.status == .success && peripheral.peerAddress == pair.air.address(pair.central))
        #expect(peripheral.peerAddressType == .publicIdentity)
        #expect(PrivatePair.isPrivate(peripheral.localResolvablePrivateAddress, of: PrivatePair.peripheralIRK))
    }
}
