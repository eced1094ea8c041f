import BLE
import Foundation
import SimulatedTesting
import Testing

/// One row of the pairing matrix between two SwiftBLE devices.
struct PairingCase: CustomTestStringConvertible, Sendable {
    enum Model: String, Sendable, CaseIterable {
        case justWorks = "Just Works"
        case centralDisplays = "Passkey Entry, central displays"
        case peripheralDisplays = "Passkey Entry, peripheral displays"
        case numericComparison = "Numeric Comparison"
        case outOfBand = "OOB"
    }

    let secureConnections: Bool
    let model: Model
    let bonding: Bool

    var testDescription: String {
        "\(secureConnections ? "SC" : "legacy"), \(model.rawValue), \(bonding ? "bonding" : "no bonding")"
    }

    /// Every combination the specification allows: Numeric Comparison exists only with
    /// Secure Connections; OOB is the legacy Temporary Key or the Secure Connections r and C.
    static let all: [PairingCase] = [false, true].flatMap { secure in
        Model.allCases.filter { secure || $0 != .numericComparison }.flatMap { model in
            [true, false].map { PairingCase(secureConnections: secure, model: model, bonding: $0) }
        }
    }

    /// Both sides' options (Core 5.4, Vol 3, Part H, §2.3.5.1, Table 2.8 picks the model).
    func options() throws -> (central: PairingOptions, peripheral: PairingOptions) {
        // Without MITM asked by either side the IO capabilities are ignored and Just Works
        // is used (§2.3.5.1), so the passkey and number models ask for it.
        let mitm = model != .justWorks && model != .outOfBand
        func make(_ io: PairingOptions.IO) -> PairingOptions {
            PairingOptions(io: io, bonding: bonding, mitm: mitm, legacyOnly: !secureConnections)
        }
        switch model {
        case .justWorks: return (make(.noInputNoOutput), make(.noInputNoOutput))
        case .centralDisplays: return (make(.displayOnly), make(.keyboardOnly))
        case .peripheralDisplays: return (make(.keyboardOnly), make(.displayOnly))
        case .numericComparison: return (make(.displayYesNo), make(.displayYesNo))
        case .outOfBand:
            // Each side's data goes to the other "out of band": here, through the test.
            var central = make(.noInputNoOutput), peripheral = make(.noInputNoOutput)
            guard secureConnections else {
                let key = UInt128.random(in: 1 ... .max)
                central.legacyOutOfBandKey = key
                peripheral.legacyOutOfBandKey = key
                return (central, peripheral)
            }
            // The central's own data is the device's (BLEDevice.makeOutOfBandData, in the test).
            let peripheralData = try LocalOutOfBandData.generate()
            central.peerOutOfBand = peripheralData.data
            peripheral.outOfBand = OutOfBandPairing(local: peripheralData)
            return (central, peripheral)
        }
    }

    var expectedMethod: PairingMethod {
        switch model {
        case .justWorks: return .justWorks
        case .centralDisplays: return .passkeyCentralDisplays
        case .peripheralDisplays: return .passkeyPeripheralDisplays
        case .numericComparison: return .numericComparison
        case .outOfBand: return .outOfBand
        }
    }

    /// Vol 3, Part C, §10.2.1: Just Works is unauthenticated; the others are authenticated,
    /// level 4 with Secure Connections and a 128-bit key.
    var expectedLevel: SecurityLevel {
        guard model != .justWorks else { return .unauthenticated }
        return secureConnections ? .authenticatedSecureConnections : .authenticated
    }
}

/// Pairing through the front door between two SwiftBLE devices in one world.
@Suite("Pairing and bonds through the front door", .simulated, .serialized, .timeLimit(.minutes(5)))
struct PairingTests {
    @Test("the pairing matrix: pairs, encrypts, reads an encryption-required value; a bond re-encrypts without pairing",
          arguments: PairingCase.all)
    func matrix(_ row: PairingCase) async throws {
        let bench = try await PairingBench.make()
        var (central, peripheral) = try row.options()
        if row.model == .outOfBand, row.secureConnections {
            // The central's data as an NFC tag would carry it: AD structures with its address.
            let made = try await bench.client.makeOutOfBandData()
            #expect(made.address == bench.client.address)
            let tag = made.block.advertisingData.encoded()
            let received = try OutOfBandBlock(advertisingData: try AdvertisingData(decoding: tag))
            #expect(received.address == bench.client.address)
            let theirs = try #require(received.secureConnections)
            peripheral.peerOutOfBand = theirs
            #expect(central.outOfBand?.local == nil, "the central pairs with the data its device made")
        }
        await bench.configure(central: central, peripheral: peripheral)
        let connection = try await bench.connect()
        #expect(await connection.securityLevel == .none)

        let result = try await connection.pair()
        #expect(result.method == row.expectedMethod)
        #expect(result.level == row.expectedLevel)
        #expect(result.keySize == 16)
        #expect(result.bonded == row.bonding)
        #expect(result.secureConnections == row.secureConnections)
        #expect(await connection.securityLevel == row.expectedLevel)
        #expect(connection.isBonded == row.bonding)
        try await bench.serverLog.wait { $0.paired.count == 1 }
        #expect(bench.serverLog.paired.first?.method == row.expectedMethod)
        if row.model == .numericComparison {
            #expect(bench.clientLog.comparedNumbers.count == 1)
            #expect(bench.clientLog.comparedNumbers == bench.serverLog.comparedNumbers, "both users see one number")
        }
        let secret = try await bench.secret(on: connection)
        #expect(try await connection.read(secret) == PairingBench.secretValue)

        // Again: a bond encrypts with the stored key (the read's security upgrade does it),
        // no bond means pairing afresh.
        let identifier = connection.peerIdentifier
        try await connection.disconnect()
        let again = try await bench.connect()
        #expect(again.peerIdentifier == identifier)
        #expect(try await again.read(secret) == PairingBench.secretValue)
        #expect(await again.securityLevel == row.expectedLevel)
        try await bench.serverLog.wait { $0.paired.count == (row.bonding ? 1 : 2) }
        #expect(bench.clientLog.paired.count == (row.bonding ? 1 : 2), "pairings the central heard")
        #expect(bench.serverLog.failed.isEmpty && bench.clientLog.failed.isEmpty)
        await bench.world.close()
    }

    @Test("a wrong passkey fails with Confirm Value Failed on both sides", arguments: [false, true])
    func wrongPasskey(secureConnections: Bool) async throws {
        let bench = try await PairingBench.make()
        let central = PairingOptions(io: .keyboardOnly, mitm: true, legacyOnly: !secureConnections)
        let peripheral = PairingOptions(io: .displayOnly, mitm: true, legacyOnly: !secureConnections)
        await bench.configure(central: central, peripheral: peripheral, typo: true)
        let connection = try await bench.connect()
        await #expect(throws: BLEError.pairingFailed(.confirmValueFailed)) { try await connection.pair() }
        try await bench.serverLog.wait { !$0.failed.isEmpty }
        #expect(bench.serverLog.failed == [.pairingFailed(.confirmValueFailed)])
        #expect(bench.clientLog.failed == [.pairingFailed(.confirmValueFailed)])
        #expect(await connection.securityLevel == .none)
        #expect(!connection.isBonded)
        await bench.world.close()
    }

    @Test("a refused number fails with Numeric Comparison Failed, a retry at once with Repeated Attempts; Secure Connections Only refuses a legacy peer")
    func refusals() async throws {
        let bench = try await PairingBench.make()
        await bench.client.setPairing(options: PairingOptions(io: .displayYesNo, mitm: true),
                                      handlers: PairingHandlers(confirmNumber: { _, _ in false }))
        await bench.server.setPairing(options: PairingOptions(io: .displayYesNo, mitm: true),
                                      handlers: PairingHandlers(confirmNumber: { _, _ in true }))
        let connection = try await bench.connect()
        await #expect(throws: BLEError.pairingFailed(.numericComparisonFailed)) { try await connection.pair() }
        await #expect(throws: BLEError.pairingFailed(.repeatedAttempts), "at once again: the back-off of §2.3.6") {
            try await connection.pair()
        }
        await bench.world.close()

        let strict = try await PairingBench.make()
        await strict.client.setPairing(options: PairingOptions(legacyOnly: true))
        await strict.server.setPairing(options: PairingOptions(secureConnectionsOnly: true))
        let again = try await strict.connect()
        await #expect(throws: BLEError.pairingFailed(.authenticationRequirements)) { try await again.pair() }
        #expect(await again.securityLevel == .none)
        await strict.world.close()
    }

    @Test("reading an encryption-required value before pairing pairs transparently, once")
    func upgradeOnRead() async throws {
        let bench = try await PairingBench.make()
        await bench.configure(central: PairingOptions(), peripheral: PairingOptions())
        let connection = try await bench.connect()
        let secret = try await bench.secret(on: connection)
        #expect(try await connection.read(secret) == PairingBench.secretValue)
        #expect(try await connection.read(secret) == PairingBench.secretValue)
        #expect(bench.clientLog.paired.map(\.method) == [.justWorks])
        try await bench.serverLog.wait { $0.paired.count == 1 }
        #expect(await connection.securityLevel == .unauthenticated)
        await bench.world.close()
    }

    @Test("a bonded client's subscription survives reconnection; an unbonded peer's identifier comes from its address")
    func bondedSubscriptions() async throws {
        let bench = try await PairingBench.make()
        await bench.configure(central: PairingOptions(), peripheral: PairingOptions())
        let pulse = try #require(bench.published.characteristic(PairingBench.pulse))
        let connection = try await bench.connect()
        let unbonded = connection.peerIdentifier
        #expect(unbonded.count == 36 && unbonded == unbonded.uppercased())
        try await connection.pair()
        let bonded = connection.peerIdentifier
        #expect(bonded.count == 36 && bonded != unbonded, "a bond has an identifier of its own")
        let services = try await connection.services([PairingBench.service])
        let characteristics = try await connection.characteristics(of: try #require(services.first))
        // Kept to the end: a stream given up unsubscribes (a CCCD write of 0), which would
        // leave nothing to restore.
        let notifications = try await connection.notifications(for: try #require(characteristics.first { $0.uuid == PairingBench.pulse }))
        #expect(await bench.server.peripheral.subscribers(of: pulse) == [connection.handle])
        try await connection.disconnect()
        #expect(await bench.server.peripheral.subscribers(of: pulse).isEmpty)

        let again = try await bench.connect()
        #expect(again.peerIdentifier == bonded)
        let result = try await again.pair()
        #expect(result.method == nil, "encrypted with the stored key")
        let served = try #require(bench.server.connections.first { $0.handle == again.handle && $0.role == .peripheral })
        let seen = try await served.pair()
        #expect(seen.method == nil && seen.bonded && seen.level == .unauthenticated, "the peripheral asks for nothing more")
        #expect(await bench.server.peripheral.subscribers(of: pulse) == [again.handle], "restored without a CCCD write")
        withExtendedLifetime(notifications) {}
        await bench.world.close()
    }

    @Test("bonds in store files outlive the devices: reopened, the central encrypts with the saved key")
    func bondsInFiles() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pairble-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let files = { (index: Int) in BondStorage.file("\(directory)/bonds-\(index).json") }
        let first = try await PairingBench.make(bonds: files)
        await first.configure(central: PairingOptions(), peripheral: PairingOptions())
        let connection = try await first.connect()
        #expect(try await connection.pair().method == .justWorks)
        try await first.serverLog.wait { $0.paired.count == 1 }
        let identifier = connection.peerIdentifier
        await first.world.close()
        for index in 0 ..< 2 {
            let saved = try String(contentsOfFile: "\(directory)/bonds-\(index).json", encoding: .utf8)
            #expect(saved.contains(identifier) == (index == 1), "the central's file holds the bond it named")
        }

        let second = try await PairingBench.make(bonds: files)
        await second.configure(central: PairingOptions(), peripheral: PairingOptions())
        let again = try await second.connect()
        #expect(again.isBonded && again.peerIdentifier == identifier)
        let result = try await again.pair()
        #expect(result.method == nil && result.bonded && result.level == .unauthenticated)
        #expect(try await again.read(try await second.secret(on: again)) == PairingBench.secretValue)
        #expect(second.serverLog.paired.isEmpty && second.clientLog.paired.isEmpty)
        await second.world.close()
    }

    @Test("a bonded client's subscription is saved in the bond file: reopened devices restore it without a CCCD write")
    func subscriptionsInFiles() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pairble-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let files = { (index: Int) in BondStorage.file("\(directory)/bonds-\(index).json") }
        let first = try await PairingBench.make(bonds: files)
        await first.configure(central: PairingOptions(), peripheral: PairingOptions())
        let pulse = try #require(first.published.characteristic(PairingBench.pulse))
        let connection = try await first.connect()
        #expect(try await connection.pair().method == .justWorks)
        try await first.serverLog.wait { $0.paired.count == 1 }
        let services = try await connection.services([PairingBench.service])
        let characteristics = try await connection.characteristics(of: try #require(services.first))
        // Kept to the end: a stream given up unsubscribes (a CCCD write of 0), which would
        // leave nothing to restore.
        let notifications = try await connection.notifications(for: try #require(characteristics.first { $0.uuid == PairingBench.pulse }))
        #expect(await first.server.peripheral.subscribers(of: pulse) == [connection.handle])
        try await connection.disconnect()
        #expect(await first.server.peripheral.subscribers(of: pulse).isEmpty)
        withExtendedLifetime(notifications) {}
        await first.world.close()
        let saved = try String(contentsOfFile: "\(directory)/bonds-0.json", encoding: .utf8)
        #expect(saved.contains("clientConfigurations"), "the server's (first device's) file holds the CCCD value")

        let second = try await PairingBench.make(bonds: files)
        await second.configure(central: PairingOptions(), peripheral: PairingOptions())
        let again = try await second.connect()
        #expect(again.isBonded)
        #expect(try await again.pair().method == nil, "encrypted with the stored key")
        let restored = try #require(second.published.characteristic(PairingBench.pulse))
        #expect(await second.server.peripheral.subscribers(of: restored) == [again.handle], "restored without a CCCD write")
        await second.world.close()
    }
}
