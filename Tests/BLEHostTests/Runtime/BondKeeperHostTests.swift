import BLEHost
import BLEStorage
import BLEWire
import SimulatedTesting
import Testing

/// Bonds kept by BondKeeper between two of our hosts: a bonding pairing is saved on both
/// sides, and after reconnecting the link is encrypted with the stored key, no pairing.
@Suite("Bond keeper on two hosts", .simulated, .serialized, .timeLimit(.minutes(3)))
struct BondKeeperHostTests {
    /// Pairs with bonding, disconnects and reconnects; returns the hosts and both keepers.
    static func bondedAndReconnected(secureConnections: Bool)
        async throws -> (hosts: ConnectedHosts, central: BondKeeper, peripheral: BondKeeper, handles: (UInt16, UInt16)) {
        let hosts = try await ConnectedHosts.make(speed: 20, timing: "ideal")
        let configuration = SMPConfiguration(secureConnections: secureConnections)
        await hosts.central.setPairingConfiguration(configuration)
        await hosts.peripheral.setPairingConfiguration(configuration)
        let centralKeeper = BondKeeper()
        let peripheralKeeper = BondKeeper()
        await centralKeeper.attach(to: hosts.central)
        await peripheralKeeper.attach(to: hosts.peripheral)
        let saved = await peripheralKeeper.events()
        let result = try await hosts.central.pair(hosts.centralHandle)
        #expect(result.bonded)
        let peripheralSaw = try await firstElement(of: saved, within: patience) {
            if case .paired = $0 { return true } else { return false }
        }
        guard case let .paired(_, _, _, record) = peripheralSaw else { throw TimedOut() }
        #expect(record != nil)
        #expect(await centralKeeper.store.records.count == 1)

        let events = hosts.peripheral.events
        try await hosts.central.disconnect(hosts.centralHandle)
        _ = try await firstElement(of: events, within: patience) {
            if case .disconnected = $0 { return true } else { return false }
        }
        try await hosts.peripheral.startAdvertising(GAPAdvertisingParameters(intervalMin: 32, intervalMax: 32))
        let link = try await hosts.central.connect(GAPConnectRequest(peer: hosts.running.addresses[0], timeout: 60_000_000))
        let up = try await firstElement(of: events, within: patience) {
            if case .connected = $0 { return true } else { return false }
        }
        guard case let .connected(peripheralLink) = up else { throw TimedOut() }
        await peripheralKeeper.noteConnection(peripheralLink, on: hosts.peripheral)
        return (hosts, centralKeeper, peripheralKeeper, (link.handle, peripheralLink.handle))
    }

    @Test("the central re-encrypts a reconnected link with the stored key; the peripheral's provider answers",
          arguments: [true, false])
    func centralReencrypts(secureConnections: Bool) async throws {
        let (hosts, central, peripheral, handles) = try await Self.bondedAndReconnected(secureConnections: secureConnections)
        let pairings = await peripheral.events()
        let peripheralEvents = hosts.peripheral.events
        #expect(await hosts.peripheral.linkSecurity(handles.1).hasKey)
        let encryption = try #require(try await central.encrypt(handles.0, on: hosts.central))
        #expect(encryption.level == .unauthenticated)
        #expect(encryption.keySize == 16)
        // The central's Encryption Change can come before the peripheral's.
        _ = try await firstElement(of: peripheralEvents, within: patience) {
            if case .encryptionChanged = $0 { return true } else { return false }
        }
        #expect(await hosts.peripheral.linkSecurity(handles.1).level == .unauthenticated)
        let database = try await hosts.peripheral.publishGATT(HostPairingTests.protectedService())
        let value = try #require(database.valueHandle(of: BluetoothUUID(0xFFF1), inService: BluetoothUUID(0xFFF0)))
        guard case let .value(read) = try await hosts.central.gatt(.read(value), on: handles.0) else { throw TimedOut() }
        #expect(read == [0x42])
        await peripheral.detach()
        var sawPairing = false
        for await event in pairings { if case .paired = event { sawPairing = true } }
        #expect(!sawPairing)
        await hosts.close()
    }

    @Test("a Security Request from the bonded peripheral is answered by encrypting with the stored key")
    func securityRequestUsesBond() async throws {
        let (hosts, central, peripheral, handles) = try await Self.bondedAndReconnected(secureConnections: true)
        #expect(await central.encryptionKey(for: hosts.running.addresses[0]) != nil, "the central holds the bond")
        // The keeper's closures on the host hold it weakly: keep it alive to the end.
        defer { withExtendedLifetime(central) {} }
        let pairings = await peripheral.events()
        let centralEvents = hosts.central.events
        // The peripheral's pair() sends the Security Request and returns once the central
        // has answered by encrypting with its stored key, saying no pairing ran.
        let peripheralHost = hosts.peripheral
        let peripheralHandle = handles.1
        let request = Task { () -> HostPairingError? in
            do {
                let result = try await peripheralHost.pair(peripheralHandle)
                Issue.record("pair() paired instead: \(result)")
                return nil
            } catch let error as HostPairingError {
                return error
            } catch {
                Issue.record("pair() threw \(error)")
                return nil
            }
        }
        let changed = try await firstElement(of: centralEvents, within: patience) {
            if case .encryptionChanged = $0 { return true } else { return false }
        }
        guard case let .encryptionChanged(handle, encryption) = changed else { throw TimedOut() }
        #expect(handle == handles.0)
        #expect(encryption.level == .unauthenticated)
        guard case let .encryptedWithStoredKey(peripheralSide)? = await request.value else {
            Issue.record("the peripheral's pair() did not report the stored-key encryption")
            throw TimedOut()
        }
        #expect(peripheralSide.keySize == 16)
        await peripheral.detach()
        var sawPairing = false
        for await event in pairings { if case .paired = event { sawPairing = true } }
        #expect(!sawPairing)
        await hosts.close()
    }
}
