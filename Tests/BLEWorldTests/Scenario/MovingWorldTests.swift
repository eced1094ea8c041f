import BLEController
import Foundation
import BLEWire
@testable import BLEWorld
import Testing

/// Carried devices, attached obstacles, body shadows, headings that follow the route, and
/// the turn action (the beacon field scenarios need a bus with passengers and a walking person).
@Suite("Carried devices, moving obstacles and bodies")
struct MovingWorldTests {
    static let east = Route(waypoints: [Waypoint(position: Vector3(x: 10, y: 0, z: 0), speed: 1)])

    @Test("A carried device is at its carrier's position plus its offset, wherever the carrier's route takes it")
    func carried() {
        let world = World(configuration: WorldConfiguration(seed: 1))
        let bus = world.addDevice(DeviceDescription(name: "bus", position: .zero, route: Self.east), controller: TestListener())
        let rider = world.addDevice(DeviceDescription(name: "rider", position: Vector3(x: 99, y: 99, z: 99)),
                                    controller: TestListener())
        #expect(world.carry(rider, by: bus, offset: Vector3(x: 1, y: 0.5, z: 1.2)))
        #expect(world.position(of: rider) == Vector3(x: 1, y: 0.5, z: 1.2))
        world.run(until: 4_000_000)
        #expect(world.position(of: rider) == Vector3(x: 5, y: 0.5, z: 1.2))
        #expect(world.position(of: rider, at: 8_000_000) == Vector3(x: 9, y: 0.5, z: 1.2))
        // No loops: the bus cannot ride with its own rider, nor a device with itself.
        #expect(!world.carry(bus, by: rider, offset: .zero))
        #expect(!world.carry(bus, by: bus, offset: .zero))
        // moveTo takes the rider off the bus.
        world.move(rider, to: Vector3(x: -3, y: 0, z: 0))
        world.run(until: 6_000_000)
        #expect(world.position(of: rider) == Vector3(x: -3, y: 0, z: 0))
    }

    @Test("An obstacle attached to a device moves with it: the loss applies where the device is at the time")
    func attachedObstacle() {
        let world = World(configuration: WorldConfiguration(seed: 1))
        let bus = world.addDevice(DeviceDescription(name: "bus", position: Vector3(x: -20, y: 0, z: 0),
                                                    route: Route(waypoints: [Waypoint(position: Vector3(x: 20, y: 0, z: 0),
                                                                                      speed: 10)])),
                                  controller: TestListener())
        let beacon = world.addDevice(DeviceDescription(name: "beacon", position: Vector3(x: 0, y: -5, z: 1)), controller: TestBeacon(tag: 1))
        let phone = world.addDevice(DeviceDescription(name: "phone", position: Vector3(x: 0, y: 5, z: 1)), controller: TestListener())
        world.addObstacle(Obstacle(name: "body", shape: .box(min: Vector3(x: -6, y: -1.25, z: 0), max: Vector3(x: 6, y: 1.25, z: 3)),
                                   lossDB: 20), attachedTo: bus)
        let open = -40 - 25 * log10(10.0)
        #expect(abs((world.receivedPowerDBm(from: beacon, to: phone, txPowerDBm: 0) ?? 0) - open) < 1e-9)
        world.run(until: 2_000_000)  // the bus is at x = 0, between the two
        #expect(abs((world.receivedPowerDBm(from: beacon, to: phone, txPowerDBm: 0) ?? 0) - (open - 20)) < 1e-9)
        #expect(world.obstacleLossDB(from: Vector3(x: 0, y: -5, z: 1), to: Vector3(x: 0, y: 5, z: 1), at: 0) == 0)
        #expect(world.obstacleLossDB(from: Vector3(x: 0, y: -5, z: 1), to: Vector3(x: 0, y: 5, z: 1), at: 2_000_000) == 20)
        world.run(until: 4_000_000)  // at x = 20, past them
        #expect(abs((world.receivedPowerDBm(from: beacon, to: phone, txPowerDBm: 0) ?? 0) - open) < 1e-9)
    }

    @Test("A body costs nothing in front, its full loss straight behind and -cos of it in between")
    func bodyShadow() {
        #expect(BodyShadow.lossDB(15, headingDegrees: 0, toward: Vector3(x: 1, y: 0, z: 0)) == 0)
        #expect(BodyShadow.lossDB(15, headingDegrees: 0, toward: Vector3(x: 0, y: 1, z: 0)) == 0)
        #expect(abs(BodyShadow.lossDB(15, headingDegrees: 0, toward: Vector3(x: -1, y: 0, z: 0)) - 15) < 1e-12)
        #expect(abs(BodyShadow.lossDB(15, headingDegrees: 0, toward: Vector3(x: -1, y: 3.0.squareRoot(), z: 0)) - 7.5) < 1e-9)
        #expect(abs(BodyShadow.lossDB(15, headingDegrees: 90, toward: Vector3(x: 0, y: -2, z: 0)) - 15) < 1e-12)
        #expect(BodyShadow.lossDB(0, headingDegrees: 0, toward: Vector3(x: -1, y: 0, z: 0)) == 0)
    }

    @Test("A walker facing where they walk has the beacon in front before passing it and behind after")
    func headingFollowsRoute() {
        let world = World(configuration: WorldConfiguration(seed: 1))
        let beacon = world.addDevice(DeviceDescription(name: "beacon", position: Vector3(x: 5, y: 0, z: 0)), controller: TestBeacon(tag: 1))
        let walker = world.addDevice(DeviceDescription(name: "walker", position: .zero, headingDegrees: 180, route: Self.east,
                                                       headingFollowsRoute: true, bodyLossDB: 15),
                                     controller: TestListener())
        world.run(until: 3_000_000)  // 2 m before the beacon
        #expect(world.heading(of: walker) == 0)
        let before = world.receivedPowerDBm(from: beacon, to: walker, txPowerDBm: 0) ?? 0
        world.run(until: 7_000_000)  // 2 m past it
        let after = world.receivedPowerDBm(from: beacon, to: walker, txPowerDBm: 0) ?? 0
        #expect(abs(before - after - 15) < 1e-9)
        // Turning round puts the body out of the way again, and stops following the route.
        world.setHeading(walker, degrees: 180)
        #expect(abs((world.receivedPowerDBm(from: beacon, to: walker, txPowerDBm: 0) ?? 0) - before) < 1e-9)
        world.run(until: 8_000_000)
        #expect(world.heading(of: walker) == 180)
    }

    @Test("A looping route's direction is that of the leg under way, including the way back")
    func loopingDirection() {
        let route = Route(waypoints: [Waypoint(position: Vector3(x: 4, y: 0, z: 0), speed: 1),
                                      Waypoint(position: Vector3(x: 4, y: 4, z: 0), speed: 1)], loops: true)
        let plan = RoutePlan(start: .zero, route: route)
        #expect(plan.direction(at: 0.5).map { $0.x > 0 && $0.y == 0 } == true)
        #expect(plan.direction(at: 5).map { $0.x == 0 && $0.y > 0 } == true)
        #expect(plan.direction(at: 9).map { $0.x == 0 && $0.y < 0 } == true)  // last → first, straight down
        #expect(plan.direction(at: 100) != nil)
        #expect(RoutePlan(start: .zero, route: Route(waypoints: [])).direction(at: 1) == nil)
    }
}
