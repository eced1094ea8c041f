import BLE
import BLEProfiles
import Foundation
import SimulatedTesting
import Testing

/// The neighbourhood's GATT devices, served by `BLEProfiles.ProfilePeripheral` hosts that
/// `BLEDevice.open(hci: "sim")` starts, seen through the front door like real sensors.
@Suite("The simulated neighbourhood's devices serve standard GATT services", .simulated, .timeLimit(.minutes(3)))
struct SimulatedPeripheralTests {
    static let thermometerAddress = BluetoothAddress(0xD1_09_00_00_18_09, kind: .random)

    /// The first characteristic of `uuid` in `service`.
    private func characteristic(_ uuid: BluetoothUUID, in service: RemoteService?, on connection: Connection) async throws
        -> RemoteCharacteristic {
        let characteristics = try await connection.characteristics(of: try #require(service))
        return try #require(characteristics.first { $0.uuid == uuid })
    }

    @Test("The Polar H10: GAP name, battery, manufacturer, ≥ 3 heart-rate measurements, and the control point")
    func strap() async throws {
        let device = try await BLEDevice.open(hci: "sim")
        do {
            let connection = try await device.central.connect(to: strapAddress, parameters: .fast, timeout: .seconds(patience))
            let services = try await connection.services()
            #expect(services.map(\.uuid) == [0x1800, 0x1801, 0x180D, 0x180F, 0x180A].map { BluetoothUUID($0) })
            let byUUID = { (uuid: UInt16) in services.first { $0.uuid == BluetoothUUID(uuid) } }

            let name = try await characteristic(0x2A00, in: byUUID(0x1800), on: connection)
            #expect(String(decoding: try await connection.read(name), as: UTF8.self) == "Polar H10 A1B2C3D4")
            let appearance = try await characteristic(0x2A01, in: byUUID(0x1800), on: connection)
            #expect(try await connection.read(appearance) == [0x41, 0x03], "the appearance it advertises")
            let battery = try await characteristic(BatteryLevel.uuid, in: byUUID(0x180F), on: connection)
            #expect(try BatteryLevel(decoding: try await connection.read(battery)) == .full)
            let manufacturer = try await characteristic(0x2A29, in: byUUID(0x180A), on: connection)
            #expect(String(decoding: try await connection.read(manufacturer), as: UTF8.self) == "SwiftBLE")

            let measurement = try await characteristic(HeartRateMeasurement.uuid, in: byUUID(0x180D), on: connection)
            let values = try await connection.notifications(for: measurement)
            let measurements = try await within {
                var decoded: [HeartRateMeasurement] = []
                for await value in values {
                    decoded.append(try HeartRateMeasurement(decoding: value))
                    if decoded.count == 3 { return decoded }
                }
                throw TimedOut()
            }
            #expect(measurements.count == 3)
            for beat in measurements {
                #expect((40 ... 120).contains(beat.heartRate), "a resting heart: \(beat.heartRate)")
                #expect(beat.sensorContact == .detected)
                #expect(!beat.rrIntervals.isEmpty)
            }
            #expect(measurements.compactMap(\.energyExpended).count == 3, "the strap counts energy")

            let control = try await characteristic(HeartRateControlPoint.uuid, in: byUUID(0x180D), on: connection)
            try await connection.write([0x01], to: control)
            await #expect(throws: BLEError.att(.application(0x80), handle: control.valueHandle)) {
                try await connection.write([0x02], to: control)
            }
            try await connection.disconnect()
        } catch {
            await device.close()
            throw error
        }
        await device.close()
    }

    @Test("The Thermometer: an indicated temperature measurement and the current time")
    func thermometer() async throws {
        let device = try await BLEDevice.open(hci: "sim")
        do {
            let connection = try await device.central.connect(to: Self.thermometerAddress, parameters: .fast,
                                                              timeout: .seconds(patience))
            let services = try await connection.services()
            #expect(services.map(\.uuid) == [0x1800, 0x1801, 0x1809, 0x1805, 0x180F, 0x180A].map { BluetoothUUID($0) })
            let byUUID = { (uuid: UInt16) in services.first { $0.uuid == BluetoothUUID(uuid) } }

            let time = try await characteristic(CurrentTime.uuid, in: byUUID(0x1805), on: connection)
            let now = try CurrentTime(decoding: try await connection.read(time))
            #expect(now.dateTime.year >= 2025)

            let measurement = try await characteristic(TemperatureMeasurement.uuid, in: byUUID(0x1809), on: connection)
            #expect(measurement.properties == .indicate)
            let values = try await connection.notifications(for: measurement)
            let reading = try await within {
                for await value in values { return try TemperatureMeasurement(decoding: value) }
                throw TimedOut()
            }
            #expect(reading.unit == .celsius)
            #expect(reading.timestamp != nil)
            try await connection.disconnect()
        } catch {
            await device.close()
            throw error
        }
        await device.close()
    }

    @Test("An unknown service name in a scenario's gatt: list fails the open with a sentence naming it")
    func unknownProfile() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gatt-unknown-\(UUID().uuidString).yaml").path
        try """
            devices:
              - {name: local, address: "F0:00:00:00:00:01", host: external}
              - name: Pulse
                address: "C4:00:00:00:00:02"
                addressType: random
                gatt: [heart-rate, pulse-oximeter]
                advertise: {type: ind, name: Pulse}
            """.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let device = try await BLEDevice.open(hci: "sim:" + path)
            await device.close()
            Issue.record("the open succeeded")
        } catch {
            guard case let .controllerUnavailable(sentence) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(sentence.contains("device \"Pulse\": no standard service is called \"pulse-oximeter\""), "\(sentence)")
            #expect(sentence.contains("heart-rate"), "it lists the names that exist")
        }
    }
}
