import BLEController
import BLECrypto
import BLEWire
import Testing

/// Two controllers that know each other through their resolving lists (Core 5.4, Vol 6,
/// Part B, §6): each holds the other's identity and IRK and its own IRK.
struct PrivatePair {
    static let peripheralIRK: UInt128 = 0x1111_2222_3333_4444_5555_6666_7777_8888
    static let centralIRK: UInt128 = 0x9999_AAAA_BBBB_CCCC_DDDD_EEEE_FFFF_0001

    var air = TestAir()
    let peripheral: Int
    let central: Int

    /// The pair, claiming the extended advertising commands when `extended`.
    init(extended: Bool = false) {
        peripheral = air.add(address: 0xF0_00_00_00_00_01, seed: 1, claimsExtendedAdvertising: extended)
        central = air.add(address: 0xF0_00_00_00_00_02, seed: 2, claimsExtendedAdvertising: extended)
        let mask: HCI.LEEventMask = [.enhancedConnectionComplete, .advertisingReport]
        air.command(peripheral, HCI.LESetEventMask(leEventMask: mask))
        air.command(central, HCI.LESetEventMask(leEventMask: mask))
        // The peripheral's list: the zero identity (undirected advertising) and the central.
        air.command(peripheral, HCI.LEAddDeviceToResolvingList(
            peerIdentityAddress: BluetoothAddress(0), peerIRK: 0, localIRK: Self.peripheralIRK))
        air.command(peripheral, HCI.LEAddDeviceToResolvingList(
            peerIdentityAddress: air.address(central), peerIRK: Self.centralIRK, localIRK: Self.peripheralIRK))
        air.command(central, HCI.LEAddDeviceToResolvingList(
            peerIdentityAddress: BluetoothAddress(0), peerIRK: 0, localIRK: Self.centralIRK))
        air.command(central, HCI.LEAddDeviceToResolvingList(
            peerIdentityAddress: air.address(peripheral), peerIRK: Self.peripheralIRK, localIRK: Self.centralIRK))
        air.command(peripheral, HCI.LESetAddressResolutionEnable(addressResolutionEnable: true))
        air.command(central, HCI.LESetAddressResolutionEnable(addressResolutionEnable: true))
    }

    /// Undirected advertising with own address type 0x03 (RPA, else random).
    mutating func advertise() {
        air.command(peripheral, HCI.LESetAdvertisingParameters(
            advertisingIntervalMin: 0x00A0, advertisingIntervalMax: 0x00A0, advertisingType: .connectableUndirected,
            ownAddressType: .resolvableOrRandom))
        air.command(peripheral, HCI.LESetAdvertisingData(advertisingData: TestAir.advertisingData[...]))
        air.command(peripheral, HCI.LESetAdvertisingEnable(advertisingEnable: true))
    }

    /// Whether `address` is a resolvable private address made with `irk` (§1.3.2.2).
    static func isPrivate(_ address: BluetoothAddress, of irk: UInt128) -> Bool {
        guard address.kind == .random, address.value >> 46 == 0b01 else { return false }
        let prand = UInt32(truncatingIfNeeded: address.value >> 24) & 0xFF_FFFF
        return (try? BLECrypto.ah(k: irk, r: prand)) == UInt32(truncatingIfNeeded: address.value) & 0xFF_FFFF
    }
}

@Suite("Controller resolving list and LL privacy")
struct ResolvingListTests {
    @Test("LE Read Local Supported Features has LL Privacy and Supported Commands has every resolving list command")
    func advertised() throws {
        var air = TestAir()
        let device = air.add(address: 1, seed: 1)
        guard case let .commandComplete(features)? = air.command(device, HCI.LEReadLocalSupportedFeatures()).first,
              case let .commandComplete(commands)? = air.command(device, HCI.ReadLocalSupportedCommands()).first
        else { Issue.record("no answers"); return }
        #expect(try features.returnParameters(for: HCI.LEReadLocalSupportedFeatures.self).leFeatures.contains(.llPrivacy))
        let supported = try commands.returnParameters(for: HCI.ReadLocalSupportedCommands.self).supportedCommands
        for entry: HCI.SupportedCommands.Entry in [
            .leAddDeviceToResolvingList, .leRemoveDeviceFromResolvingList, .leClearResolvingList, .leReadResolvingListSize,
            .leReadPeerResolvableAddress, .leReadLocalResolvableAddress, .leSetAddressResolutionEnable,
            .leSetResolvablePrivateAddressTimeout, .leSetPrivacyMode,
        ] {
            #expect(supported.contains(entry))
        }
    }

    @Test("list commands: duplicates refused, unknown peers 0x02, changes disallowed while resolution is on and advertising")
    func listCommands() {
        var air = TestAir()
        let device = air.add(address: 1, seed: 1)
        let peer = BluetoothAddress(0xC0_00_00_00_00_09, kind: .random)
        let add = HCI.LEAddDeviceToResolvingList(peerIdentityAddress: peer, peerIRK: 5, localIRK: 7)
        #expect(air.command(device, add).first?.commandResult?.status == 0x00)
        #expect(air.command(device, add).first?.commandResult?.status == 0x12)
        let unknown = BluetoothAddress(0xC0_00_00_00_00_0A, kind: .random)
        #expect(air.command(device, HCI.LERemoveDeviceFromResolvingList(peerIdentityAddress: unknown)).first?.commandResult?.status == 0x02)
        #expect(air.command(device, HCI.LESetPrivacyMode(peerIdentityAddress: unknown, privacyMode: .device)).first?.commandResult?.status == 0x02)
        #expect(air.command(device, HCI.LESetPrivacyMode(peerIdentityAddress: peer, privacyMode: .device)).first?.commandResult?.status == 0x00)
        #expect(air.command(device, HCI.LESetResolvablePrivateAddressTimeout(rpaTimeout: 0)).first?.commandResult?.status == 0x12)
        #expect(air.command(device, HCI.LESetResolvablePrivateAddressTimeout(rpaTimeout: 60)).first?.commandResult?.status == 0x00)
        air.command(device, HCI.LESetAddressResolutionEnable(addressResolutionEnable: true))
        air.startAdvertising(device)
        #expect(air.command(device, HCI.LEClearResolvingList()).first?.commandResult?.status == 0x0C)
        #expect(air.command(device, HCI.LESetAddressResolutionEnable(addressResolutionEnable: false)).first?.commandResult?.status == 0x0C)
        air.command(device, HCI.LESetAdvertisingEnable(advertisingEnable: false))
        #expect(air.command(device, HCI.LERemoveDeviceFromResolvingList(peerIdentityAddress: peer)).first?.commandResult?.status == 0x00)
        #expect(air.command(device, HCI.LEReadPeerResolvableAddress(peerIdentityAddress: peer)).first?.commandResult?.status == 0x02)
    }

    @Test("with resolution on, own address type 0x03 advertises from a resolvable private address of the local IRK, read back by Read Local Resolvable Address")
    func advertisesPrivateAddress() throws {
        var pair = PrivatePair()
        pair.advertise()
        pair.air.run(until: 200_000)
        let sent = try #require(pair.air.advertisingPDUs(from: pair.peripheral).first)
        guard case let .advInd(address, _) = sent.pdu.payload else { Issue.record("not ADV_IND"); return }
        #expect(PrivatePair.isPrivate(address, of: PrivatePair.peripheralIRK))
        #expect(!PrivatePair.isPrivate(address, of: PrivatePair.centralIRK))
        #expect(address != pair.air.address(pair.peripheral))
        guard case let .commandComplete(local)? = pair.air.command(
            pair.peripheral, HCI.LEReadLocalResolvableAddress(peerIdentityAddress: BluetoothAddress(0))).first
        else { Issue.record("no answer"); return }
        let read = try local.returnParameters(for: HCI.LEReadLocalResolvableAddress.self)
        #expect(read.status == .success)
        #expect(read.localResolvableAddress == address)
    }

    @Test("without resolution, own address type 0x02 falls back to the public address")
    func fallsBackWithoutResolution() throws {
        var air = TestAir()
        let device = air.add(address: 0xF0_00_00_00_00_01, seed: 1)
        air.command(device, HCI.LEAddDeviceToResolvingList(peerIdentityAddress: BluetoothAddress(0), peerIRK: 0, localIRK: 3))
        air.command(device, HCI.LESetAdvertisingParameters(
            advertisingIntervalMin: 0x00A0, advertisingIntervalMax: 0x00A0, advertisingType: .connectableUndirected,
            ownAddressType: .resolvableOrPublic))
        air.command(device, HCI.LESetAdvertisingEnable(advertisingEnable: true))
        air.run(until: 200_000)
        let sent = try #require(air.advertisingPDUs(from: device).first)
        #expect(sent.pdu.payload.senderAddress == air.address(device))
    }

    @Test("a scanner with the advertiser's IRK reports its identity with type 0x02 and remembers the private address")
    func reportsIdentity() throws {
        var pair = PrivatePair()
        pair.advertise()
        pair.air.startScanning(pair.central, active: false)
        pair.air.run(until: 400_000)
        let report = try #require(pair.air.reports(pair.central).first)
        #expect(report.address == pair.air.address(pair.peripheral))
        #expect(report.addressType == .publicIdentity)
        guard case let .commandComplete(peer)? = pair.air.command(
            pair.central, HCI.LEReadPeerResolvableAddress(peerIdentityAddress: pair.air.address(pair.peripheral))).first
        else { Issue.record("no answer"); return }
        let read = try peer.returnParameters(for: HCI.LEReadPeerResolvableAddress.self)
        #expect(PrivatePair.isPrivate(read.peerResolvableAddress, of: PrivatePair.peripheralIRK))
    }

    @Test("a scanner without the IRK sees the private address with type 0x01")
    func strangerSeesPrivateAddress() throws {
        var pair = PrivatePair()
        let stranger = pair.air.add(address: 0xF0_00_00_00_00_03, seed: 3)
        pair.advertise()
        pair.air.startScanning(stranger, active: false)
        pair.air.run(until: 400_000)
        let report = try #require(pair.air.reports(stranger).first)
        #expect(report.addressType == .random)
        #expect(PrivatePair.isPrivate(report.address, of: PrivatePair.peripheralIRK))
    }

    @Test("Create Connection to the identity (type 0x02) connects to the private address; both Enhanced Connection Completes carry identities and both private addresses")
    func connectsByIdentity() throws {
        var pair = PrivatePair()
        pair.advertise()
        let peripheralIdentity = pair.air.address(pair.peripheral)
        var create = TestAir.createConnection(to: peripheralIdentity)
        create.peerAddressType = .publicIdentity
        create.ownAddressType = .resolvableOrRandom
        #expect(pair.air.command(pair.central, create).first?.commandResult?.status == 0x00)
        pair.air.run(until: 400_000)
        let completes = { (index: Int) in
            pair.air.devices[index].events.compactMap { item -> HCI.LEEnhancedConnectionComplete? in
                if case let .leMeta(.enhancedConnectionComplete(event)) = item.event { return event }
                return nil
            }
        }
        let central = try #require(completes(pair.central).first)
        let peripheral = try #require(completes(pair.peripheral).first)
        #expect(central.status == .success)
        #expect(central.peerAddress == peripheralIdentity)
        #expect(central.peerAddressType == .publicIdentity)
        #expect(PrivatePair.isPrivate(central.peerResolvablePrivateAddress, of: PrivatePair.peripheralIRK))
        #expect(PrivatePair.isPrivate(central.localResolvablePrivateAddress, of: PrivatePair.centralIRK))
        #expect(peripheral.peerAddress == pair.air.address(pair.central))
        #expect(peripheral.peerAddressType == .publicIdentity)
        #expect(peripheral.peerResolvablePrivateAddress == central.localResolvablePrivateAddress)
        #expect(peripheral.localResolvablePrivateAddress == central.peerResolvablePrivateAddress)
        // The CONNECT_IND on the air names only private addresses.
        let connect = try #require(pair.air.advertisingPDUs(from: pair.central).first)
        guard case let .connectInd(initA, advA, _) = connect.pdu.payload else { Issue.record("no CONNECT_IND"); return }
        #expect(initA == central.localResolvablePrivateAddress)
        #expect(advA == central.peerResolvablePrivateAddress)
    }

    @Test("the filter accept list matches a resolved identity")
    func filterAcceptListMatchesIdentity() throws {
        var pair = PrivatePair()
        pair.advertise()
        pair.air.command(pair.central, HCI.LEAddDeviceToFilterAcceptList(addressType: .public, address: pair.air.address(pair.peripheral)))
        pair.air.startScanning(pair.central, active: false, filterPolicy: .basicFiltered)
        pair.air.run(until: 400_000)
        #expect(pair.air.reports(pair.central).first?.address == pair.air.address(pair.peripheral))
    }

    @Test("network privacy mode ignores a listed peer that advertises under its identity; device mode reports it")
    func privacyModes() {
        var air = TestAir()
        let advertiser = air.add(address: 0xF0_00_00_00_00_01, seed: 1)
        let scanner = air.add(address: 0xF0_00_00_00_00_02, seed: 2)
        air.command(scanner, HCI.LEAddDeviceToResolvingList(peerIdentityAddress: air.address(advertiser), peerIRK: 9, localIRK: 0))
        air.command(scanner, HCI.LESetAddressResolutionEnable(addressResolutionEnable: true))
        air.startAdvertising(advertiser)
        air.startScanning(scanner, active: false)
        air.run(until: 400_000)
        #expect(air.reports(scanner).isEmpty)
        air.command(scanner, HCI.LESetScanEnable(leScanEnable: false))
        air.command(scanner, HCI.LESetPrivacyMode(peerIdentityAddress: air.address(advertiser), privacyMode: .device))
        air.startScanning(scanner, active: false)
        air.run(until: 800_000)
        #expect(air.reports(scanner).first?.address == air.address(advertiser))
    }

    @Test("after RPA_Timeout a running advertiser moves to a new private address of the same IRK")
    func rotatesAtTimeout() throws {
        var pair = PrivatePair()
        pair.air.command(pair.peripheral, HCI.LESetResolvablePrivateAddressTimeout(rpaTimeout: 1))
        pair.advertise()
        pair.air.run(until: 2_500_000)
        var addresses: [BluetoothAddress] = []
        for sent in pair.air.advertisingPDUs(from: pair.peripheral) {
            if let address = sent.pdu.payload.senderAddress, !addresses.contains(address) { addresses.append(address) }
        }
        #expect(addresses.count >= 2)
        for address in addresses { #expect(PrivatePair.isPrivate(address, of: PrivatePair.peripheralIRK)) }
    }
}
