import BLE
import Foundation
import OpenCoreBluetooth
import SimulatedTesting
import Testing

/// A central delegate logging discoveries by name and state changes.
final class ScanLog: NSObject, CBCentralManagerDelegate {
    var states: [CBManagerState] = []
    var discoveries: [String] = []
    var advertisements: [String: [String: Any]] = [:]

    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        states.append(central.state)
    }

    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral, advertisementData: [String: Any], rssi RSSI: NSNumber) {
        let name = advertisementData[CBAdvertisementDataLocalNameKey] as? String ?? peripheral.identifier.uuidString
        discoveries.append(name)
        advertisements[name] = advertisementData
    }

    func count(_ prefix: String) -> Int { discoveries.filter { $0.hasPrefix(prefix) }.count }
}

@Suite("CBCentralManager: state, scanning, duplicates", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct CentralManagerScanTests {
    @Test("The state goes unknown → poweredOn after creation and poweredOff when the device goes away")
    func poweredOnThenOff() async throws {
        let device = try await neighbourhood("state")
        let log = ScanLog()
        let manager = CBCentralManager(delegate: log, queue: nil, options: [OpenCoreBluetoothControllerOptionKey: "state"])
        #expect(manager.state == .unknown)
        #expect(log.states.isEmpty)  // asynchronously, as on Apple platforms
        #expect(await eventually { manager.state == .poweredOn })
        #expect(log.states == [.poweredOn])
        #expect(CBCentralManager.authorization == .allowedAlways)
        #expect(manager.authorization == .allowedAlways)
        await device.close()
        #expect(await eventually { manager.state == .poweredOff })
        #expect(log.states == [.poweredOn, .poweredOff])
    }

    @Test("Without AllowDuplicates one discovery per peripheral; with it every advertisement")
    func duplicates() async throws {
        let device = try await neighbourhood("duplicates")
        let log = ScanLog()
        let manager = CBCentralManager(delegate: log, queue: nil, options: [OpenCoreBluetoothControllerOptionKey: "duplicates"])
        #expect(await eventually { manager.state == .poweredOn })
        manager.scanForPeripherals(withServices: nil, options: nil)
        #expect(manager.isScanning)
        // The Polar advertises every 100 ms, the Thermometer every second: by the time
        // both were seen (and the Thermometer once more in a duplicate scan), the Polar
        // sent several advertisements.
        #expect(await eventually { log.count("Polar") >= 1 && log.count("HT Thermometer") >= 1 })
        #expect(log.count("Polar") == 1)
        #expect(log.count("HT Thermometer") == 1)
        let polar = try #require(log.advertisements.first { $0.key.hasPrefix("Polar") }?.value)
        #expect((polar[CBAdvertisementDataServiceUUIDsKey] as? [CBUUID]) == [CBUUID(string: "180D")])
        #expect((polar[CBAdvertisementDataIsConnectable] as? NSNumber)?.boolValue == true)

        manager.scanForPeripherals(withServices: [CBUUID(string: "180D")], options: [CBCentralManagerScanOptionAllowDuplicatesKey: true])
        #expect(await eventually { log.count("Polar") >= 6 })
        #expect(log.count("HT Thermometer") == 1)  // the second scan asks for 180D only
        manager.stopScan()
        #expect(!manager.isScanning)
        let stopped = log.discoveries.count
        await Task.yield()
        #expect(log.discoveries.count == stopped)
        await device.close()
    }

    @Test("A second scan replaces the first: its services, not the first one's")
    func scanReplaced() async throws {
        let device = try await neighbourhood("replaced")
        let log = ScanLog()
        let manager = CBCentralManager(delegate: log, queue: nil, options: [OpenCoreBluetoothControllerOptionKey: "replaced"])
        #expect(await eventually { manager.state == .poweredOn })
        manager.scanForPeripherals(withServices: [CBUUID(string: "1809")], options: [CBCentralManagerScanOptionAllowDuplicatesKey: true])
        #expect(await eventually { log.count("HT Thermometer") >= 1 })
        #expect(log.count("Polar") == 0)
        manager.scanForPeripherals(withServices: [CBUUID(string: "180D")], options: [CBCentralManagerScanOptionAllowDuplicatesKey: true])
        #expect(await eventually { log.count("Polar") >= 1 })
        let thermometerSightings = log.count("HT Thermometer")
        // Twenty Polar advertisements take about two of the Thermometer's intervals.
        #expect(await eventually { log.count("Polar") >= 20 })
        #expect(log.count("HT Thermometer") == thermometerSightings)
        #expect(manager.isScanning)
        manager.stopScan()
        await device.close()
    }
}

/// The controller is a Unix socket outside the process: its failure arrives in real time,
/// so this suite stays on the wall clock.
@Suite("CBCentralManager on a controller that cannot be opened")
@MainActor
struct CentralManagerUnsupportedTests {
    @Test("A controller that cannot be opened makes the state unsupported")
    func unsupported() async {
        let log = ScanLog()
        let manager = CBCentralManager(delegate: log, queue: nil, options: [OpenCoreBluetoothControllerOptionKey: "unix:/nonexistent/swiftble-ocb"])
        #expect(await eventually { manager.state == .unsupported })
        #expect(log.states == [.unsupported])
        manager.scanForPeripherals(withServices: nil)
        #expect(!manager.isScanning)
    }
}
