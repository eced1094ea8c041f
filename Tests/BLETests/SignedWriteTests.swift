@testable import BLE
import SimulatedTesting
import Synchronization
import Testing

/// Signed Write Without Response (Core 5.4, Vol 3, Part G, §4.9.2; Part H, §2.4.5) between
/// two SwiftBLE devices of one world, after pairing with bonding and CSRK distribution.
@Suite("Signed writes through the front door", .simulated, .serialized, .timeLimit(.minutes(3)))
struct SignedWriteTests {
    static let service = BluetoothUUID(0xFE20)
    static let signed = BluetoothUUID(0xFE21)

    @Test("a bonded client's signed write reaches the app; a tampered signature and a replayed counter are dropped and counted")
    func signedWrites() async throws {
        let world = try await SharedWorld.make(devices: 2)
        let (server, client) = (world.devices[0], world.devices[1])
        let writes = Mutex<[[UInt8]]>([])
        _ = try await server.peripheral.publish {
            Service(Self.service) {
                Characteristic(Self.signed, properties: [.authenticatedSignedWrites], onWrite: { request in
                    writes.withLock { $0.append(request.value) }
                    return .success(())
                })
            }
        }
        let serverLog = PairingLog()
        await server.setPairing(options: PairingOptions(), handlers: serverLog.handlers(board: PasskeyBoard(), typo: false))
        await client.setPairing(options: PairingOptions())
        _ = try await server.peripheral.advertise(name: "signer", interval: .milliseconds(20))
        let first = try await client.central.connect(to: world.addresses[0], parameters: .fast, timeout: .seconds(patience))
        let result = try await first.pair()
        #expect(result.bonded)
        // The peripheral's side ends after ours: wait for it before the link goes.
        try await serverLog.wait { $0.paired.count == 1 }
        let bond = try #require(client.core.security.bonds.record(for: first.peer))
        let ours = try #require(bond.localKeys.signingKey, "the central distributed a CSRK")
        #expect(ours.key == client.core.security.signatureKey)
        try await first.disconnect()
        _ = try await server.peripheral.advertise(name: "signer", interval: .milliseconds(20))

        // A new link, not encrypted: the write is signed (on an encrypted one it would be a
        // plain Write Command, §4.9.2).
        let connection = try await client.central.connect(to: world.addresses[0], parameters: .fast, timeout: .seconds(patience))
        #expect(await connection.securityLevel == .none)
        let services = try await connection.services([Self.service])
        let service = try #require(services.first)
        let characteristic = try #require(try await connection.characteristics(of: service).first)
        #expect(characteristic.properties == [.authenticatedSignedWrites])
        #expect(await connection.maximumWriteLength(for: .signedWithoutResponse) == 514 - 12)
        try await connection.write([0x01, 0x02], to: characteristic, type: .signedWithoutResponse)
        try await wait(until: { writes.withLock { $0 } == [[0x01, 0x02]] }, else: {
            "first: writes \(writes.withLock { $0 }), dropped \(await server.peripheral.droppedSignedWrites)"
        })

        let host = client.core.host
        let handle = characteristic.valueHandle
        // Tampered: signed with another key. Replayed: counter 0 was used by the first write.
        try await host.signedWrite([0xEE], to: handle, csrk: ours.key ^ 1, signCounter: 1_000, on: connection.handle)
        try await host.signedWrite([0xDD], to: handle, csrk: ours.key, signCounter: 0, on: connection.handle)
        try await connection.write([0x03], to: characteristic, type: .signedWithoutResponse)
        try await wait(until: { writes.withLock { $0 }.count == 2 }, else: {
            "second: writes \(writes.withLock { $0 }), dropped \(await server.peripheral.droppedSignedWrites)"
        })
        #expect(writes.withLock { $0 } == [[0x01, 0x02], [0x03]], "only the genuine writes reached the app")
        #expect(await server.peripheral.droppedSignedWrites == 2)
        #expect(client.core.security.bonds.record(for: connection.peer)?.localKeys.signingKey?.signCounter == 2,
                "each counter is used once and the next one is kept in the bond")

        // Without a bond holding our CSRK a signed write is refused before anything is sent.
        let stranger = try await SharedWorld.make(devices: 2)
        _ = try await stranger.devices[0].peripheral.publish {
            Service(Self.service) { Characteristic(Self.signed, properties: [.authenticatedSignedWrites]) }
        }
        _ = try await stranger.devices[0].peripheral.advertise(name: "stranger", interval: .milliseconds(20))
        let unbonded = try await stranger.devices[1].central.connect(to: stranger.addresses[0], parameters: .fast,
                                                                     timeout: .seconds(patience))
        let theirService = try #require(try await unbonded.services([Self.service]).first)
        let theirs = try #require(try await unbonded.characteristics(of: theirService).first)
        await #expect(throws: BLEError.self) {
            try await unbonded.write([0x01], to: theirs, type: .signedWithoutResponse)
        }
        await stranger.close()
        await world.close()
    }

    /// Waits until `predicate` holds, within ``patience``.
    private func wait(until predicate: @escaping @Sendable () -> Bool, else state: () async -> String) async throws {
        do {
            try await within {
                while !predicate() { try await testClock.sleep(for: .milliseconds(10)) } // polling a test log on virtual time
            }
        } catch {
            Issue.record("timed out: \(await state())")
            throw error
        }
    }
}
