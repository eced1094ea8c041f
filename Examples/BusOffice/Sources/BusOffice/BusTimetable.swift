/// The office's report of a bus's day: one line per stop passed, times in seconds from an
/// origin the office chooses (the start of the service, or a simulated world's epoch).
public enum BusTimetable {
    /// Lines such as `bus 42  stop 2  arrived +72.4 s  left +95.1 s  (22.7 s, 183 sightings)`.
    public static func lines(bus: Bus, passages: [StopPassage], origin: Int64) -> [String] {
        func seconds(_ time: Int64) -> String {
            let value = Double(time - origin) / 1_000_000
            return "+" + String(format: "%.1f", value) + " s"
        }
        guard !passages.isEmpty else { return ["bus \(bus.number)  not heard at any stop"] }
        return passages.map { passage in
            "bus \(bus.number)  \(passage.stop)  arrived \(seconds(passage.arrival))  left \(seconds(passage.departure))  "
                + "(\(String(format: "%.1f", passage.seconds)) s, \(passage.sightings) sightings)"
        }
    }
}
