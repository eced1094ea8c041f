/// The SDUs `ble l2cap connect` sends: sizes drawn from a range and contents drawn from a
/// seed, both derived from the SDU's index alone, so the checker regenerates what it
/// expects without keeping what was sent and a failing run repeats exactly.
struct SDUPattern: Sendable {
    /// The smallest and largest SDU, in octets.
    let sizes: ClosedRange<Int>
    /// Mixed into every draw; the same seed gives the same SDUs.
    let seed: UInt64

    /// Parses `--size`: one number (every SDU that long) or `MIN-MAX`; `nil` if it is
    /// neither or a bound is below 1.
    static func sizes(parsing text: String) -> ClosedRange<Int>? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        switch parts.count {
        case 1:
            guard let size = Int(parts[0]), size >= 1 else { return nil }
            return size ... size
        case 2:
            guard let low = Int(parts[0]), let high = Int(parts[1]), low >= 1, low <= high else { return nil }
            return low ... high
        default:
            return nil
        }
    }

    /// The octets of SDU `index`.
    func sdu(_ index: Int) -> [UInt8] {
        var generator = SplitMix64(state: seed ^ (UInt64(truncatingIfNeeded: index) &* 0xD6E8_FEB8_6659_FD93))
        let span = UInt64(sizes.upperBound - sizes.lowerBound + 1)
        let count = sizes.lowerBound + Int(generator.next() % span)
        var bytes = [UInt8]()
        bytes.reserveCapacity(count)
        while bytes.count < count {
            var word = generator.next()
            for _ in 0 ..< min(8, count - bytes.count) {
                bytes.append(UInt8(truncatingIfNeeded: word))
                word >>= 8
            }
        }
        return bytes
    }

    /// Where `received` first differs from SDU `index`, or `nil` when it is identical.
    func mismatch(_ received: [UInt8], index: Int) -> String? {
        let expected = sdu(index)
        if received == expected { return nil }
        if received.count != expected.count {
            return "SDU \(index) came back with \(received.count) octets instead of \(expected.count)"
        }
        let differing = expected.indices.filter { received[$0] != expected[$0] }
        let first = differing.first ?? 0
        return "SDU \(index) came back with \(differing.count) of \(expected.count) octets changed, the first at offset \(first)"
    }
}

/// SplitMix64 (Steele, Lea and Flood, 2014): a tiny, fast generator whose whole state is
/// one word, enough for test patterns (not for keys).
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
