import BLE
import SimulatedTesting
import Testing

/// Out-of-band pairing through the front door between two SwiftBLE devices in one world
/// (Core 5.4, Vol 3, Part H, §2.3.5.4, §2.3.5.6.4); the matrix cells are in PairingTests.
@Suite("Out-of-band pairing through the front door", .simulated, .serialized, .timeLimit(.minutes(5)))
struct OutOfBandPairingTests {
    @Test("a wrong OOB value fails with Confirm Value Failed on both sides: a changed C (SC), a different TK (legacy)",
          arguments: [false, true])
    func wrongOutOfBand(secureConnections: Bool) async throws {
        let bench = try await PairingBench.make()
        var central = PairingOptions(legacyOnly: !secureConnections)
        var peripheral = PairingOptions(legacyOnly: !secureConnections)
        if secureConnections {
            let made = try LocalOutOfBandData.generate()
            var tampered = made.data
            tampered.confirm ^= 0x80
            central.peerOutOfBand = tampered
            peripheral.outOfBand = OutOfBandPairing(local: made)
        } else {
            central.legacyOutOfBandKey = 0x0123_4567
            peripheral.legacyOutOfBandKey = 0x0123_4568
        }
        await bench.configure(central: central, peripheral: peripheral)
        let connection = try await bench.connect()
        await #expect(throws: BLEError.pairingFailed(.confirmValueFailed)) { try await connection.pair() }
        try await bench.serverLog.wait { !$0.failed.isEmpty }
        #expect(bench.serverLog.failed == [.pairingFailed(.confirmValueFailed)])
        #expect(bench.clientLog.failed == [.pairingFailed(.confirmValueFailed)])
        #expect(await connection.securityLevel == .none)
        #expect(!connection.isBonded)
        await bench.world.close()
    }

    @Test("the device's OOB data made after setPairing is used; made again, the peer's old copy fails with Confirm Value Failed")
    func keptAndReplaced() async throws {
        let bench = try await PairingBench.make()
        await bench.configure(central: PairingOptions(bonding: false), peripheral: PairingOptions(bonding: false))
        let first = try await bench.client.makeOutOfBandData()
        var peripheral = PairingOptions(bonding: false)
        peripheral.peerOutOfBand = first.data
        await bench.server.setPairing(options: peripheral, handlers: bench.serverLog.handlers(board: PasskeyBoard(), typo: false))
        let connection = try await bench.connect()
        let result = try await connection.pair()
        #expect(result.method == .outOfBand)
        #expect(result.level == .authenticatedSecureConnections)
        try await connection.disconnect()

        // New data: a new key pair, which the peripheral's copy of the first C does not commit to.
        let second = try await bench.client.makeOutOfBandData()
        #expect(second.data != first.data)
        let again = try await bench.connect()
        await #expect(throws: BLEError.pairingFailed(.confirmValueFailed)) { try await again.pair() }
        try await bench.serverLog.wait { !$0.failed.isEmpty }
        #expect(bench.serverLog.failed == [.pairingFailed(.confirmValueFailed)])
        await bench.world.close()
    }
}
