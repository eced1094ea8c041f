import BLEBackend
import BLEFleet
import Testing

/// Ride references: their form, and that they follow from content and counter only.
@Suite("Ride references")
struct RideReferenceTests {
    static let ride = RideLog(rider: "ann", vehicle: "bus-42", route: "42", boarded: .init(zone: "s1", time: 1), alighted: .init(zone: "s2", time: 9),
                              stops: [.init(zone: "s1", time: 1)], postedAt: 10)

    @Test("A reference is R- and two groups of four Crockford Base32 characters")
    func form() {
        let reference = RideReference.make(contentKey: RideReference.contentKey(of: Self.ride), counter: 0)
        #expect(RideReference.isWellFormed(reference))
        #expect(reference.count == 11)
        #expect(!reference.contains { "ILOU".contains($0) })
        #expect(!RideReference.isWellFormed("R-IIII-0000"))
        #expect(!RideReference.isWellFormed("r-0000-0000"))
        #expect(!RideReference.isWellFormed("R-0000-00000"))
    }

    @Test("The same content and counter give the same reference; another counter or rider another")
    func deterministic() {
        let key = RideReference.contentKey(of: Self.ride)
        #expect(RideReference.make(contentKey: key, counter: 3) == RideReference.make(contentKey: key, counter: 3))
        #expect(RideReference.make(contentKey: key, counter: 3) != RideReference.make(contentKey: key, counter: 4))
        var other = Self.ride
        other.rider = "bob"
        #expect(RideReference.contentKey(of: other) != key)
        var reposted = Self.ride
        reposted.postedAt = 99
        #expect(RideReference.contentKey(of: reposted) == key)
    }
}
