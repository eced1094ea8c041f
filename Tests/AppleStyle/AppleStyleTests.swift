import BLE
import Foundation
import OpenCoreBluetooth
import OpenCoreLocation
import OpenUserNotifications
import SimulatedTesting
import Testing
import WorldTesting

/// The Apple-style sources beside this file, compiled in this target's language mode (the
/// same files form one target in Swift 5 mode and one in Swift 6 mode) and run against the
/// embedded neighbourhood on virtual time.
@Suite("Apple-platform sources, unchanged", .simulatedOnMainActor)
@MainActor
struct AppleStyleTests {
    static let neighbourhoodUUID = UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!

    @Test("A beacon watcher made in a non-isolated method ranges and monitors with the deprecated names")
    func beaconWatcher() async throws {
        let watcher = BeaconWatcher()
        watcher.start(uuid: Self.neighbourhoodUUID)
        for _ in 0 ..< 30 where watcher.rangedCounts.filter({ $0 > 0 }).count < 2 || watcher.entered.isEmpty {
            try await testClock.sleep(seconds: 1)
        }
        #expect(watcher.authorizations == [.authorizedAlways])
        #expect(watcher.entered == ["street"])
        #expect(watcher.rangedCounts.filter { $0 > 0 }.count >= 2, "\(watcher.rangedCounts)")
        #expect(!watcher.proximities.isEmpty)
        watcher.stop()
        let after = watcher.rangedCounts.count
        try await testClock.sleep(seconds: 3)
        #expect(watcher.rangedCounts.count == after, "ranging went on after the stop")
    }

    @Test("A location logger on a phone walking east gets fixes every 5 m near the street, walking speed and course, one heading")
    func locationLoggerOnAWalk() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let walk = root.appendingPathComponent("Scenarios/walk.yaml").path
        let logger = LocationLogger(manager: CLLocationManager(options: .init(hci: "sim:\(walk)")))
        logger.start()
        try await testClock.sleep(seconds: 20.5)
        logger.stop()
        let count = logger.locations.count
        try await testClock.sleep(seconds: 3)
        #expect(logger.locations.count == count, "fixes went on after the stop")
        #expect(logger.errors.isEmpty, "\(logger.errors)")
        // 20 m walked at 1 m/s with a 5 m filter: the first fix, then one every 5 s.
        #expect((4 ... 5).contains(count), "\(logger.locations)")
        // The walker goes east along y = 0.05 m from x = -40 m, 51.5107 N, 0.1206 W at x = 0.
        for fix in logger.locations {
            #expect(fix.horizontalAccuracy == 5)
            let north = (fix.coordinate.latitude - 51.5107) * 111_260
            let east = (fix.coordinate.longitude + 0.1206) * 69_430
            #expect(abs(north) < 25 && (-65 ... 5).contains(east), "\(fix) is off the walker's track")
        }
        for fix in logger.locations.dropFirst() {
            #expect(abs(fix.speed - 1) < 0.05 && abs(fix.course - 90) < 1, "\(fix)")
        }
        #expect(logger.headings == [90])
        #expect(logger.manager.location === logger.locations.last)
    }

    @Test("requestLocation gives one fix where the world says; a world with no origin says the location is unknown")
    func requestLocation() async throws {
        let here = LocationLogger()
        here.manager.delegate = here
        here.manager.requestLocation()
        let nowhere = LocationLogger(manager: CLLocationManager(options: .init(hci: "sim:empty")))
        nowhere.manager.delegate = nowhere
        nowhere.manager.requestLocation()
        try await testClock.sleep(seconds: 5)
        #expect(here.locations.count == 1)
        if let fix = here.locations.first {
            // The neighbourhood's "local" is its origin, 51.4769 N, 0.0005 W.
            #expect(fix.distance(from: CLLocation(latitude: 51.4769, longitude: -0.0005)) < 25, "\(fix)")
        }
        #expect(nowhere.locations.isEmpty)
        #expect(nowhere.errors.map { ($0 as? CLError)?.code } == [.locationUnknown], "\(nowhere.errors)")
    }

    @Test("A reminder scheduler written for iOS asks permission on a phone; its notification reaches the lock screen 5 s later and the tap opens it")
    func reminderScheduler() async throws {
        let phone = SimulatedPhone(clock: testClock)
        let runs = ReminderRuns()
        let start = testClock.microseconds
        try phone.install(AppDescription(name: "Stretch")) { _ in
            let scheduler = ReminderScheduler()
            scheduler.start()
            runs.schedulers.append(scheduler)
        }
        try phone.perform(.launch("Stretch"))
        try await testClock.sleep(seconds: 1)
        try phone.perform(.background("Stretch"))
        try await testClock.sleep(seconds: 5)
        let shown = phone.lockScreenLog
        #expect(shown.map(\.title) == ["Time to stretch"])
        #expect(shown.first?.presentation == .lockScreen)
        #expect(shown.first.map { (5_000_000 ... 5_100_000).contains($0.time - start) } == true, "\(shown)")
        try phone.tapNotification("stretch", of: "Stretch")
        for _ in 0 ..< 20 where runs.schedulers.first?.opened.isEmpty != false { try await testClock.sleep(seconds: 0.1) }
        #expect(runs.schedulers.first?.opened == ["stretch"])
        #expect(runs.schedulers.first?.presented == [])
        phone.close()
    }

    @Test("A shop greeter written for iOS, suspended, gets its location-triggered welcome on the lock screen when the walker reaches the shop's beacon")
    func shopGreeter() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let walk = root.appendingPathComponent("Scenarios/walk.yaml").path
        let phone = SimulatedPhone(clock: testClock)
        // Where the phone's own region monitoring listens: the walk, not the neighbourhood
        // (SwiftBLE's setting, outside the sample).
        UNUserNotificationCenter.center(for: "Coffee", on: phone).regionMonitoringOptions = .init(hci: "sim:\(walk)")
        let runs = ReminderRuns()
        try phone.install(AppDescription(name: "Coffee")) { _ in
            let greeter = ShopGreeter(shopUUID: UUID(uuidString: "5A4BCFCE-174E-4BAC-A814-092E77F6B7E5")!)
            greeter.start()
            runs.greeters.append(greeter)
        }
        try phone.perform(.launch("Coffee"))
        try await testClock.sleep(seconds: 0.5)
        try phone.perform(.background("Coffee"))
        for _ in 0 ..< 60 where phone.lockScreenLog.isEmpty { try await testClock.sleep(seconds: 1) }
        #expect(phone.lockScreenLog.map(\.title) == ["Welcome back!"])
        #expect(phone.lockScreenLog.first?.presentation == .lockScreen)
        #expect(phone.state(of: "Coffee") == .suspended)
        #expect(phone.locationAuthorization(of: "Coffee") == .whenInUse)
        UNUserNotificationCenter.center(for: "Coffee", on: phone).stopRegionMonitoring()
        phone.close()
    }

    @Test("Location delegate methods spelled with implicitly unwrapped parameters are called")
    func legacyBeaconWatcher() async throws {
        let watcher = LegacyBeaconWatcher()
        watcher.start(uuid: Self.neighbourhoodUUID)
        for _ in 0 ..< 30 where watcher.rangedCounts.filter({ $0 > 0 }).isEmpty || watcher.entered.isEmpty {
            try await testClock.sleep(seconds: 1)
        }
        #expect(watcher.authorizations == [.authorizedAlways])
        #expect(watcher.entered == ["street"])
        #expect(!watcher.rangedCounts.filter { $0 > 0 }.isEmpty, "\(watcher.rangedCounts)")
    }
}

/// The Bluetooth managers of the Apple-style sources, made with the main queue, on virtual
/// time: their delegate calls are steps of the simulation.
@Suite("Apple-platform Bluetooth sources, unchanged", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct AppleStyleBluetoothSourcesTests {
    @Test("A beacon transmitter hands a region's peripheral data to startAdvertising, which sends the iBeacon")
    func beaconTransmitter() async throws {
        let (device, name) = try await Self.ownNeighbourhood()
        let transmitter = BeaconTransmitter()
        transmitter.start(uuid: AppleStyleTests.neighbourhoodUUID, major: 7, minor: 9, options: [OpenCoreBluetoothControllerOptionKey: name])
        for _ in 0 ..< 30 where transmitter.started.isEmpty {
            try await testClock.sleep(seconds: 1)
        }
        #expect(transmitter.started == [true])
        #expect(transmitter.peripheralManager?.isAdvertising == true)
        transmitter.peripheralManager?.stopAdvertising()
        await device.close()
    }

    @Test("A sensor logger subscribes to the neighbourhood's heart-rate strap and publishes a service")
    func sensorLogger() async throws {
        let (device, name) = try await Self.ownNeighbourhood()
        let logger = SensorLogger()
        logger.start(options: [OpenCoreBluetoothControllerOptionKey: name])
        for _ in 0 ..< 60 where logger.heartRates.count < 3 || logger.batteryLevel == nil || !logger.published {
            try await testClock.sleep(seconds: 1)
        }
        #expect(logger.heartRates.count >= 3, "\(logger.heartRates)")
        #expect(logger.batteryLevel == 100)
        #expect(logger.published)
        if let sensor = logger.sensor { logger.central.cancelPeripheralConnection(sensor) }
        logger.peripheralManager.removeAllServices()
        await device.close()
    }

    @Test("A central written for iOS 7 to 9 (old state enum, RSSI property, implicitly unwrapped parameters) works")
    func legacyScanner() async throws {
        let (device, name) = try await Self.ownNeighbourhood()
        let scanner = LegacyScanner()
        scanner.start(options: [OpenCoreBluetoothControllerOptionKey: name])
        for _ in 0 ..< 30 where scanner.names.isEmpty || scanner.rssiReadings.isEmpty {
            try await testClock.sleep(seconds: 1)
        }
        #expect(!scanner.names.isEmpty)
        #expect(scanner.legacyStates == [.poweredOn])
        #expect(scanner.rssiReadings.count == 1 && scanner.rssiReadings[0] < 0, "\(scanner.rssiReadings)")
        scanner.central.stopScan()
        await device.close()
    }

    @Test("Stream delegates echo 40,000 bytes over an L2CAP channel found through the PSM characteristic")
    func channelEcho() async throws {
        let world = try await DevicesWorld.make(devices: 2)
        let server = ChannelEchoServer()
        server.start(options: world.options(0))
        let message = Data((0 ..< 40_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) })
        let client = ChannelEchoClient(message: message)
        client.start(options: world.options(1))
        try await waitFor("the echo") { client.received.count >= message.count }
        #expect(client.received == message, "the echo differs from what was sent")
        #expect(client.sent == message.count)
        #expect(Set(client.events) == ["in open", "out open"], "\(client.events)")
        #expect(server.events.prefix(2).sorted() == ["in open", "out open"], "\(server.events)")
        // The central goes away: the server's streams reach their end.
        if let peripheral = client.peripheral { client.central.cancelPeripheralConnection(peripheral) }
        try await waitFor("the end of the server's input") { server.events.contains("in end") }
        #expect(server.events.contains("out end"), "\(server.events)")
        await world.close()
    }

    /// A neighbourhood of the test's own and the controller name it is registered under,
    /// for the managers' options, rather than the process-wide default device, which every
    /// test would share.
    static func ownNeighbourhood() async throws -> (BLEDevice, String) {
        let name = "apple-style-\(UUID().uuidString)"
        let device = try await BLEDevice.open(hci: "sim", bonds: .memory)
        OpenCoreBluetooth.use(device, as: name)
        return (device, name)
    }
}

/// The notification samples each launch of an app made.
@MainActor
final class ReminderRuns {
    var schedulers: [ReminderScheduler] = []
    var greeters: [ShopGreeter] = []
}
