import BLE
import BLETime
import BLEWorld
import SimulatedTesting
import Synchronization
import Testing

/// DESIGN.md, "Determinism, one clock": a world, its hosts and their apps on one virtual
/// clock repeat byte for byte for a seed, whatever the machine is doing meanwhile.
@Suite("End-to-end determinism of a simulated run", .timeLimit(.minutes(3)))
struct EndToEndDeterminismTests {
    static let service = BluetoothUUID(0xFE10)
    static let secret = BluetoothUUID(0xFE11)
    static let pulse = BluetoothUUID(0xFE12)

    /// What one run leaves: the apps' timeline (simulated microseconds and what happened)
    /// and every device's HCI capture, in device order.
    struct Outcome: Equatable {
        var timeline: [String]
        var captures: [[UInt8]]
    }

    @Test("The neighbourhood with two hosts ranging its iBeacons, pairing, reading an encrypted value and streaming notifications gives the same timeline and the same captures on every device for one seed")
    func sameSeedSameRun() async throws {
        let first = try await Self.run(seed: 7)
        let second = try await Self.run(seed: 7)
        #expect(first.timeline == second.timeline)
        #expect(first.captures.count == second.captures.count)
        for (index, (a, b)) in zip(first.captures, second.captures).enumerated() {
            let firstDifference = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
            #expect(a == b, "device \(index)'s capture differs from octet \(firstDifference) of \(a.count) and \(b.count)")
        }
        // The run did what it says: the lines below are in every run's timeline.
        #expect(first.timeline.contains { $0.hasSuffix("paired sc true") })
        #expect(first.timeline.contains { $0.contains("ranged 4 beacons") })
        #expect(first.timeline.contains { $0.hasSuffix("notification 49") })
        #expect(first.captures.allSatisfy { $0.count > 16 })
        let other = try await Self.run(seed: 8)
        #expect(other.captures != first.captures, "another seed, another run")
    }

    /// One run on a fresh simulation: the built-in neighbourhood plus a second host; the
    /// first host serves an encrypted value and a notifying characteristic, the second
    /// ranges the neighbourhood's iBeacons for three seconds, connects, pairs, reads and
    /// subscribes.
    static func run(seed: UInt64) async throws -> Outcome {
        let simulation = try Simulation(seed: seed, name: "determinism")
        defer { simulation.shutdown() }
        return try await simulation.run {
            var scenario = try Scenario.builtIn(named: "neighbourhood").addingExternalDevices(1)
            scenario.seed = seed
            let world = try await SharedWorld.make(scenario)
            let clock = simulation.clock
            let timeline = Mutex<[String]>([])
            func note(_ line: String) { timeline.withLock { $0.append("\(clock.microseconds) \(line)") } }
            let (server, client) = (world.devices[0], world.devices[1])
            let published = try await server.peripheral.publish {
                Service(Self.service) {
                    Characteristic(Self.secret, properties: [.read], permissions: [.readable, .readEncryptionRequired],
                                   value: Array("sealed".utf8))
                    Characteristic(Self.pulse, properties: [.notify])
                }
            }
            let pulse = try #require(published.characteristic(Self.pulse))

            let ranging = try await client.central.rangeBeacons()
            var rounds = 0
            for await ranged in ranging {
                note("ranged \(ranged.count) beacons " + ranged.map { "\($0.identity) \($0.proximity)" }.joined(separator: ", "))
                rounds += 1
                if rounds == 3 { break }
            }

            _ = try await server.peripheral.advertise(name: "vault", interval: .milliseconds(20))
            let connection = try await client.central.connect(to: world.addresses[0], parameters: .fast, timeout: .seconds(10))
            note("connected")
            let result = try await connection.pair()
            note("paired sc \(result.secureConnections)")
            let services = try await connection.services([Self.service])
            let characteristics = try await connection.characteristics(of: try #require(services.first))
            let secret = try #require(characteristics.first { $0.uuid == Self.secret })
            let value = try await connection.read(secret)
            note("read \(String(decoding: value, as: UTF8.self))")
            let notifying = try #require(characteristics.first { $0.uuid == Self.pulse })
            let values = try await connection.notifications(for: notifying)
            let sender = Task {
                for beat in 0 ..< 50 { try await server.peripheral.notify([UInt8(beat)], to: pulse) }
            }
            var received = 0
            for await value in values {
                note("notification \(value.first ?? 0)")
                received += 1
                if received == 50 { break }
            }
            try await sender.value
            try await connection.disconnect()
            note("disconnected")
            await world.close()
            let captures = await world.runner.withWorld { world in world.devices.map { world.snoop(of: $0) } }
            return Outcome(timeline: timeline.withLock { $0 }, captures: captures)
        }
    }
}
