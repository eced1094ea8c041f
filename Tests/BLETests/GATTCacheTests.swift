@testable import BLE
import Foundation
import SimulatedTesting
import Testing

/// A peer's whole GATT tree as the front door gives it: services with their characteristics.
struct DiscoveredTree: Equatable {
    var services: [RemoteService]
    var characteristics: [[RemoteCharacteristic]]

    /// Discovers everything through `connection` (from its cache when it has one).
    static func discover(on connection: Connection) async throws -> DiscoveredTree {
        let services = try await connection.services()
        var characteristics: [[RemoteCharacteristic]] = []
        for service in services { characteristics.append(try await connection.characteristics(of: service)) }
        return DiscoveredTree(services: services, characteristics: characteristics)
    }
}

/// The front door's GATT cache (Core 5.4, Vol 3, Part G, §2.5.2, §7.3) between two devices
/// of one world: within a connection every tree is reused; across connections only a bonded
/// peer's, while its Database Hash stays the same.
@Suite("GATT cache through the front door", .simulated, .serialized, .timeLimit(.minutes(5)))
struct GATTCacheTests {
    static let extra = BluetoothUUID(0xFE10)
    /// What a reconnection to a bonded peer with a valid cache sends: Exchange MTU, and the
    /// Database Hash read — Read Using Characteristic UUID over the whole range, which the
    /// host's client continues past the hash until Attribute Not Found (two Read By Type
    /// Requests). Discovering this tree takes more than a dozen.
    static let hashCheck = 3

    /// ATT PDUs the central's bearer sent on `connection` so far.
    static func sent(_ bench: PairingBench, _ connection: Connection) async -> Int {
        await bench.client.core.host.attCounters(on: connection.handle)?.pdusSent ?? -1
    }

    /// A bonded pair of devices whose store files live in `directory`, with the central
    /// connected and bonded.
    static func bonded(in directory: String) async throws -> (PairingBench, Connection) {
        let bench = try await PairingBench.make { BondStorage.file("\(directory)/bonds-\($0).json") }
        await bench.configure(central: PairingOptions(), peripheral: PairingOptions())
        let connection = try await bench.connect()
        _ = try await connection.pair()
        try await bench.serverLog.wait { $0.paired.count == 1 }
        #expect(connection.isBonded)
        return (bench, connection)
    }

    static func scratch() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("gattcache-\(UUID().uuidString)").path
    }

    @Test("a bonded peer's tree comes from the bond on reconnection and after a restart: only the hash is read")
    func bondedReuse() async throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (bench, connection) = try await Self.bonded(in: directory)
        let tree = try await DiscoveredTree.discover(on: connection)
        #expect(tree.services.map(\.uuid) == [BluetoothUUID(0x1800), BluetoothUUID(0x1801), PairingBench.service])
        let afterDiscovery = await Self.sent(bench, connection)
        #expect(try await DiscoveredTree.discover(on: connection) == tree)
        #expect(await Self.sent(bench, connection) == afterDiscovery, "within a connection nothing is sent again")
        try await connection.disconnect()

        let again = try await bench.connect()
        #expect(try await DiscoveredTree.discover(on: again) == tree)
        let sentAgain = await Self.sent(bench, again)
        #expect(sentAgain == Self.hashCheck, "Exchange MTU and the Database Hash read, no discovery")
        // The cached handles work: a read through them.
        let secret = try #require(tree.characteristics[2].first { $0.uuid == PairingBench.secret })
        #expect(try await again.read(secret) == PairingBench.secretValue)
        await bench.world.close()

        let saved = try String(contentsOfFile: "\(directory)/bonds-1.json", encoding: .utf8)
        #expect(saved.contains("\"gattServices\"") && saved.contains("\"databaseHash\""), "the central's file holds the cache")
        let reopened = try await PairingBench.make { BondStorage.file("\(directory)/bonds-\($0).json") }
        await reopened.configure(central: PairingOptions(), peripheral: PairingOptions())
        let restarted = try await reopened.connect()
        #expect(restarted.isBonded)
        #expect(try await DiscoveredTree.discover(on: restarted) == tree)
        let sentRestarted = await Self.sent(reopened, restarted)
        #expect(sentRestarted == Self.hashCheck, "after a restart too, only the hash is read")
        await reopened.world.close()
    }

    @Test("a changed database is discovered again on reconnection, and the new tree is kept")
    func changedDatabase() async throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (bench, connection) = try await Self.bonded(in: directory)
        let tree = try await DiscoveredTree.discover(on: connection)
        try await connection.disconnect()
        _ = try await bench.server.peripheral.publish {
            Service(PairingBench.service) {
                Characteristic(PairingBench.secret, properties: [.read], permissions: [.readable, .readEncryptionRequired],
                               value: PairingBench.secretValue)
                Characteristic(PairingBench.pulse, properties: [.notify])
            }
            Service(Self.extra) { Characteristic(Self.extra, properties: [.read], value: [0x2A]) }
        }

        let again = try await bench.connect()
        let changed = try await DiscoveredTree.discover(on: again)
        #expect(changed != tree)
        #expect(changed.services.map(\.uuid).last == Self.extra)
        #expect(changed.characteristics.last?.map(\.uuid) == [Self.extra])
        #expect(await Self.sent(bench, again) > Self.hashCheck + 5, "discovery requests were sent")
        try await again.disconnect()

        let third = try await bench.connect()
        #expect(try await DiscoveredTree.discover(on: third) == changed)
        let sentThird = await Self.sent(bench, third)
        #expect(sentThird == Self.hashCheck, "the rediscovered tree was kept")
        await bench.world.close()
    }

    @Test("a Service Changed indication while connected makes the next call discover again")
    func serviceChangedIndication() async throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (bench, connection) = try await Self.bonded(in: directory)
        let tree = try await DiscoveredTree.discover(on: connection)
        #expect(!tree.services.contains { $0.uuid == Self.extra })
        _ = try await bench.server.peripheral.publish {
            Service(PairingBench.service) { Characteristic(PairingBench.pulse, properties: [.notify]) }
            Service(Self.extra) { Characteristic(Self.extra, properties: [.read], value: [0x2A]) }
        }
        // The indication arrives on its own time: ask until the tree shows the change.
        let changed = try await within {
            while true {
                let services = try await connection.services()
                if services.contains(where: { $0.uuid == Self.extra }) { return services }
                try await testClock.sleep(for: .milliseconds(20))  // polling the tree on virtual time
            }
        }
        let extra = try #require(changed.last)
        #expect(try await connection.characteristics(of: extra).map(\.uuid) == [Self.extra])
        await bench.world.close()
    }

    @Test("a tree discovered before bonding is kept once the peer bonds")
    func bondedAfterDiscovery() async throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let bench = try await PairingBench.make { BondStorage.file("\(directory)/bonds-\($0).json") }
        await bench.configure(central: PairingOptions(), peripheral: PairingOptions())
        let connection = try await bench.connect()
        let tree = try await DiscoveredTree.discover(on: connection)
        _ = try await connection.pair()
        try await bench.serverLog.wait { $0.paired.count == 1 }
        #expect(try await DiscoveredTree.discover(on: connection) == tree)
        #expect(bench.client.core.security.bonds.record(for: connection.peer)?.gattCache?.services.count == 3)
        try await connection.disconnect()

        let again = try await bench.connect()
        #expect(try await DiscoveredTree.discover(on: again) == tree)
        let sent = await Self.sent(bench, again)
        #expect(sent == Self.hashCheck)
        await bench.world.close()
    }

    @Test("a bonded peer without a Database Hash is discovered again on every connection")
    func peerWithoutHash() async throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (bench, connection) = try await Self.bonded(in: directory)
        // No GATT service, so no Database Hash characteristic (§7.3).
        let services = [Service(PairingBench.service) { Characteristic(PairingBench.pulse, properties: [.notify]) }]
        try await bench.server.core.host.publishGATT(services.map(\.definition),
                                                     configuration: .init(includesStandardServices: false))
        try await connection.disconnect()

        let again = try await bench.connect()
        let tree = try await DiscoveredTree.discover(on: again)
        #expect(tree.services.map(\.uuid) == [PairingBench.service])
        let first = await Self.sent(bench, again)
        #expect(bench.client.core.security.bonds.record(for: again.peer)?.gattCache == nil, "nothing to check a tree by")
        try await again.disconnect()

        let third = try await bench.connect()
        #expect(try await DiscoveredTree.discover(on: third) == tree)
        #expect(await Self.sent(bench, third) == first, "the same discovery again")
        #expect(first > Self.hashCheck)
        await bench.world.close()
    }

    @Test("an unbonded peer's tree is reused within a connection and discovered again on the next")
    func unbondedPeer() async throws {
        let bench = try await PairingBench.make()
        let connection = try await bench.connect()
        let tree = try await DiscoveredTree.discover(on: connection)
        let afterDiscovery = await Self.sent(bench, connection)
        #expect(try await DiscoveredTree.discover(on: connection) == tree)
        #expect(await Self.sent(bench, connection) == afterDiscovery)
        try await connection.disconnect()

        let again = try await bench.connect()
        #expect(!again.isBonded)
        #expect(try await DiscoveredTree.discover(on: again) == tree)
        #expect(await Self.sent(bench, again) == afterDiscovery, "the same discovery again, no hash read")
        await bench.world.close()
    }
}
