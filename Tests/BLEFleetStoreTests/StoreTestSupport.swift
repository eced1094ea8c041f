import BLEFleet
@testable import BLEFleetStore
import Foundation
import Testing

/// 2025-03-01T00:00:00Z in microseconds: the day the test sightings start.
let marchFirst: Int64 = 1_740_787_200_000_000
let oneDay: Int64 = 86_400_000_000

/// A batch of one gateway run: sequence numbers `sequences`, sighting `n` at `start + n * step`
/// (a key always comes with the same time, as a real gateway's does).
func makeBatch(gateway: String = "gw-hall", run: Int64 = 7, sequences: Range<Int64>, start: Int64 = marchFirst,
               step: Int64 = 1_000_000, identity: (Int64) -> String = { "ibeacon:tag-\($0 % 3)" }) -> SightingBatch {
    SightingBatch(sightings: sequences.map { sequence in
        Sighting(gateway: gateway, run: run, sequence: sequence, identity: identity(sequence), address: "C0:11:22:33:44:\(String(format: "%02X", sequence % 256))",
                 addressIsRandom: sequence % 2 == 0, time: start + sequence * step, rssi: -40 - Int(sequence % 50),
                 txPower: sequence % 4 == 0 ? nil : -59, frame: [0x02, 0x01, 0x06, UInt8(sequence % 256)])
    })
}
