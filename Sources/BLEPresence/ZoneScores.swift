/// Zone scores shared by the window-based algorithms.
enum ZoneScores {
    /// Each zone's score: the best score of its gateways' non-empty windows under `statistic`.
    /// Only samples from `since` on count when it is given.
    static func scores(of windows: [String: RSSIWindow], zoneMap: ZoneMap, statistic: RSSIStatistic, since: Double? = nil) -> [String: Double] {
        var scores: [String: Double] = [:]
        for (gateway, window) in windows {
            let value = since.map { window.value(statistic, since: $0) } ?? window.value(statistic)
            guard let value else { continue }
            let zone = zoneMap.zone(of: gateway)
            scores[zone] = max(scores[zone] ?? -.infinity, value)
        }
        return scores
    }

    /// The highest-scoring zone. A tie keeps `current`, else goes to the zone whose name sorts
    /// first, so that the answer never depends on a dictionary's order.
    static func best(of scores: [String: Double], current: String?) -> (zone: String, score: Double)? {
        var best: (zone: String, score: Double)?
        for (zone, score) in scores {
            guard let leader = best else {
                best = (zone, score)
                continue
            }
            if score > leader.score { best = (zone, score); continue }
            guard score == leader.score, leader.zone != current else { continue }
            if zone == current || zone < leader.zone { best = (zone, score) }
        }
        return best
    }
}
