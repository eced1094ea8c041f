import BLEBeacons
import BLEWire
import Testing

/// Mutations of a valid frame for the malformed-input tests (the idea of BLEWireTests'
/// MalformedInput): every truncation, extensions by one and by many octets, and every
/// single-bit flip.
enum MalformedBeaconInput {
    /// The mutated inputs derived from `valid`.
    static func mutations(of valid: [UInt8]) -> [[UInt8]] {
        var inputs: [[UInt8]] = []
        for length in 0 ..< valid.count { inputs.append(Array(valid.prefix(length))) }
        inputs.append(valid + [0x00])
        inputs.append(valid + [0xFF])
        inputs.append(valid + [UInt8](repeating: 0xA5, count: 300))
        for index in valid.indices {
            for bit in 0 ..< 8 {
                var flipped = valid
                flipped[index] ^= UInt8(1) << UInt8(bit)
                inputs.append(flipped)
            }
        }
        return inputs
    }

    /// Feeds every mutation of `valid` to `decode`, which must throw a `BeaconFrameError`
    /// or return a frame whose own advertisement decodes back to it. Returns how many
    /// inputs were rejected.
    @discardableResult
    static func check<Frame: Equatable>(
        _ valid: [UInt8], decode: ([UInt8]) throws(BeaconFrameError) -> Frame,
        reencode: (Frame) -> [UInt8]
    ) -> (rejected: Int, total: Int) {
        var rejected = 0
        let inputs = mutations(of: valid)
        for input in inputs {
            do {
                let frame = try decode(input)
                let again = try decode(reencode(frame))
                #expect(again == frame, "a decoded frame must survive its own encoding")
            } catch {
                #expect(!error.field.isEmpty && !error.format.isEmpty, "a BeaconFrameError names format and field")
                rejected += 1
            }
        }
        return (rejected, inputs.count)
    }
}

/// Hex fixtures.
func bytes(_ hex: String) throws -> [UInt8] {
    try #require(Hex.decode(hex.filter { !$0.isWhitespace }))
}

/// Seconds on the cores' microsecond clock.
func seconds(_ value: Double) -> BeaconTime { BeaconTime((value * 1_000_000).rounded()) }

/// The proximity UUID of the neighbourhood scenario's iBeacons.
let neighbourhoodUUID = ProximityUUID(0xE2C5_6DB5_DFFB_48D2_B060_D0F5_A710_96E0)
