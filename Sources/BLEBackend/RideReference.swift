import BLEFleet

/// The reference number a stored ride gets, `R-XXXX-XXXX`: eight characters of Crockford's
/// Base32 (digits and letters without I, L, O and U, so that none is misread when read out:
/// https://www.crockford.com/base32.html), made from the ride's content and a counter.
///
/// Deterministic on purpose: the same rides posted in the same order get the same references,
/// so a simulated run with a seed tells the same story every time. The counter (the number of
/// rides stored, then the next values on a clash) keeps two identical-looking rides apart.
public enum RideReference {
    /// Crockford's Base32 alphabet.
    static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")

    /// The reference for a ride's content key and a counter value.
    ///
    /// - Parameters:
    ///   - contentKey: ``contentKey(of:)`` of the ride.
    ///   - counter: The counter value the store chose.
    /// - Returns: `R-` and eight Base32 characters in two groups of four.
    public static func make(contentKey: String, counter: Int64) -> String {
        var value = fnv1a(Array("\(contentKey)#\(counter)".utf8))
        var characters: [Character] = []
        for _ in 0 ..< 8 {
            characters.append(alphabet[Int(value & 31)])
            value >>= 5
        }
        return "R-" + String(characters[0 ..< 4]) + "-" + String(characters[4 ..< 8])
    }

    /// Whether `text` has a reference's form (`R-` and two groups of four Base32 characters, upper case).
    public static func isWellFormed(_ text: String) -> Bool {
        let characters = Array(text)
        guard characters.count == 11, characters[0] == "R", characters[1] == "-", characters[6] == "-" else { return false }
        return (characters[2 ..< 6] + characters[7 ..< 11]).allSatisfy { alphabet.contains($0) }
    }

    /// A name of a ride's content: the same rider, vehicle, route, boarding, alighting and stops
    /// give the same key, whenever it was posted (a phone retrying a post gets its reference back).
    ///
    /// Two 64-bit FNV-1a hashes of the fields, separated by a unit separator, in hex (32 digits).
    public static func contentKey(of ride: RideLog) -> String {
        var fields = [ride.rider, ride.vehicle, ride.route ?? "\u{0}", ride.boarded.zone, String(ride.boarded.time),
                      ride.alighted?.zone ?? "\u{0}", ride.alighted.map { String($0.time) } ?? "\u{0}"]
        for stop in ride.stops { fields += [stop.zone, String(stop.time)] }
        let bytes = Array(fields.joined(separator: "\u{1F}").utf8)
        return hex(fnv1a(bytes)) + hex(fnv1a(bytes.reversed()))
    }

    /// FNV-1a, 64 bits (Fowler, Noll, Vo; http://www.isthe.com/chongo/tech/comp/fnv/).
    static func fnv1a(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
