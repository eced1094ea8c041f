import BLE
import Foundation
import OpenCoreBluetooth
import SimulatedTesting
import Testing

@Suite("A heart-rate central in Apple's style against the neighbourhood's Polar H10", .simulatedOnMainActor,
       .timeLimit(.minutes(10)))
@MainActor
struct HeartRateCentralTests {
    @Test("Scan, connect, discover, subscribe and read: the delegate calls in Apple's order")
    func heartRateSession() async throws {
        let device = try await neighbourhood("heart-rate")
        let central = HeartRateCentral(options: [OpenCoreBluetoothControllerOptionKey: "heart-rate"])
        #expect(central.manager.state == .unknown)
        #expect(await eventually { central.measurements.count >= 3 && central.location != nil })
        #expect(central.log == [
            "didUpdateState 5", "didDiscover", "didConnect", "didDiscoverServices", "didDiscoverCharacteristicsFor 180D",
            "didUpdateNotificationStateFor 2A37 true", "didUpdateValueFor 2A38", "didUpdateValueFor 2A37",
        ] || central.log == [
            // A measurement may arrive before the read's answer: both orders are Apple's.
            "didUpdateState 5", "didDiscover", "didConnect", "didDiscoverServices", "didDiscoverCharacteristicsFor 180D",
            "didUpdateNotificationStateFor 2A37 true", "didUpdateValueFor 2A37", "didUpdateValueFor 2A38",
        ])
        #expect(central.location == Data([1]))  // chest
        // Heart Rate Measurement: flags, then an 8- or 16-bit value (HRS §3.1).
        #expect(central.measurements.allSatisfy { $0.count >= 2 })
        let sensor = try #require(central.sensor)
        #expect(sensor.state == .connected)
        #expect(sensor.name?.hasPrefix("Polar H10") == true)
        #expect(central.manager.retrievePeripherals(withIdentifiers: [sensor.identifier]) == [sensor])
        #expect(central.manager.retrieveConnectedPeripherals(withServices: [CBUUID(string: "180D")]) == [sensor])
        central.manager.cancelPeripheralConnection(sensor)
        #expect(await eventually { central.disconnected })
        #expect(central.disconnectError == nil)
        #expect(sensor.state == .disconnected)
        await device.close()
    }

    @Test("Reading a characteristic that cannot be read reports CBATTError.readNotPermitted")
    func readNotPermitted() async throws {
        let device = try await neighbourhood("read-not-permitted")
        let central = HeartRateCentral(options: [OpenCoreBluetoothControllerOptionKey: "read-not-permitted"])
        #expect(await eventually { central.log.contains("didUpdateNotificationStateFor 2A37 true") })
        let sensor = try #require(central.sensor)
        let measurement = try #require(sensor.services?.first?.characteristics?.first { $0.uuid == HeartRateCentral.measurement })
        let reader = ErrorCatcher()
        sensor.delegate = reader
        sensor.readValue(for: measurement)
        #expect(await eventually { reader.error != nil })
        #expect((reader.error as? CBATTError)?.code == .readNotPermitted)
        #expect(reader.error.map { ($0 as NSError).domain } == CBATTErrorDomain)
        #expect(reader.error.map { ($0 as NSError).code } == 2)
        await device.close()
    }

    @Test("The peripheral's identifier is the same in a second world with the same addresses")
    func stableIdentifier() async throws {
        var identifiers: [UUID] = []
        for round in 0 ..< 2 {
            let device = try await neighbourhood("identifier-\(round)")
            let central = HeartRateCentral(options: [OpenCoreBluetoothControllerOptionKey: "identifier-\(round)"])
            #expect(await eventually { central.sensor != nil })
            if let sensor = central.sensor { identifiers.append(sensor.identifier) }
            await device.close()
        }
        #expect(identifiers.count == 2)
        #expect(identifiers.first == identifiers.last)
    }
}

/// A peripheral delegate keeping the error of a characteristic read.
final class ErrorCatcher: NSObject, CBPeripheralDelegate {
    var error: (any Error)?
    func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor characteristic: CBCharacteristic, error: (any Error)?) {
        if let error { self.error = error }
    }
}
