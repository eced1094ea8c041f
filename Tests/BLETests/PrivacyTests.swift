@testable import BLE
import BLEStorage
import Foundation
import SimulatedTesting
import Testing

/// Privacy through the front door (Core 5.4, Vol 3, Part C, §10.7): our IRK kept in the
/// bond file, bonded peers recognised across restarts, identities shown to the app.
@Suite("Privacy through the front door", .simulated, .serialized, .timeLimit(.minutes(5)))
struct PrivacyTests {
    @Test("bonded with privacy on both sides, reopened devices find each other by identity through private addresses and re-encrypt with the bond")
    func bondedPrivacyAcrossRestarts() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("privacyble-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let files = { (index: Int) in BondStorage.file("\(directory)/bonds-\(index).json") }

        let first = try await PairingBench.make(bonds: files)
        try await first.server.enablePrivacy()
        try await first.client.enablePrivacy()
        await first.configure(central: PairingOptions(), peripheral: PairingOptions())
        _ = try await first.server.peripheral.advertise(name: "vault", interval: .milliseconds(20))
        // Not bonded yet: the scan shows a private address of the server's, and the
        // connection goes to it.
        let stranger = try await Self.find("vault", from: first.client)
        #expect(stranger.address != first.world.addresses[0] && stranger.address.value >> 46 == 0b01)
        let connection = try await first.client.central.connect(to: stranger, parameters: .fast, timeout: .seconds(patience))
        #expect(try await connection.pair().method == .justWorks)
        try await first.serverLog.wait { $0.paired.count == 1 }
        let identifier = connection.peerIdentifier
        await first.world.close()
        var keys: [UInt128] = []
        for index in 0 ..< 2 {
            let store = try BondStoreFile(path: "\(directory)/bonds-\(index).json").load()
            let ours = try #require(store.localIdentityResolvingKey, "our IRK is kept in the file")
            keys.append(ours)
            let bond = try #require(store.sortedRecords.first)
            #expect(bond.identityAddress == first.world.addresses[1 - index])
            #expect(bond.peerKeys.identityResolvingKey != nil, "the peer handed out its IRK")
        }
        #expect(keys[0] != keys[1])

        let second = try await PairingBench.make(bonds: files)
        try await second.server.enablePrivacy()
        try await second.client.enablePrivacy()
        #expect(await second.client.resolvesAddressesInController)
        // The same IRKs as before the restart.
        for index in 0 ..< 2 {
            let store = try BondStoreFile(path: "\(directory)/bonds-\(index).json").load()
            #expect(store.localIdentityResolvingKey == keys[index])
        }
        await second.configure(central: PairingOptions(), peripheral: PairingOptions())
        _ = try await second.server.peripheral.advertise(name: "vault", interval: .milliseconds(20))
        let advertisement = try await Self.find("vault", from: second.client)
        #expect(advertisement.address == second.world.addresses[0], "the scan shows the bonded peer's identity")
        let again = try await second.client.central.connect(
            to: second.world.addresses[0], parameters: .fast, timeout: .seconds(patience))
        #expect(again.peer == second.world.addresses[0])
        #expect(again.isBonded && again.peerIdentifier == identifier)
        let result = try await again.pair()
        #expect(result.method == nil && result.bonded, "encrypted with the stored key")
        #expect(try await again.read(try await second.secret(on: again)) == PairingBench.secretValue)
        await second.world.close()
    }

    /// The first advertisement named `name` that `device` scans.
    static func find(_ name: String, from device: BLEDevice) async throws -> Advertisement {
        try await first(of: try await device.central.scan()) { $0.localName == name }
    }

    @Test("enablePrivacy refuses a rotation under one second")
    func rotationBound() async throws {
        let world = try await SharedWorld.make(devices: 1)
        await #expect(throws: BLEError.self) { try await world.devices[0].enablePrivacy(rotation: .milliseconds(10)) }
        await world.close()
    }
}
