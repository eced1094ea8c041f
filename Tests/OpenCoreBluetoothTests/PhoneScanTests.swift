import BLE
import BLEHost
import Foundation
import OpenCoreBluetooth
import SimulatedTesting
import Synchronization
import Testing
import WorldTesting

/// The LE Set Scan Parameters commands a device's host sent its controller, in order.
final class ScanParameterLog: Sendable {
    private let commands = Mutex<[HCI.LESetScanParameters]>([])

    /// Keeps `record` if it is an LE Set Scan Parameters command.
    func record(_ record: HostPacketRecord) {
        guard record.outgoing, case let .command(packet) = record.packet, packet.opcode == .leSetScanParameters,
              let command = try? HCI.decodeCommand(packet) as? HCI.LESetScanParameters else { return }
        commands.withLock { $0.append(command) }
    }

    /// The last one: the duty the controller scans with now.
    var last: HCI.LESetScanParameters? { commands.withLock { $0.last } }
}

/// The first discovery of a scanning app, on the test's clock.
@MainActor
final class FirstDiscovery {
    var app: ScanningApp?
    var time: Int64?
}

/// The background scanning rules of the iOS research's §9 (8, 9 and 10) on the simulated
/// iPhone, with Apple-style apps, each a named test on virtual time: the phone's one shared
/// scan and its duty, passive background scans, and overflow-area matches.
@Suite("Core Bluetooth background scanning on the simulated iPhone", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct PhoneScanTests {
    static let lamp = CBUUID(string: "5E7C1A0D-3B2F-4C19-8E61-0A9D4F2B7C35")

    /// The duty `policy` gives as the controller's scan parameters (units of 0.625 ms).
    private func parameters(_ policy: PhonePolicy, foreground: Bool) -> (HCI.ScanType, UInt16, UInt16) {
        let duty = policy.scanDuty(foregroundScanner: foreground)
        return (duty.active ? .active : .passive, UInt16(duty.interval / 625), UInt16(duty.window / 625))
    }

    private func current(_ log: ScanParameterLog) -> (HCI.ScanType, UInt16, UInt16)? {
        log.last.map { ($0.leScanType, $0.leScanInterval, $0.leScanWindow) }
    }

    @Test("Rule 8: the phone's one scan slows to the background duty when no scanning app is on screen; any app scanning on screen restores the foreground duty for all")
    func scanDuty() async throws {
        let log = ScanParameterLog()
        let world = try await DevicesWorld.make(devices: 1) { _, record in log.record(record) }
        let phone = SimulatedPhone(device: world.devices[0])
        let controller = world.names[0]
        let launches = Launches<ScanningApp>()
        for name in ["Finder", "Other"] {
            try phone.install(AppDescription(name: name, modes: .bluetoothCentral)) { _ in
                launches.apps.append(ScanningApp(services: [Self.lamp], allowDuplicates: false, controller: controller))
            }
        }
        let foreground = parameters(phone.policy, foreground: true)
        let background = parameters(phone.policy, foreground: false)
        #expect(foreground == (.active, 64, 48), "30 ms every 40 ms")
        #expect(background == (.passive, 480, 48), "30 ms every 300 ms, passive")

        try phone.perform(.launch("Finder"))
        #expect(await eventually { current(log).map { $0 == foreground } ?? false })
        try phone.perform(.background("Finder"))
        #expect(await eventually { current(log).map { $0 == background } ?? false })
        // Another app scanning on screen: the foreground duty, for Finder's scan too.
        try phone.perform(.launch("Other"))
        #expect(await eventually { current(log).map { $0 == foreground } ?? false })
        try phone.perform(.background("Other"))
        #expect(await eventually { current(log).map { $0 == background } ?? false })
        try phone.perform(.foreground("Finder"))
        #expect(await eventually { current(log).map { $0 == foreground } ?? false })
        phone.close()
        await world.close()
    }

    /// How long after a non-connectable advertiser starts (every 1285 ms, one of Apple's
    /// recommended intervals) a scanning app on a phone discovers it, on or off screen, in a
    /// world of `seed`; in microseconds of virtual time.
    private func discoveryLatency(seed: UInt64, onScreen: Bool) async throws -> Int64 {
        let clock = testClock
        let world = try await DevicesWorld.make(devices: 2, seed: seed)
        let phone = SimulatedPhone(device: world.devices[0], seed: seed)
        let controller = world.names[0]
        let found = FirstDiscovery()
        try phone.install(AppDescription(name: "Finder", modes: .bluetoothCentral)) { _ in
            let app = ScanningApp(services: [Self.lamp], allowDuplicates: false, controller: controller)
            app.onDiscover = { found.time = found.time ?? clock.microseconds }
            found.app = app
        }
        let advertiser = world.devices[1]
        let uuid = try #require(BluetoothUUID(Self.lamp.uuidString))
        // A phase between the scan and the advertiser that differs from seed to seed.
        let phase = Duration.microseconds(500_000 + Int64(seed &* 2_654_435_761 % 1_285_000))
        try phone.perform(.launch("Finder"))
        try await waitFor("the scan") { found.app?.manager.isScanning == true }
        if !onScreen { try phone.perform(.background("Finder")) }
        try await clock.sleep(for: phase)
        let started = clock.microseconds
        let session = try await advertiser.peripheral.advertise(serviceUUIDs: [uuid], connectable: false, interval: .milliseconds(1285))
        try await waitFor("the discovery") { found.time != nil }
        try await session.stop()
        phone.close()
        await world.close()
        return try #require(found.time) - started
    }

    @Test("Rule 8: a slow advertiser is found later by a phone whose scanning apps are all off screen (20 seeds)")
    func discoveryLatency() async throws {
        var onScreen: [Int64] = [], offScreen: [Int64] = []
        for seed in UInt64(1)...20 {
            onScreen.append(try await discoveryLatency(seed: seed, onScreen: true))
            offScreen.append(try await discoveryLatency(seed: seed, onScreen: false))
        }
        func median(_ values: [Int64]) -> Int64 { values.sorted()[values.count / 2] }
        let milliseconds = { (values: [Int64]) in values.map { $0 / 1000 } }
        #expect(median(offScreen) > 2 * median(onScreen), "on screen \(milliseconds(onScreen)) ms, off screen \(milliseconds(offScreen)) ms")
        print("rule 8 discovery latency medians: on screen \(median(onScreen) / 1000) ms, off screen \(median(offScreen) / 1000) ms")
    }
}

extension PhoneScanTests {
    @Test("Rule 9: off screen the phone's scan is passive, so a service UUID only in a scan response is not matched; on screen it is (and off screen too with backgroundActiveScan)",
          arguments: [false, true])
    func passiveBackgroundScan(backgroundActiveScan: Bool) async throws {
        let world = try await DevicesWorld.make(devices: 2)
        var policy = PhonePolicy()
        policy.backgroundActiveScan = backgroundActiveScan
        let phone = SimulatedPhone(device: world.devices[0], policy: policy)
        let controller = world.names[0]
        let launches = Launches<ScanningApp>()
        try phone.install(AppDescription(name: "Finder", modes: .bluetoothCentral)) { _ in
            launches.apps.append(ScanningApp(services: [Self.lamp], allowDuplicates: false, controller: controller))
        }
        try phone.perform(.launch("Finder"))
        try await waitFor("the scan") { launches.apps.first?.manager.isScanning == true }
        let app = try #require(launches.apps.first)
        try phone.perform(.background("Finder"))
        try await testClock.sleep(for: .seconds(1))

        // Five 16-bit services fill the advertisement: the lamp's 128-bit UUID goes to the scan response.
        let lamp = try #require(BluetoothUUID(Self.lamp.uuidString))
        let content = AdvertisingContent(name: nil, serviceUUIDs: [0x1801, 0x1802, 0x1803, 0x1804, 0x1805, lamp])
        let layout = try content.layout(connectable: true, scannable: true)
        #expect(!(layout.advertising.serviceUUIDs ?? []).contains(lamp))
        #expect(layout.scanResponse.serviceUUIDs == [lamp])
        let session = try await world.devices[1].peripheral.advertise(content, interval: .milliseconds(100))

        try await testClock.sleep(for: .seconds(20))
        #expect(app.discoveries.count == (backgroundActiveScan ? 1 : 0))
        try phone.perform(.foreground("Finder"))
        #expect(await eventually { app.discoveries.count == 1 })
        try await session.stop()
        phone.close()
        await world.close()
    }
}

extension PhoneScanTests {
    /// A UUID whose overflow-area bit is ``AdvertisingApp/first``'s: a collision.
    static let collider = CBUUID(string: "C0FFEE00-0000-4000-8000-000000000075")
    /// A UUID whose bit neither of ``AdvertisingApp``'s services sets.
    static let stranger = CBUUID(string: "C0FFEE00-0000-4000-8000-000000000000")

    /// What the apps of a phone scanning off screen, one app per UUID in `scans`, discover
    /// of a second phone whose app advertises ``AdvertisingApp``'s services off screen (rule
    /// 12: in the overflow area of the advertisement only), after `seconds`.
    private func offScreenScans(for scans: [CBUUID], seconds: Int) async throws -> [ScanningApp] {
        let world = try await DevicesWorld.make(devices: 2)
        let advertiser = SimulatedPhone(device: world.devices[0])
        let scanner = SimulatedPhone(device: world.devices[1])
        let advertisers = Launches<AdvertisingApp>(), scanners = Launches<ScanningApp>()
        let (advertiserController, scannerController) = (world.names[0], world.names[1])
        try advertiser.install(AppDescription(name: "Pulse", modes: .bluetoothPeripheral)) { _ in
            advertisers.apps.append(AdvertisingApp(controller: advertiserController))
        }
        for (index, uuid) in scans.enumerated() {
            try scanner.install(AppDescription(name: "Scanner \(index)", modes: .bluetoothCentral)) { _ in
                scanners.apps.append(ScanningApp(services: [uuid], allowDuplicates: false, controller: scannerController))
            }
            try scanner.perform(.launch("Scanner \(index)"))
            try scanner.perform(.background("Scanner \(index)"))
        }
        try await waitFor("the scans") { scanners.apps.count == scans.count && scanners.apps.allSatisfy { $0.manager.isScanning } }
        try await testClock.sleep(for: .seconds(1))
        try advertiser.perform(.launch("Pulse"))
        try advertiser.perform(.background("Pulse"))
        try await testClock.sleep(for: .seconds(seconds))
        #expect(advertisers.apps.first?.manager.isAdvertising == true)
        advertiser.close()
        scanner.close()
        await world.close()
        return scanners.apps
    }

    private func overflowed(_ app: ScanningApp) -> [CBUUID]? {
        app.advertisementData.first?[CBAdvertisementDataOverflowServiceUUIDsKey] as? [CBUUID]
    }

    @Test("Rule 10: an app scanning off screen for a service finds an off-screen advertiser of it by its overflow-area bit, reported as an overflow service")
    func overflowAreaMatch() async throws {
        let apps = try await offScreenScans(for: [AdvertisingApp.second, Self.stranger], seconds: 10)
        let (finder, stranger) = (apps[0], apps[1])
        let advertised = try [AdvertisingApp.first, AdvertisingApp.second].map { try #require(BluetoothUUID($0.uuidString)) }
        #expect(!ServiceOverflowArea(advertised).mayContain(try #require(BluetoothUUID(Self.stranger.uuidString))))
        #expect(finder.discoveries.count == 1)
        #expect(overflowed(finder) == [AdvertisingApp.second])
        #expect(finder.advertisementData.first?[CBAdvertisementDataServiceUUIDsKey] == nil)
        #expect(finder.advertisementData.first?[CBAdvertisementDataLocalNameKey] == nil)
        #expect(stranger.discoveries.isEmpty, "its bit is not set")
    }

    @Test("Rule 10: a service whose overflow-area bit collides with an advertised one's is a false match")
    func overflowCollision() async throws {
        let collider = try #require(BluetoothUUID(Self.collider.uuidString))
        let first = try #require(BluetoothUUID(AdvertisingApp.first.uuidString))
        #expect(ServiceOverflowArea.bit(for: collider) == ServiceOverflowArea.bit(for: first))
        let apps = try await offScreenScans(for: [Self.collider], seconds: 10)
        #expect(apps[0].discoveries.count == 1, "the advertiser does not offer the service, but its bit is set")
        #expect(overflowed(apps[0]) == [Self.collider])
    }
}
