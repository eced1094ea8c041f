import BLEHost
import BLEWire
import Testing

/// Our resolvable private address on a timer (Core 5.4, Vol 3, Part C, §10.7.1.2,
/// TGAP(private_addr_int)).
@Suite("RPA rotation")
struct RPARotationTests {
    static let irk: UInt128 = 0x0011_2233_4455_6677_8899_AABB_CCDD_EEFF
    static let minute: HostTime = 60_000_000

    @Test("the default interval is 15 minutes and nothing is due before start")
    func defaults() throws {
        var rotation = RPARotation(identityResolvingKey: Self.irk)
        var generator = GAPRandom(seed: 1)
        #expect(rotation.interval == 15 * Self.minute)
        #expect(rotation.nextDeadline == nil)
        #expect(try rotation.tick(now: 100 * Self.minute, using: &generator) == nil)
    }

    @Test("start gives an address resolvable with our IRK and a deadline one interval later")
    func start() throws {
        var rotation = RPARotation(identityResolvingKey: Self.irk)
        var generator = GAPRandom(seed: 1)
        let first = try rotation.start(now: 5, using: &generator)
        #expect(try ResolvablePrivateAddress.matches(first, irk: Self.irk))
        #expect(rotation.currentAddress == first)
        #expect(rotation.nextDeadline == 5 + 15 * Self.minute)
    }

    @Test("tick before the deadline keeps the address; at the deadline it gives a new one and re-arms")
    func tickAtDeadline() throws {
        var rotation = RPARotation(identityResolvingKey: Self.irk, interval: 2 * Self.minute)
        var generator = GAPRandom(seed: 7)
        let first = try rotation.start(now: 0, using: &generator)
        #expect(try rotation.tick(now: 2 * Self.minute - 1, using: &generator) == nil)
        let second = try #require(try rotation.tick(now: 2 * Self.minute, using: &generator))
        #expect(second != first)
        #expect(try ResolvablePrivateAddress.matches(second, irk: Self.irk))
        #expect(rotation.currentAddress == second)
        #expect(rotation.nextDeadline == 4 * Self.minute)
    }

    @Test("a late tick rotates once and re-arms from now, not in a burst")
    func lateTick() throws {
        var rotation = RPARotation(identityResolvingKey: Self.irk, interval: Self.minute)
        var generator = GAPRandom(seed: 3)
        _ = try rotation.start(now: 0, using: &generator)
        #expect(try rotation.tick(now: 10 * Self.minute, using: &generator) != nil)
        #expect(rotation.nextDeadline == 11 * Self.minute)
        #expect(try rotation.tick(now: 10 * Self.minute + 1, using: &generator) == nil)
    }

    @Test("the same seed gives the same addresses; an interval under one second is raised to it")
    func deterministic() throws {
        func addresses(seed: UInt64) throws -> [BluetoothAddress] {
            var rotation = RPARotation(identityResolvingKey: Self.irk, interval: 10)
            var generator = GAPRandom(seed: seed)
            var result = [try rotation.start(now: 0, using: &generator)]
            for step in 1 ... 3 {
                if let next = try rotation.tick(now: HostTime(step) * RPARotation.minimumInterval, using: &generator) {
                    result.append(next)
                }
            }
            return result
        }
        #expect(try addresses(seed: 9) == addresses(seed: 9))
        #expect(try addresses(seed: 9).count == 4)
        #expect(try addresses(seed: 9) != addresses(seed: 10))
    }
}
