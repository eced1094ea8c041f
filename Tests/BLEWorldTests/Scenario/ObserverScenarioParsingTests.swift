import BLEController
import BLEWire
@testable import BLEWorld
import Testing

/// The scenario fields of the beacon field scenarios: carriedBy, headingFollowsRoute, body,
/// scan, observe, startAt, duration, attached obstacles and the turn action.
@Suite("Scenario files: carrying, bodies, scanning and observing")
struct ObserverScenarioParsingTests {
    static let complete = """
        name: ride
        duration: 42
        devices:
          - name: bus
            position: [0, 0, 0]
            route: {waypoints: [[100, 0, 0]], speed: 8.3}
            headingFollowsRoute: true
          - name: rider
            carriedBy: {device: bus, offset: [1, 0.5, 1.2]}
            headingFollowsRoute: true
            body: {lossDB: 15}
            startAt: 0.25
            scan: {interval: 60, window: 30, active: true}
            observe:
              monitor:
                - {identifier: stop 1, uuid: 8A6E3C2D-5B1F-4E07-9C44-2F1D0B7A3E51, major: 1, minor: 1}
                - {identifier: all stops, uuid: 8A6E3C2D-5B1F-4E07-9C44-2F1D0B7A3E51}
              range: false
              passes: true
              exitPeriod: 10
              filter: {kind: arma, coefficient: 0.5}
              receiver: nexus5
          - name: beacon
            carriedBy: {device: bus}
            startAt: random
            advertise:
              type: nonconn_ind
              iBeacon: {uuid: 8A6E3C2D-5B1F-4E07-9C44-2F1D0B7A3E51, major: 1, minor: 1}
        obstacles:
          - {name: body, attachedTo: bus, box: {min: [-6, -1.25, 0], max: [6, 1.25, 3]}, lossDB: 23}
          - {name: pole, cylinder: {base: [50, 3, 0], radius: 0.05, height: 3}, lossDB: 20}
        actions:
          - {at: 5, turn: {device: rider, heading: -90}}
        """

    @Test("Every new field reads into the scenario")
    func complete() throws {
        let scenario = try ScenarioLoader.parse(yaml: Self.complete)
        #expect(scenario.durationSeconds == 42)
        let rider = try #require(scenario.device(named: "rider"))
        #expect(rider.carriedBy == ScenarioCarriage(device: "bus", offset: Vector3(x: 1, y: 0.5, z: 1.2)))
        #expect(rider.description.headingFollowsRoute && rider.description.bodyLossDB == 15)
        #expect(rider.host == .scripted && rider.start == .at(0.25))
        #expect(rider.scanning == ScenarioScanning(intervalMilliseconds: 60, windowMilliseconds: 30, active: true))
        let observer = try #require(rider.observing)
        #expect(observer.regions.map(\.identifier) == ["stop 1", "all stops"])
        #expect(observer.regions[0].major == 1 && observer.regions[0].minor == 1 && observer.regions[1].major == nil)
        #expect(observer.regions[0].uuid == 0x8A6E_3C2D_5B1F_4E07_9C44_2F1D_0B7A_3E51)
        #expect(!observer.ranges && observer.reportsPasses && observer.exitPeriodSeconds == 10)
        #expect(observer.filter == .arma(coefficient: 0.5) && observer.receiver == .nexus5)
        #expect(scenario.device(named: "beacon")?.start == .randomInFirstInterval)
        #expect(scenario.device(named: "beacon")?.carriedBy == ScenarioCarriage(device: "bus"))
        #expect(scenario.obstacles.map(\.name) == ["pole"])
        #expect(scenario.attachedObstacles.map(\.device) == ["bus"])
        #expect(scenario.actions[0].action == .turn("rider", degrees: -90))
        // Defaults: a ranging observer with a 20 s running average, 30 s exits, no passes.
        let plain = ScenarioObserver(regions: [])
        #expect(plain.ranges && plain.exitPeriodSeconds == 30 && !plain.reportsPasses)
        #expect(plain.filter == .runningAverage(windowSeconds: 20, trimFraction: 0.1) && plain.receiver == .world)
    }

    @Test("It builds: the rider and beacon ride the bus, the scanner scans, the body moves, the turn turns")
    func builds() throws {
        let scenario = try ScenarioLoader.parse(yaml: Self.complete)
        let world = World(configuration: WorldConfiguration(seed: 1))
        let built = try scenario.build(into: world)
        let rider = try #require(built.id(of: "rider"))
        world.run(until: 2_000_000)
        #expect(abs(world.position(of: rider).x - 17.6) < 1e-9)
        #expect(built.scanners[rider]?.isScanning == true)
        #expect(built.failures.isEmpty)
        #expect(world.heading(of: rider) == 0)
        world.run(until: 6_000_000)
        #expect(world.heading(of: rider) == -90)
        #expect(world.obstacleLossDB(from: Vector3(x: 49.8, y: -5, z: 1), to: Vector3(x: 49.8, y: 5, z: 1)) == 23)
    }

    @Test("Mistakes in the new fields are refused with the field and a reason")
    func mistakes() {
        func error(_ yaml: String) -> ScenarioError? {
            do {
                _ = try ScenarioLoader.parse(yaml: yaml)
                return nil
            } catch {
                return error
            }
        }
        let region = "{identifier: r, uuid: 8A6E3C2D-5B1F-4E07-9C44-2F1D0B7A3E51}"
        let cases: [(String, String)] = [
            ("devices:\n  - {name: a, carriedBy: {device: nobody}}", "no device is called \"nobody\""),
            ("devices:\n  - {name: a, carriedBy: {device: b}}\n  - {name: b, carriedBy: {device: a}}", "carry itself"),
            ("devices:\n  - {name: a}\n  - {name: b, carriedBy: {device: a}, route: {waypoints: [[1, 0]], speed: 1}}",
             "leave out its route"),
            ("devices:\n  - {name: a, body: {loss: 3}}", "unknown key \"loss\""),
            ("devices:\n  - {name: a, scan: {interval: 30, window: 60}}", "cannot be longer than the interval"),
            ("devices:\n  - {name: a, host: external, scan: {}}", "cannot also have scan"),
            ("devices:\n  - {name: a, observe: {monitor: [\(region)]}}", "only a scanning device hears beacons"),
            ("devices:\n  - {name: a, host: none, observe: {monitor: [\(region)]}, apps: [{name: X}]}", "has no host to scan with"),
            ("devices:\n  - {name: a, host: external, observe: {monitor: [\(region)]}, apps: [{name: X, program: p, regions: [r]}]}",
             "registers its own regions"),
            ("devices:\n  - {name: a, scan: {}, observe: {monitor: []}}", "at least one region"),
            ("devices:\n  - {name: a, scan: {}, observe: {monitor: [\(region), \(region)]}}", "identifiers must be unique"),
            ("devices:\n  - {name: a, scan: {}, observe: {monitor: [{identifier: r, uuid: 180D}]}}", "128-bit"),
            ("devices:\n  - {name: a, scan: {}, observe: {monitor: [{identifier: r, uuid: 8A6E3C2D-5B1F-4E07-9C44-2F1D0B7A3E51, minor: 2}]}}",
             "needs a major too"),
            ("devices:\n  - {name: a, scan: {}, observe: {monitor: [\(region)], filter: {kind: kalman}}}", "not a filter"),
            ("devices:\n  - {name: a, scan: {}, observe: {monitor: [\(region)], filter: {kind: arma, window: 2}}}",
             "has a coefficient"),
            ("devices:\n  - {name: a, scan: {}, observe: {monitor: [\(region)], rnage: true}}", "unknown key \"rnage\""),
            ("devices:\n  - {name: a, startAt: 1}", "only a device with advertise or scan"),
            ("devices:\n  - {name: a}\nobstacles:\n  - {attachedTo: ghost, sphere: {center: [0, 0], radius: 1}, lossDB: 3}",
             "which is no device"),
            ("devices:\n  - {name: a}\nactions:\n  - {at: 1, turn: {device: a}}", "turn needs heading"),
            ("devices:\n  - {name: a}\nactions:\n  - {at: 1, turn: {device: b, heading: 3}}", "no device is called \"b\""),
            ("devices:\n  - {name: a, scan: {}, advertise: {name: x}}", "either advertises or scans"),
        ]
        for (yaml, expected) in cases {
            let found = error(yaml)
            #expect(found?.description.contains(expected) == true, "\(yaml): \(found?.description ?? "accepted")")
        }
    }

    @Test("A phone with observe: and no scan: scans as its phone does: no scanner of the file's, no host of its own")
    func phoneScansAsItsSystem() throws {
        let region = "{identifier: r, uuid: 8A6E3C2D-5B1F-4E07-9C44-2F1D0B7A3E51}"
        let scenario = try ScenarioLoader.parse(yaml: "devices:\n  - {name: p, observe: {monitor: [\(region)]}, apps: [{name: X}]}\n"
                                                + "  - {name: q, scan: {}, observe: {monitor: [\(region)]}, apps: [{name: X}]}")
        #expect(scenario.devices[0].scansAsPhone)
        #expect(scenario.devices[0].scanningPlan() == nil)
        #expect(!scenario.devices[1].scansAsPhone, "a phone with scan: scans as its file says")
        let plan = scenario.devices[0].scanPlan(window: 30_000, interval: 300_000, active: false)
        #expect(plan.parameters.leScanWindow == 48 && plan.parameters.leScanInterval == 480 && plan.parameters.leScanType == .passive)
    }

    @Test("A scripted scanner sends reset, event mask, scan parameters and scan enable without duplicate filtering")
    func scannerCommands() throws {
        let plan = ScriptedScanner.Plan(deviceName: "phone", randomAddress: nil,
                                        parameters: HCI.LESetScanParameters(leScanType: .passive, leScanInterval: 160,
                                                                            leScanWindow: 160, ownAddressType: .public))
        var scanner = ScriptedScanner(plan: plan)
        var sent: [HCI.Opcode] = []
        var packets = scanner.start()
        while case let .command(command)? = packets.first {
            sent.append(command.opcode)
            if command.opcode == HCI.LESetScanEnable.opcode {
                #expect(Array(command.parameters) == [1, 0], "scan enabled, duplicates not filtered")
            }
            let complete = try HCI.EventPacket(HCI.CommandComplete(numHCICommandPackets: 1, opcode: command.opcode,
                                                                   returnParameters: [0]))
            packets = scanner.handle(.event(complete))
        }
        #expect(sent == [HCI.Reset.opcode, HCI.SetEventMask.opcode, HCI.LESetScanParameters.opcode, HCI.LESetScanEnable.opcode])
        #expect(scanner.isScanning && scanner.failure == nil)
    }

    @Test("A scanning device in a world receives the advertising reports of a scripted beacon")
    func scannerHearsBeacon() throws {
        let scenario = try ScenarioLoader.parse(yaml: """
            devices:
              - name: beacon
                position: [0, 0, 1]
                advertise: {type: nonconn_ind, interval: 100, iBeacon: {uuid: 8A6E3C2D-5B1F-4E07-9C44-2F1D0B7A3E51}}
              - name: phone
                position: [3, 0, 1]
                scan: {interval: 100, window: 100}
            """)
        let world = World(configuration: WorldConfiguration(seed: 3))
        let built = try scenario.build(into: world)
        let phone = try #require(built.id(of: "phone"))
        var reports = 0
        built.onHostPacket = { device, packet in
            guard device == phone, case let .event(event) = packet,
                  case .leMeta(.advertisingReport)? = try? HCI.Event(decoding: event) else { return }
            reports += 1
        }
        world.run(until: 2_000_000)
        // Ten advertising events a second, each heard once on the channel being scanned.
        #expect(reports >= 15 && reports <= 21, "\(reports) reports")
    }
}
