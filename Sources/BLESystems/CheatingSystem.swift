import BLE
import BLEBackend
import BLEPhone
import BLETime
import BLEWorld
import Foundation
import OpenCoreBluetooth
import OpenCoreLocation
import ShopCoupon

/// Cheating (`system: cheating`, Scenarios/cheating.yaml): a bystander's devices copy the
/// shop's static iBeacon and its rotating Eddystone-EID beacon and play both back far away.
/// Each phone carries the coupon app (Examples/ShopCoupon) with both strategies: the static
/// one is fooled by the copy, the rotating one asks the back end (`POST /eid/resolve`), which
/// refuses a copied identifier as stale.
public enum CheatingSystem {
    /// The app's name on every phone.
    public static let app = "Coupons"
    /// The scenario's devices that carry a phone with the app.
    public static let phoneNames = ["victim", "customer"]
    /// The shop's static iBeacon, as the scenario names it.
    public static let shopIBeacon = "shop iBeacon"
    /// The shop's Eddystone-EID beacon, as the scenario names it; the back end calls it `shop`.
    public static let shopEIDBeacon = "shop EID beacon"

    /// What one phone's coupon app did.
    public struct PhoneOutcome: Sendable {
        /// When the static (iBeacon) coupon showed.
        public var staticCoupons: [Date]
        /// When the rotating (EID) coupon showed.
        public var rotatingCoupons: [Date]
        /// The back end's answers to the app's EID questions.
        public var answers: [(time: Date, frame: String, status: Int, body: String)]
        /// The bodies of the notifications on the phone's lock screen.
        public var lockScreen: [String]
    }

    /// What the phones and the back end did, and the story.
    public struct Outcome: Sendable {
        /// The story.
        public var run: SystemRun
        /// Each phone's app, by device name.
        public var phones: [String: PhoneOutcome]
        /// The back end's answers with a 5xx status (there should be none).
        public var serverErrors: Int
    }

    /// The registry's entry.
    public static let system = FieldSystem(name: "cheating", summary: "a copied beacon fools a static-iBeacon coupon, not a rotating-EID one") { setup in
        try await run(setup).run
    }

    /// The back end's EID configuration, as the shop's operator provisions it: each EID
    /// beacon of the scenario (not its copies) with its key and its counter at virtual time 0.
    public static func beacons(of setup: SystemSetup) throws -> EIDBeaconRegistry {
        var beacons: [EIDBeaconRegistry.Beacon] = []
        for device in setup.scenario.devices where device.copying == nil {
            guard let eid = device.advertising?.data.eddystoneEID else { continue }
            beacons.append(.init(identifier: device.name == shopEIDBeacon ? "shop" : device.name, identityKey: String(eid.identityKey, radix: 16).leftPadded(to: 32),
                                 rotationExponent: eid.rotationExponent, timeCounter: eid.timeCounter, registeredAt: PhonePlay.epoch))
        }
        do {
            return try EIDBeaconRegistry(beacons: beacons)
        } catch {
            throw SystemError("the scenario's EID beacons cannot be provisioned: \(error)")
        }
    }

    /// The shop's iBeacon identity, which the static coupon monitors.
    public static func shopBeacon(of setup: SystemSetup) throws(SystemError) -> StaticCouponApp.ShopBeacon {
        guard let beacon = setup.scenario.device(named: shopIBeacon)?.advertising?.data.iBeacon else {
            throw SystemError("the scenario has no iBeacon called \"\(shopIBeacon)\"")
        }
        return StaticCouponApp.ShopBeacon(uuid: UUID(uuid128: beacon.uuid), major: beacon.major, minor: beacon.minor)
    }

    /// Plays the scenario with the coupon app on every phone.
    public static func run(_ setup: SystemSetup) async throws -> Outcome {
        let store = try await SystemStore(setup)
        let directory = NSTemporaryDirectory() + "swiftble-cheating-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            var files: [String: String] = [:]
            for name in phoneNames where setup.scenario.device(named: name) != nil {
                let file = directory + "/\(name).yaml"
                let text = try PhonePlay.text(setup.text, attachingHostTo: name)
                try text.write(toFile: file, atomically: true, encoding: .utf8)
                // The Core Bluetooth central opens a world of its own from a file of its own, so
                // that the phone's radio lines (``PhoneRadio``) are the Core Location world's alone.
                try text.write(toFile: centralFile(file), atomically: true, encoding: .utf8)
                files[name] = file
            }
            let shop = try shopBeacon(of: setup)
            let backendStore = store.store
            let registry = try beacons(of: setup)
            let outcome = try await PhonePlay.inSimulation(seed: setup.scenario.seed) { clock in
                try await play(setup, files: files, shop: shop, clock: clock,
                               backend: RecordingBackend(BackendInProcess(store: backendStore, eidBeacons: registry)) { clock.microseconds })
            }
            await store.close()
            return outcome
        } catch {
            await store.close()
            throw error
        }
    }

    @MainActor
    private static func play(_ setup: SystemSetup, files: [String: String], shop: StaticCouponApp.ShopBeacon, clock: VirtualClock,
                             backend: RecordingBackend) async throws -> Outcome {
        var phones: [(name: String, phone: SimulatedPhone, host: String)] = []
        let launches = Launches()
        // Each phone's Core Location manager opens its file: what that radio hears there.
        let radios = phoneNames.compactMap { name in files[name].map { PhoneRadio(device: name, file: $0) } }
        defer { for radio in radios { radio.stop() } }
        for (index, name) in phoneNames.enumerated() {
            guard let file = files[name] else { continue }
            // Exits on time (PhonePolicy.punctualExits): this run's story rests on them.
            let phone = SimulatedPhone(clock: clock, policy: .punctualExits, seed: setup.scenario.seed &+ UInt64(index))
            let host = PhonePlay.uniqueHost("coupons")
            phone.register(server: backend, host: host)
            try phone.install(AppDescription(name: app, modes: [.bluetoothCentral])) { _ in
                let now: @Sendable () -> Date = { PhonePlay.date(clock.microseconds) }
                let manager = CLLocationManager(options: .init(hci: "sim:\(file)", exitPeriod: .seconds(10)))
                let fixed = StaticCouponApp(manager: manager, shop: shop, now: now)
                fixed.start()
                let central = "sim:\(centralFile(file))"
                let rotating = RotatingCouponApp(backend: URL(string: "http://\(host)")!, options: [OpenCoreBluetoothControllerOptionKey: central], now: now)
                rotating.start()
                launches.apps[name] = (fixed, rotating)
            }
            try phone.perform(.launch(app))
            try await clock.sleep(for: .milliseconds(100))
            try phone.perform(.background(app))
            phones.append((name, phone, host))
        }
        try await clock.sleep(untilMicroseconds: setup.microseconds)

        var story = radios.flatMap(\.lines)
        var hosts: [String: String] = [:]
        var outcomes: [String: PhoneOutcome] = [:]
        func virtual(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1e6).rounded()) - PhonePlay.epoch }
        for (name, phone, host) in phones {
            hosts[host] = "coupons.sim"
            story += PhonePlay.lines(of: phone, device: name)
            guard let (fixed, rotating) = launches.apps[name] else { continue }
            let who = "\(app) on \(name)"
            for time in fixed.couponsShown {
                story.append(SystemStoryLine(time: virtual(time), actor: .app, who: who, text: "iBeacon coupon shown (the shop's iBeacon heard)"))
            }
            for answer in rotating.answers {
                story.append(SystemStoryLine(time: virtual(answer.time), actor: .app, who: who, text: "heard EID \(answer.frame.suffix(16)); the back end answered \(answer.status)"))
            }
            for time in rotating.couponsShown {
                story.append(SystemStoryLine(time: virtual(time), actor: .app, who: who, text: "EID coupon shown (the back end named the shop)"))
            }
            outcomes[name] = PhoneOutcome(staticCoupons: fixed.couponsShown, rotatingCoupons: rotating.couponsShown, answers: rotating.answers,
                                          lockScreen: phone.lockScreenLog.map(\.body))
        }
        story += backend.storyLines(host: "backend")
        let outcome = Outcome(run: SystemRun(system: "cheating", setup: setup, story: PhonePlay.normalized(story, hosts: hosts)), phones: outcomes,
                              serverErrors: backend.exchanges.count { $0.response.status >= 500 })
        for (fixed, rotating) in launches.apps.values {
            fixed.stop()
            rotating.stop()
        }
        for (_, phone, _) in phones { phone.close() }
        return outcome
    }

    /// The scenario file of the Core Bluetooth central beside a phone's Core Location `file`.
    private static func centralFile(_ file: String) -> String {
        String(file.dropLast(".yaml".count)) + "-central.yaml"
    }

    /// The coupon apps of each phone.
    @MainActor
    private final class Launches {
        var apps: [String: (fixed: StaticCouponApp, rotating: RotatingCouponApp)] = [:]
    }
}

extension String {
    /// The string with zeros in front up to `width` characters: a key's hex digits.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

extension UUID {
    /// The UUID whose 128 bits, most significant first, are `value`.
    fileprivate init(uuid128 value: UInt128) {
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0 ..< 16 { bytes[index] = UInt8(truncatingIfNeeded: value >> (8 * UInt128(15 - index))) }
        self.init(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                         bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
