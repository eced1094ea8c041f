@testable import BLE
import SimulatedTesting
import Testing

/// The security a central meets as Apple's and BlueZ's users expect it: a value declared
/// with a read condition alone is read once the link is encrypted; a subscription that
/// needs encryption pairs first; a refusal for want of security pairs (or encrypts with the
/// bond) once per request and runs the request once more, and when pairing fails the
/// original ATT error is what the app sees (Core 5.4, Vol 3, Part F, §3.4.1.1; Part C,
/// §10.3.1; iOS and BlueZ both pair on Insufficient Authentication/Encryption and retry).
@Suite("Security upgrades through the front door", .simulated, .serialized, .timeLimit(.minutes(5)))
struct SecurityUpgradeTests {
    static let service = BluetoothUUID(0xFE10)
    /// `[.read]`, permissions `[.readEncryptionRequired]` alone, as Apple's guide writes it.
    static let secret = BluetoothUUID(0xFE11)
    /// `[.read, .notify]`, readable by anyone, subscribing needs encryption.
    static let feed = BluetoothUUID(0xFE12)
    /// `[.read]`, permissions `[.readAuthenticationRequired]` alone: Just Works is not enough.
    static let guarded = BluetoothUUID(0xFE13)
    static let secretValue = Array("trusted eyes only".utf8)

    /// A bench whose server publishes the three characteristics above.
    static func bench() async throws -> PairingBench {
        let world = try await SharedWorld.make(devices: 2, bonds: { _ in .memory })
        let server = world.devices[0]
        let published = try await server.peripheral.publish {
            Service(Self.service) {
                Characteristic(Self.secret, properties: [.read], permissions: [.readEncryptionRequired], value: Self.secretValue)
                Characteristic(Self.feed, properties: [.read, .notify], permissions: .readable,
                               subscriptionPermissions: .writeEncryptionRequired, value: [0x01])
                Characteristic(Self.guarded, properties: [.read], permissions: [.readAuthenticationRequired], value: [0x02])
            }
        }
        return PairingBench(world: world, server: server, client: world.devices[1], published: published)
    }

    static func characteristic(_ uuid: BluetoothUUID, on connection: Connection) async throws -> RemoteCharacteristic {
        let services = try await connection.services([Self.service])
        let characteristics = try await connection.characteristics(of: try #require(services.first))
        return try #require(characteristics.first { $0.uuid == uuid })
    }

    @Test("a value with readEncryptionRequired alone is read after one pairing, not refused as Read Not Permitted")
    func readConditionAloneReads() async throws {
        let bench = try await Self.bench()
        await bench.configure(central: PairingOptions(), peripheral: PairingOptions())
        let connection = try await bench.connect()
        let secret = try await Self.characteristic(Self.secret, on: connection)
        #expect(await connection.securityLevel == .none)
        #expect(try await connection.read(secret) == Self.secretValue)
        #expect(await connection.securityLevel == .unauthenticated)
        #expect(bench.clientLog.paired.map(\.method) == [.justWorks], "paired once, with Just Works")
        await bench.world.close()
    }

    @Test("a subscription that needs encryption pairs first, then subscribes; the value itself reads without pairing")
    func subscriptionPairsFirst() async throws {
        let bench = try await Self.bench()
        await bench.configure(central: PairingOptions(), peripheral: PairingOptions())
        let local = try #require(bench.published.characteristic(Self.feed))
        let connection = try await bench.connect()
        let feed = try await Self.characteristic(Self.feed, on: connection)
        #expect(feed.properties.contains(.notify))
        #expect(try await connection.read(feed) == [0x01])
        #expect(await connection.securityLevel == .none, "reading needed no pairing")
        let notifications = try await connection.notifications(for: feed)
        #expect(await connection.securityLevel == .unauthenticated, "subscribing paired")
        #expect(bench.clientLog.paired.count == 1)
        #expect(await bench.server.peripheral.subscribers(of: local) == [connection.handle])
        #expect(try await bench.server.peripheral.notify([0x2A], to: local) == 1)
        let first = try await within { () async -> [UInt8]? in
            for await value in notifications { return value }
            return nil
        }
        #expect(first == [0x2A])
        await bench.world.close()
    }

    @Test("one pairing per request, no loop: a value that needs authentication, met by Just Works, fails with Insufficient Authentication after one pairing")
    func oncePerRequest() async throws {
        let bench = try await Self.bench()
        await bench.configure(central: PairingOptions(), peripheral: PairingOptions())
        let connection = try await bench.connect()
        let guarded = try await Self.characteristic(Self.guarded, on: connection)
        await #expect(throws: BLEError.att(.insufficientAuthentication, handle: guarded.valueHandle)) {
            try await connection.read(guarded)
        }
        #expect(bench.clientLog.paired.map(\.method) == [.justWorks], "one pairing, then the one retry failed")
        #expect(await connection.securityLevel == .unauthenticated)
        await bench.world.close()
    }

    @Test("when pairing fails the request fails with the server's original ATT error, Insufficient Authentication (0x05)")
    func pairingFailsReportsOriginalError() async throws {
        let bench = try await Self.bench()
        await bench.configure(central: PairingOptions(legacyOnly: true), peripheral: PairingOptions(secureConnectionsOnly: true))
        let connection = try await bench.connect()
        let secret = try await Self.characteristic(Self.secret, on: connection)
        await #expect(throws: BLEError.att(.insufficientAuthentication, handle: secret.valueHandle)) {
            try await connection.read(secret)
        }
        #expect(bench.clientLog.failed == [.pairingFailed(.authenticationRequirements)], "the pairing was tried, and failed")
        #expect(await connection.securityLevel == .none)
        await bench.world.close()
    }

    @Test("with a bond the refused request encrypts with the stored key (Insufficient Encryption), no pairing again")
    func bondEncrypts() async throws {
        let bench = try await Self.bench()
        await bench.configure(central: PairingOptions(), peripheral: PairingOptions())
        let connection = try await bench.connect()
        try await connection.pair()
        try await bench.serverLog.wait { $0.paired.count == 1 }
        try await connection.disconnect()
        let again = try await bench.connect()
        #expect(again.isBonded)
        let secret = try await Self.characteristic(Self.secret, on: again)
        #expect(try await again.read(secret) == Self.secretValue)
        #expect(await again.securityLevel == .unauthenticated)
        #expect(bench.clientLog.paired.count == 1 && bench.serverLog.paired.count == 1, "encrypted with the bond, not paired again")
        await bench.world.close()
    }
}
