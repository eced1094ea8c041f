/// Dwell by the nearest zone: time spent where an identity *is*, rather than everywhere it is
/// heard. In a flat or a care home every room's gateway hears a wristband through the walls, so
/// per-zone visits (``ZoneVisits/visits(_:gap:)``) give each room nearly the whole stay; a heat
/// map of time spent needs one room at a time.
///
/// Time is cut into slots (aligned to the epoch, so the answer does not depend on the range
/// asked); in each slot an identity is placed in the zone whose gateways heard it with the
/// strongest mean RSSI (RSSI falls with distance; a mean over the slot rides out single fades),
/// on a tie the zone heard more often, then the first by name. A slot in which it was not heard
/// counts for no zone. The same rule as ``ZoneVisits/location(_:window:)``'s "strongest", over
/// a slot instead of a window.
extension ZoneVisits {
    /// The dwell per zone and identity, each slot given to the nearest zone; ordered by zone,
    /// then identity.
    ///
    /// - Parameters:
    ///   - sightings: Sightings in any order.
    ///   - slot: The slot length in microseconds (more than 0).
    ///   - gap: The longest silence within one visit, in microseconds: slots of one zone
    ///     closer than this count as one visit.
    /// - Returns: For each zone and identity, the slots' total length in seconds and the visits.
    public static func nearestDwell(_ sightings: [ZoneSighting], slot: Int64, gap: Int64) -> [ZoneDwell] {
        guard slot > 0 else { return [] }
        // (identity, slot index) → zone → (sum of RSSI, count)
        var heard: [SlotKey: [String: (sum: Int, count: Int)]] = [:]
        for sighting in sightings {
            let key = SlotKey(identity: sighting.identity, slot: Self.slotIndex(sighting.time, slot: slot))
            let total = heard[key, default: [:]][sighting.zone] ?? (0, 0)
            heard[key, default: [:]][sighting.zone] = (total.sum + sighting.rssi, total.count + 1)
        }
        // identity → zone → slot indices placed there
        var placed: [String: [String: [Int64]]] = [:]
        for (key, zones) in heard {
            let nearest = zones.max { left, right in
                let leftMean = Double(left.value.sum) / Double(left.value.count)
                let rightMean = Double(right.value.sum) / Double(right.value.count)
                if leftMean != rightMean { return leftMean < rightMean }
                if left.value.count != right.value.count { return left.value.count < right.value.count }
                return left.key > right.key
            }
            if let nearest { placed[key.identity, default: [:]][nearest.key, default: []].append(key.slot) }
        }
        var dwell: [ZoneDwell] = []
        for (identity, zones) in placed {
            for (zone, slots) in zones {
                let ordered = slots.sorted()
                var visits = 0
                var previous: Int64?
                for index in ordered {
                    // A new visit when the silence between this slot and the last one placed here is longer than the gap.
                    if let previous, Self.silence(from: previous, to: index, slot: slot) <= gap {} else { visits += 1 }
                    previous = index
                }
                dwell.append(ZoneDwell(zone: zone, identity: identity, seconds: Double(ordered.count) * Double(slot) / 1_000_000, visits: visits))
            }
        }
        return dwell.sorted { ($0.zone, $0.identity) < ($1.zone, $1.identity) }
    }

    /// The slot holding `time`: floor division, so negative times fall in their own slots too.
    static func slotIndex(_ time: Int64, slot: Int64) -> Int64 {
        let quotient = time / slot
        return time % slot < 0 ? quotient - 1 : quotient
    }

    /// The silence between the end of slot `earlier` and the start of slot `later`, in microseconds, saturating.
    static func silence(from earlier: Int64, to later: Int64, slot: Int64) -> Int64 {
        let (slots, overflow) = (later - earlier - 1).multipliedReportingOverflow(by: slot)
        return overflow ? Int64.max : max(0, slots)
    }

    private struct SlotKey: Hashable {
        let identity: String
        let slot: Int64
    }
}
