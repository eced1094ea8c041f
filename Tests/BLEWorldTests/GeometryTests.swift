import BLEWorld
import Testing

@Suite("World geometry")
struct GeometryTests {
    @Test("Distance is Euclidean in three dimensions")
    func distance() {
        #expect(Vector3.distance(Vector3(x: 1, y: 2, z: 3), Vector3(x: 4, y: 6, z: 15)) == 13)
    }

    @Test("A segment through a box crosses it; one passing beside or stopping short does not")
    func box() {
        let wall = ObstacleShape.box(min: Vector3(x: 4, y: -5, z: 0), max: Vector3(x: 5, y: 5, z: 3))
        #expect(wall.intersectsSegment(from: Vector3(x: 0, y: 0, z: 1), to: Vector3(x: 10, y: 0, z: 1)))
        #expect(wall.intersectsSegment(from: Vector3(x: 10, y: 1, z: 2), to: Vector3(x: 0, y: -1, z: 0.5)))
        #expect(!wall.intersectsSegment(from: Vector3(x: 0, y: 6, z: 1), to: Vector3(x: 10, y: 6, z: 1)))
        #expect(!wall.intersectsSegment(from: Vector3(x: 0, y: 0, z: 1), to: Vector3(x: 3.9, y: 0, z: 1)))
        #expect(!wall.intersectsSegment(from: Vector3(x: 0, y: 0, z: 4), to: Vector3(x: 10, y: 0, z: 4)))
    }

    @Test("A segment through an upright cylinder crosses it, above it or beside it does not")
    func cylinder() {
        let pillar = ObstacleShape.cylinder(base: Vector3(x: 5, y: 0, z: 0), radius: 0.5, height: 2)
        #expect(pillar.intersectsSegment(from: Vector3(x: 0, y: 0, z: 1), to: Vector3(x: 10, y: 0, z: 1)))
        #expect(pillar.intersectsSegment(from: Vector3(x: 5, y: 0, z: 5), to: Vector3(x: 5, y: 0, z: -1)))
        #expect(!pillar.intersectsSegment(from: Vector3(x: 0, y: 0, z: 2.5), to: Vector3(x: 10, y: 0, z: 2.5)))
        #expect(!pillar.intersectsSegment(from: Vector3(x: 0, y: 0.6, z: 1), to: Vector3(x: 10, y: 0.6, z: 1)))
    }

    @Test("A segment through a sphere crosses it; a tangent or a miss does not")
    func sphere() {
        let ball = ObstacleShape.sphere(center: Vector3(x: 0, y: 0, z: 0), radius: 1)
        #expect(ball.intersectsSegment(from: Vector3(x: -3, y: 0.5, z: 0), to: Vector3(x: 3, y: 0.5, z: 0)))
        #expect(!ball.intersectsSegment(from: Vector3(x: -3, y: 1, z: 0), to: Vector3(x: 3, y: 1, z: 0)))
        #expect(!ball.intersectsSegment(from: Vector3(x: -3, y: 0, z: 0), to: Vector3(x: -1.5, y: 0, z: 0)))
        #expect(ball.intersectsSegment(from: Vector3(x: 0, y: 0, z: 0), to: Vector3(x: 0, y: 0, z: 9)))
    }

    @Test("A directional antenna has full gain on its heading, −3 dB at half the beamwidth and the back level behind")
    func antenna() {
        let pattern = AntennaPattern.directional(beamwidthDegrees: 60, frontToBackDB: 20)
        #expect(pattern.relativeGainDB(headingDegrees: 90, toward: Vector3(x: 0, y: 5, z: 0)) == 0)
        let halfBeam = pattern.relativeGainDB(headingDegrees: 0, toward: Vector3(x: 1, y: 0.57735026919, z: 0))
        #expect(abs(halfBeam + 3) < 1e-6)
        #expect(pattern.relativeGainDB(headingDegrees: 0, toward: Vector3(x: -1, y: 0, z: 0)) == -20)
        #expect(AntennaPattern.isotropic.relativeGainDB(headingDegrees: 0, toward: Vector3(x: -1, y: 0, z: 0)) == 0)
    }
}

@Suite("World motion")
struct MotionTests {
    @Test("A device moves along its waypoints at each leg's speed and stops at the end")
    func route() {
        let world = World(configuration: WorldConfiguration(seed: 1))
        let route = Route(waypoints: [Waypoint(position: Vector3(x: 10, y: 0, z: 0), speed: 2),
                                      Waypoint(position: Vector3(x: 10, y: 10, z: 0), speed: 5)], loops: false)
        let bus = world.addDevice(DeviceDescription(name: "bus", position: .zero, route: route), controller: TestListener())
        #expect(world.position(of: bus) == .zero)
        world.run(until: 2_500_000)
        #expect(world.position(of: bus) == Vector3(x: 5, y: 0, z: 0))
        world.run(until: 6_000_000)
        #expect(world.position(of: bus) == Vector3(x: 10, y: 5, z: 0))
        world.run(until: 60_000_000)
        #expect(world.position(of: bus) == Vector3(x: 10, y: 10, z: 0))
    }

    @Test("A looping route goes back to its first waypoint and round again")
    func loop() {
        let world = World(configuration: WorldConfiguration(seed: 1))
        let route = Route(waypoints: [Waypoint(position: Vector3(x: 10, y: 0, z: 0), speed: 10),
                                      Waypoint(position: Vector3(x: 10, y: 10, z: 0), speed: 10)], loops: true)
        let walker = world.addDevice(DeviceDescription(name: "walker", position: .zero, route: route), controller: TestListener())
        // Start → (10,0) in 1 s, → (10,10) by 2 s; lap (10,10) → (10,0) → (10,10) takes 2 s.
        world.run(until: 2_500_000)
        #expect(world.position(of: walker) == Vector3(x: 10, y: 5, z: 0))
        world.run(until: 3_000_000)
        #expect(world.position(of: walker) == Vector3(x: 10, y: 0, z: 0))
        world.run(until: 7_500_000)
        #expect(world.position(of: walker) == Vector3(x: 10, y: 5, z: 0))
    }

    @Test("Received power follows a moving transmitter")
    func movingPower() {
        let world = World(configuration: WorldConfiguration(seed: 1))
        let route = Route(waypoints: [Waypoint(position: Vector3(x: 10, y: 0, z: 0), speed: 1)])
        let mover = world.addDevice(DeviceDescription(name: "m", position: Vector3(x: 1, y: 0, z: 0), route: route),
                                    controller: TestBeacon(tag: 1))
        let still = world.addDevice(DeviceDescription(name: "s", position: .zero), controller: TestListener())
        #expect(world.receivedPowerDBm(from: mover, to: still, txPowerDBm: 0) == -40)
        world.run(until: 9_000_000)
        let power = world.receivedPowerDBm(from: mover, to: still, txPowerDBm: 0) ?? 0
        #expect(abs(power + 65) < 1e-9)
    }
}
