import BLEController
import BLEWorld
import Foundation
import Testing

/// The energy model (docs/energy.md): the world counts each radio's airtime, receive time and
/// powered time as it runs, and ``RadioCurrentModel`` turns them into charge.
@Suite("Energy: radio time and charge")
struct EnergyTests {
    /// Three non-connectable beacons (100 ms and 1 s at 0 dBm, 1 s at −20 dBm) and a scanner
    /// with a 30 ms window every 100 ms, for `seconds`.
    static func run(seconds: Double, scanner window: Int = 30) throws -> (World, BuiltScenario) {
        let scenario = try ScenarioLoader.parse(yaml: """
            name: energy
            seed: 7
            devices:
              - {name: fast, address: "C0:00:00:00:00:01", addressType: random, position: [0, 0, 1], txPower: 0,
                 advertise: {type: nonconn_ind, interval: 100, name: fast}}
              - {name: slow, address: "C0:00:00:00:00:02", addressType: random, position: [2, 0, 1], txPower: 0,
                 advertise: {type: nonconn_ind, interval: 1000, name: slow}}
              - {name: quiet, address: "C0:00:00:00:00:03", addressType: random, position: [4, 0, 1], txPower: -20,
                 advertise: {type: nonconn_ind, interval: 1000, name: quiet}}
              - {name: listener, address: "C0:00:00:00:00:04", addressType: random, position: [1, 1, 1],
                 scan: {interval: 100, window: \(window)}}
            """)
        let world = World(configuration: WorldConfiguration(seed: scenario.seed))
        let built = try scenario.build(into: world)
        world.run(until: Microseconds(seconds * 1_000_000))
        return (world, built)
    }

    @Test("A beacon's airtime is three packets per advertising event, and ten times the events cost about ten times the radio charge")
    func advertisingAirtime() throws {
        let (world, built) = try Self.run(seconds: 60)
        let fast = world.radioActivity(of: try #require(built.id(of: "fast")))
        let slow = world.radioActivity(of: try #require(built.id(of: "slow")))
        // One event per interval plus its 0–10 ms advDelay (Core Vol 6 Part B §4.4.2.2.1),
        // on three channels.
        #expect((1_680 ... 1_800).contains(fast.transmissions), "\(fast.transmissions)")
        #expect((171 ... 180).contains(slow.transmissions), "\(slow.transmissions)")
        #expect(fast.receiveMicroseconds == 0 && slow.receiveMicroseconds == 0)
        // Every packet of a beacon is the same length, so airtime is packets × one packet.
        #expect(fast.transmitMicroseconds % Int64(fast.transmissions) == 0)
        #expect(fast.transmitMicroseconds / Int64(fast.transmissions) == slow.transmitMicroseconds / Int64(slow.transmissions))
        #expect(fast.poweredMicroseconds == 60_000_000 && slow.poweredMicroseconds == 60_000_000)

        let model = RadioCurrentModel.nRF52832
        let sleepOnly = 60.0 / 3_600 * model.sleepMicroamps   // µAh asleep for the whole minute
        let fastRadio = model.chargeMicroampHours(fast) - sleepOnly
        let slowRadio = model.chargeMicroampHours(slow) - sleepOnly
        #expect(fastRadio / slowRadio > 9 && fastRadio / slowRadio < 11, "\(fastRadio) \(slowRadio)")
    }

    @Test("A packet at −20 dBm is charged between the −40 dBm and 0 dBm currents")
    func transmitPower() throws {
        let (world, built) = try Self.run(seconds: 10)
        let quiet = world.radioActivity(of: try #require(built.id(of: "quiet")))
        #expect(quiet.transmitMicrosecondsByDBm.keys.sorted() == [-20])
        let model = RadioCurrentModel.nRF52832
        #expect(model.transmitMilliamps(atDBm: -20) == 5.6)
        #expect(model.transmitMilliamps(atDBm: 8) == 7.1 && model.transmitMilliamps(atDBm: -100) == 4.1)
    }

    @Test("A scanner's receive time is its window's share of the run, and a wider window costs more")
    func scanningDuty() throws {
        let (narrow, narrowBuilt) = try Self.run(seconds: 20, scanner: 30)
        let (wide, wideBuilt) = try Self.run(seconds: 20, scanner: 90)
        let narrowActivity = narrow.radioActivity(of: try #require(narrowBuilt.id(of: "listener")))
        let wideActivity = wide.radioActivity(of: try #require(wideBuilt.id(of: "listener")))
        // 30 % and 90 % of the time after the scripted host has started scanning.
        let narrowShare = Double(narrowActivity.receiveMicroseconds) / 20_000_000
        let wideShare = Double(wideActivity.receiveMicroseconds) / 20_000_000
        #expect(narrowShare > 0.25 && narrowShare <= 0.30, "\(narrowShare)")
        #expect(wideShare > 0.75 && wideShare <= 0.90, "\(wideShare)")
        #expect(narrowActivity.receiverWindows > 150)
        #expect(RadioCurrentModel.nRF52832.chargeMicroampHours(wideActivity) > 2.5 * RadioCurrentModel.nRF52832.chargeMicroampHours(narrowActivity))
    }

    @Test("A device switched off draws nothing while off: its powered time stops and no packets are counted")
    func poweredOff() throws {
        let (world, built) = try Self.run(seconds: 10)
        let fast = try #require(built.id(of: "fast"))
        let before = world.radioActivity(of: fast)
        world.setPowered(false, device: fast)
        world.run(until: 20_000_000)
        let off = world.radioActivity(of: fast)
        #expect(off.transmissions == before.transmissions && off.poweredMicroseconds == 10_000_000)
        world.setPowered(true, device: fast)
        world.run(until: 25_000_000)
        #expect(world.radioActivity(of: fast).poweredMicroseconds == 15_000_000)
    }

    @Test("Lifetime: a CR2032 at the run's average current; a battery is named or given in mAh, and nonsense is refused")
    func lifetime() throws {
        var activity = RadioActivity()
        activity.poweredMicroseconds = 3_600_000_000   // an hour asleep at 2 µA: 2 µAh
        let energy = DeviceEnergy(activity: activity, model: .nRF52832)
        #expect(abs(energy.chargeMicroampHours - 2) < 1e-9 && abs(energy.averageMicroamps - 2) < 1e-9)
        // 220 mAh at 2 µA: 110,000 hours.
        #expect(abs((energy.lifetimeDays(on: .cr2032) ?? 0) - 110_000.0 / 24) < 1e-6)
        #expect(Battery(parsing: "CR2032") == .cr2032 && Battery(parsing: "phone") == .phone)
        #expect(Battery(parsing: "500mAh")?.milliampHours == 500 && Battery(parsing: "1000")?.milliampHours == 1_000)
        for bad in ["", "-5", "0", "lots", "nan mAh", "inf"] { #expect(Battery(parsing: bad) == nil, "\(bad)") }
        #expect(DeviceEnergy(activity: RadioActivity(), model: .nRF52832).lifetimeDays(on: .cr2032) == nil)
    }

    @Test("docs/energy.md's example: the longer the interval the longer the beacon lasts, and the phone's ranging duty costs 7.5 times its monitoring duty")
    func documentedExample() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/energy/beacons.yaml").path
        let scenario = try ScenarioLoader.load(path: path)
        let world = World(configuration: WorldConfiguration(seed: scenario.seed))
        let built = try scenario.build(into: world)
        world.run(until: 60_000_000)
        func energy(_ name: String) throws -> DeviceEnergy { world.energy(of: try #require(built.id(of: name))) }
        let days = try ["beacon 100 ms", "beacon 350 ms", "beacon 1 s", "beacon 1 s -20 dBm"].map { try energy($0).lifetimeDays(on: .cr2032) ?? 0 }
        #expect(days[0] < days[1] && days[1] < days[2] && days[2] < days[3], "\(days)")
        let ranging = try energy("phone ranging").activity.receiveMicroseconds
        let monitoring = try energy("phone monitoring").activity.receiveMicroseconds
        #expect(abs(Double(ranging) / Double(monitoring) - 7.5) < 0.2, "\(ranging) \(monitoring)")
    }
}
