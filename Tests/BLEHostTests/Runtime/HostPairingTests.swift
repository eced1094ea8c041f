import BLEHost
import BLEWire
import SimulatedTesting
import Testing

/// A user that types what the other side shows: the display hands the passkey to the
/// keyboard through a stream, so entering waits for it to be shown.
final class PasskeyUser: PairingAgent {
    private let shown: AsyncStream<UInt32>
    private let show: AsyncStream<UInt32>.Continuation
    let typed: UInt32?
    let accepts: Bool

    /// `typed` overrides the shown passkey (a wrong one); nil types what is shown.
    init(typed: UInt32? = nil, accepts: Bool = true) {
        self.typed = typed
        self.accepts = accepts
        (shown, show) = AsyncStream.makeStream(of: UInt32.self, bufferingPolicy: .bufferingNewest(1))
    }

    func displayPasskey(_ passkey: UInt32, on connection: UInt16) async { show.yield(passkey) }
    func enterPasskey(on connection: UInt16) async -> UInt32? {
        if let typed { return typed }
        for await passkey in shown { return passkey }
        return nil
    }
    func confirmNumber(_ number: UInt32, on connection: UInt16) async -> Bool { accepts }
}

/// Pairing between two of our hosts over a simulated world: SMP carried by the host,
/// encryption started with what it derives, the controller's LTK request answered from it.
@Suite("Host pairing over a simulated world", .simulated, .serialized, .timeLimit(.minutes(3)))
struct HostPairingTests {
    static func protectedService() -> [GATTServiceDefinition] {
        [GATTServiceDefinition(uuid: BluetoothUUID(0xFFF0), characteristics: [
            GATTCharacteristicDefinition(uuid: BluetoothUUID(0xFFF1), properties: [.read],
                                         permissions: [.readable, .readEncryptionRequired], value: .stored([0x42])),
        ])]
    }

    static func run(central: SMPConfiguration, peripheral: SMPConfiguration, agent: PasskeyUser? = nil,
                    peripheralAgent: PasskeyUser? = nil) async throws -> (ConnectedHosts, Result<SMPPairingResult, any Error>) {
        let hosts = try await ConnectedHosts.make(speed: 20, timing: "ideal")
        await hosts.central.setPairingConfiguration(central)
        await hosts.peripheral.setPairingConfiguration(peripheral)
        let shared = agent ?? PasskeyUser()
        await hosts.central.setPairingAgent(shared)
        await hosts.peripheral.setPairingAgent(peripheralAgent ?? shared)
        do {
            return (hosts, .success(try await hosts.central.pair(hosts.centralHandle)))
        } catch {
            return (hosts, .failure(error))
        }
    }

    /// The peripheral's security level once its own Encryption Change has come: that may be
    /// after the central's `pair()` returned, on a loaded machine.
    static func peripheralLevelOnceEncrypted(_ hosts: ConnectedHosts) async throws -> LinkSecurityLevel {
        let handle = hosts.peripheralHandle
        _ = try await firstElement(of: hosts.peripheral.events, within: patience) {
            if case .encryptionChanged(handle, _) = $0 { return true } else { return false }
        }
        return await hosts.peripheral.linkSecurity(handle).level
    }

    @Test("Secure Connections Just Works pairs, encrypts both ends, and the encryption-required value reads",
          arguments: [true, false])
    func justWorks(secureConnections: Bool) async throws {
        let configuration = SMPConfiguration(secureConnections: secureConnections)
        let (hosts, outcome) = try await Self.run(central: configuration, peripheral: configuration)
        let result = try outcome.get()
        #expect(result.level == .unauthenticated)
        #expect(result.secureConnections == secureConnections)
        #expect(result.bonded)
        #expect(await hosts.central.linkSecurity(hosts.centralHandle).level == .unauthenticated)
        #expect(try await Self.peripheralLevelOnceEncrypted(hosts) == .unauthenticated)
        let database = try await hosts.peripheral.publishGATT(Self.protectedService())
        let handle = try #require(database.valueHandle(of: BluetoothUUID(0xFFF1), inService: BluetoothUUID(0xFFF0)))
        guard case let .value(value) = try await hosts.central.gatt(.read(handle), on: hosts.centralHandle) else { throw TimedOut() }
        #expect(value == [0x42])
        await hosts.close()
    }

    @Test("Passkey Entry with the peripheral displaying gives an authenticated Secure Connections link")
    func passkey() async throws {
        let (hosts, outcome) = try await Self.run(
            central: SMPConfiguration(ioCapability: .keyboardOnly, mitmRequired: true),
            peripheral: SMPConfiguration(ioCapability: .displayOnly, mitmRequired: true))
        let result = try outcome.get()
        #expect(result.level == .authenticatedSecureConnections)
        #expect(try await Self.peripheralLevelOnceEncrypted(hosts) == .authenticatedSecureConnections)
        await hosts.close()
    }

    @Test("a wrong passkey fails with Confirm Value Failed on both sides and leaves the link unencrypted")
    func wrongPasskey() async throws {
        let display = PasskeyUser()
        let hosts = try await ConnectedHosts.make(speed: 20, timing: "ideal")
        await hosts.central.setPairingConfiguration(SMPConfiguration(ioCapability: .keyboardOnly, mitmRequired: true))
        await hosts.peripheral.setPairingConfiguration(SMPConfiguration(ioCapability: .displayOnly, mitmRequired: true))
        await hosts.central.setPairingAgent(PasskeyUser(typed: 111_111))
        await hosts.peripheral.setPairingAgent(display)
        let peripheralEvents = hosts.peripheral.securityEvents
        var centralSaw: SMPPairingFailure?
        do {
            try await hosts.central.pair(hosts.centralHandle)
        } catch let HostPairingError.failed(failure) {
            centralSaw = failure
        }
        var peripheralSaw: SMPPairingFailure?
        for await event in peripheralEvents {
            if case let .pairingFailed(_, _, failure) = event { peripheralSaw = failure; break }
        }
        // One side detects the mismatch and sends the reason, the other receives it.
        let outcomes = [centralSaw, peripheralSaw]
        #expect(outcomes.contains(.sent(.confirmValueFailed)) && outcomes.contains(.received(.confirmValueFailed)),
                "central \(String(describing: centralSaw)), peripheral \(String(describing: peripheralSaw))")
        #expect(await hosts.central.linkSecurity(hosts.centralHandle).level == .none)
        await hosts.close()
    }
}
