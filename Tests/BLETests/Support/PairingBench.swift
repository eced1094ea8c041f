@testable import BLE
import SimulatedTesting
import Synchronization
import Testing

/// Two devices of one world for pairing tests: a peripheral serving one readable value
/// that needs encryption and one notifiable characteristic, and a central that connects to
/// it; each side counts the pairings and failures its handlers heard.
struct PairingBench {
    static let service = BluetoothUUID(0xFE00)
    static let secret = BluetoothUUID(0xFE01)
    static let pulse = BluetoothUUID(0xFE02)
    static let secretValue = Array("only over an encrypted link".utf8)

    let world: SharedWorld
    let server: BLEDevice
    let client: BLEDevice
    let published: PublishedGATT
    let serverLog = PairingLog()
    let clientLog = PairingLog()

    static func make(bonds: (Int) -> BondStorage = { _ in .memory }) async throws -> PairingBench {
        let world = try await SharedWorld.make(devices: 2, bonds: bonds)
        let server = world.devices[0]
        let published = try await server.peripheral.publish {
            Service(Self.service) {
                Characteristic(Self.secret, properties: [.read], permissions: [.readable, .readEncryptionRequired],
                               value: Self.secretValue)
                Characteristic(Self.pulse, properties: [.notify])
            }
        }
        return PairingBench(world: world, server: server, client: world.devices[1], published: published)
    }

    /// Sets both sides' options; handlers hand the displayed passkey to the side that
    /// types it (`typo` adds one to it), accept numbers when they match, and log outcomes.
    func configure(central: PairingOptions, peripheral: PairingOptions, typo: Bool = false) async {
        let board = PasskeyBoard()
        await client.setPairing(options: central, handlers: clientLog.handlers(board: board, typo: typo))
        await server.setPairing(options: peripheral, handlers: serverLog.handlers(board: board, typo: typo))
    }

    /// Advertises and connects; returns the central's connection.
    func connect() async throws -> Connection {
        _ = try await server.peripheral.advertise(name: "vault", interval: .milliseconds(20))
        return try await client.central.connect(to: world.addresses[0], parameters: .fast, timeout: .seconds(patience))
    }

    /// The secret characteristic as the central discovers it.
    func secret(on connection: Connection) async throws -> RemoteCharacteristic {
        let services = try await connection.services([Self.service])
        let characteristics = try await connection.characteristics(of: try #require(services.first))
        return try #require(characteristics.first { $0.uuid == Self.secret })
    }
}

/// The passkeys one side displays, in order, for the other to type.
final class PasskeyBoard: Sendable {
    private let shown = Mailbox<UInt32>()
    func show(_ passkey: UInt32) { _ = shown.put(passkey) }
    func read() async -> UInt32? { await shown.next() }
}

/// What a side's pairing handlers heard.
final class PairingLog: Sendable {
    private let state = Mutex<(paired: [PairingResult], failed: [BLEError], numbers: [UInt32])>(([], [], []))

    var paired: [PairingResult] { state.withLock { $0.paired } }
    var failed: [BLEError] { state.withLock { $0.failed } }
    var comparedNumbers: [UInt32] { state.withLock { $0.numbers } }

    func handlers(board: PasskeyBoard, typo: Bool) -> PairingHandlers {
        PairingHandlers(
            displayPasskey: { _, passkey in board.show(passkey) },
            enterPasskey: { _ in
                guard let shown = await board.read() else { return nil }
                return typo ? (shown + 1) % 1_000_000 : shown
            },
            confirmNumber: { _, number in
                self.state.withLock { $0.numbers.append(number) }
                return true
            },
            paired: { _, result in self.state.withLock { $0.paired.append(result) } },
            pairingFailed: { _, error in self.state.withLock { $0.failed.append(error) } })
    }

    /// Waits until `predicate` holds of this log, within ``patience``.
    func wait(until predicate: @escaping @Sendable (PairingLog) -> Bool) async throws {
        try await within {
            while !predicate(self) { try await testClock.sleep(for: .milliseconds(10)) } // polling a test log on virtual time
        }
    }
}
