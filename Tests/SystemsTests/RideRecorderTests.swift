import RideLog
import Testing

/// The ride log's rules on region events alone, without a world.
@Suite("The ride recorder")
struct RideRecorderTests {
    static let bus = "ibeacon:BUS:42"

    static func recorder() -> RideRecorder {
        RideRecorder(busRegion: bus, stopRegions: ["stop 1", "stop 2", "stop 3"])
    }

    @Test("Boarding at the stop the phone is in, a stop on the way, and alighting at the last stop entered make one ride")
    func oneRide() {
        var recorder = Self.recorder()
        recorder.entered("stop 1", at: 10)
        recorder.entered(Self.bus, at: 20)
        #expect(recorder.exited("stop 1", at: 30) == nil)
        recorder.entered("stop 2", at: 40)
        #expect(recorder.exited("stop 2", at: 50) == nil)
        recorder.entered("stop 3", at: 60)
        let ride = recorder.exited(Self.bus, at: 70)
        #expect(ride?.boarded == .init(zone: "stop 1", time: 20))
        #expect(ride?.passed.map(\.zone) == ["stop 2"])
        #expect(ride?.alighted == .init(zone: "stop 3", time: 70))
        #expect(recorder.current == nil)
    }

    @Test("A rider who lets the bus go logs no ride")
    func busLeftWithoutTheRider() {
        var recorder = Self.recorder()
        recorder.entered("stop 2", at: 10)
        recorder.entered(Self.bus, at: 20)
        #expect(recorder.exited(Self.bus, at: 40) == nil)
    }

    @Test("A stop entered again with no other in between counts once; regions of neither kind are ignored")
    func stopOnce() {
        var recorder = Self.recorder()
        recorder.entered("stop 1", at: 10)
        recorder.entered(Self.bus, at: 20)
        recorder.entered("shop", at: 25)
        recorder.entered("stop 2", at: 30)
        _ = recorder.exited("stop 2", at: 35)
        recorder.entered("stop 2", at: 38)
        let ride = recorder.exited(Self.bus, at: 50)
        #expect(ride?.stops.map(\.zone) == ["stop 1", "stop 2"])
    }

    @Test("Boarding away from any stop's region starts the ride at the first stop entered on the bus")
    func boardedBetweenStops() {
        var recorder = Self.recorder()
        recorder.entered(Self.bus, at: 5)
        recorder.entered("stop 2", at: 30)
        recorder.entered("stop 3", at: 60)
        let ride = recorder.exited(Self.bus, at: 70)
        #expect(ride?.boarded.zone == "stop 2")
        #expect(ride?.alighted.zone == "stop 3")
        #expect(ride?.passed.isEmpty == true)
    }
}
