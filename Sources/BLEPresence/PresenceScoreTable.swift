/// Several algorithms' scores side by side: a fixed-width text table for people, JSON (through
/// `Codable`) for tools.
///
/// ```
/// algorithm       in zone  entry p50  entry p95  exit p50  exit p95  flaps/h
/// hysteresis        93.1%      2.5 s      6.0 s    16.0 s    18.5 s      1.2
/// ```
///
/// Percentages and seconds have one decimal; a lag with no sample shows as `n/a`.
public struct PresenceScoreTable: Hashable, Sendable, Codable, CustomStringConvertible {
    /// One row per algorithm, in the order given.
    public var rows: [PresenceScore]

    /// A table of `rows`.
    public init(_ rows: [PresenceScore]) {
        self.rows = rows
    }

    /// The table as fixed-width text, one header line then one line per algorithm.
    public var text: String {
        let headers = ["in zone", "entry p50", "entry p95", "exit p50", "exit p95", "flaps/h"]
        let nameWidth = max(9, rows.map(\.algorithm.count).max() ?? 0)
        let widths = headers.map { max($0.count, 8) }
        var lines = [Self.pad("algorithm", nameWidth, right: false) + zip(headers, widths).map { "  " + Self.pad($0, $1) }.joined()]
        for row in rows {
            let cells = [
                Self.fixed(row.timeInTrueZone * 100) + "%",
                Self.seconds(row.entryLag.median), Self.seconds(row.entryLag.p95),
                Self.seconds(row.exitLag.median), Self.seconds(row.exitLag.p95),
                Self.fixed(row.flapsPerHour),
            ]
            lines.append(Self.pad(row.algorithm, nameWidth, right: false) + zip(cells, widths).map { "  " + Self.pad($0, $1) }.joined())
        }
        return lines.joined(separator: "\n")
    }

    /// The same as ``text``.
    public var description: String { text }

    /// `value` with one decimal ("12.3", "-0.5"), computed without Foundation.
    static func fixed(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf") }
        let tenths = Int((abs(value) * 10).rounded())
        let sign = value < 0 && tenths > 0 ? "-" : ""
        return "\(sign)\(tenths / 10).\(tenths % 10)"
    }

    /// "2.5 s", or "n/a" for no value.
    static func seconds(_ value: Double?) -> String {
        value.map { fixed($0) + " s" } ?? "n/a"
    }

    /// `text` padded with spaces to `width`, right-aligned unless `right` is false.
    static func pad(_ text: String, _ width: Int, right: Bool = true) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
    }
}
