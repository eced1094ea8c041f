import Foundation

/// A heat map of time spent, drawn as SVG on the floor plan: each room a rectangle shaded from
/// white (no time) to deep red (the most time of any room), labelled with its name and minutes,
/// with a legend and a 1 m scale bar. SVG we write ourselves: a few elements, no library needed,
/// and any browser opens it.
public enum DwellHeatMap {
    /// A room on the plan: its name and its rectangle in metres (x east, y north).
    public struct Room: Hashable, Sendable {
        /// The room's name, as its gateway's zone.
        public var name: String
        /// West edge, in metres.
        public var minX: Double
        /// South edge.
        public var minY: Double
        /// East edge.
        public var maxX: Double
        /// North edge.
        public var maxY: Double

        /// A room with every field given.
        public init(name: String, minX: Double, minY: Double, maxX: Double, maxY: Double) {
            self.name = name
            self.minX = minX
            self.minY = minY
            self.maxX = maxX
            self.maxY = maxY
        }
    }

    /// Pixels per metre.
    static let scale = 60.0
    static let margin = 40.0

    /// The SVG document for `rooms` shaded by `times` (rooms without a time are white).
    public static func svg(title: String, rooms: [Room], times: [RoomTime]) -> String {
        let seconds = Dictionary(times.map { ($0.room, $0.seconds) }, uniquingKeysWith: +)
        let most = max(seconds.values.max() ?? 0, 1)
        let minX = rooms.map(\.minX).min() ?? 0, maxX = rooms.map(\.maxX).max() ?? 1
        let minY = rooms.map(\.minY).min() ?? 0, maxY = rooms.map(\.maxY).max() ?? 1
        let width = (maxX - minX) * scale + 2 * margin
        let planHeight = (maxY - minY) * scale
        let height = planHeight + 2 * margin + 50
        // SVG's y runs down; the plan's north is up.
        func x(_ metres: Double) -> Double { margin + (metres - minX) * scale }
        func y(_ metres: Double) -> Double { margin + (maxY - metres) * scale }
        var lines = [
            ##"<?xml version="1.0" encoding="UTF-8"?>"##,
            ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(format(width))" height="\##(format(height))" viewBox="0 0 \##(format(width)) \##(format(height))" font-family="sans-serif">"##,
            "<title>\(escape(title))</title>",
            ##"<text x="\##(format(margin))" y="24" font-size="16">\##(escape(title))</text>"##,
        ]
        for room in rooms {
            let time = seconds[room.name] ?? 0
            let left = x(room.minX), top = y(room.maxY)
            let roomWidth = (room.maxX - room.minX) * scale, roomHeight = (room.maxY - room.minY) * scale
            lines.append(##"<rect data-room="\##(escape(room.name))" data-seconds="\##(format(time))" x="\##(format(left))" y="\##(format(top))" width="\##(format(roomWidth))" height="\##(format(roomHeight))" fill="\##(colour(time / most))" stroke="#333" stroke-width="2"/>"##)
            lines.append(##"<text x="\##(format(left + roomWidth / 2))" y="\##(format(top + roomHeight / 2))" text-anchor="middle" font-size="14">\##(escape(room.name))</text>"##)
            lines.append(##"<text x="\##(format(left + roomWidth / 2))" y="\##(format(top + roomHeight / 2 + 18))" text-anchor="middle" font-size="12">\##(format(time / 60)) min</text>"##)
        }
        // Legend: white to the most time, and a 1 m scale bar.
        let legendY = margin + planHeight + 20
        lines.append(##"<defs><linearGradient id="heat"><stop offset="0" stop-color="\##(colour(0))"/><stop offset="1" stop-color="\##(colour(1))"/></linearGradient></defs>"##)
        lines.append(##"<rect x="\##(format(margin))" y="\##(format(legendY))" width="120" height="12" fill="url(#heat)" stroke="#333"/>"##)
        lines.append(##"<text x="\##(format(margin + 130))" y="\##(format(legendY + 11))" font-size="11">0 to \##(format(most / 60)) min</text>"##)
        lines.append(##"<line x1="\##(format(width - margin - scale))" y1="\##(format(legendY + 6))" x2="\##(format(width - margin))" y2="\##(format(legendY + 6))" stroke="#000" stroke-width="2"/>"##)
        lines.append(##"<text x="\##(format(width - margin - scale / 2))" y="\##(format(legendY + 22))" text-anchor="middle" font-size="11">1 m</text>"##)
        lines.append("</svg>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// White at 0, deep red at 1.
    static func colour(_ fraction: Double) -> String {
        let clamped = min(max(fraction.isFinite ? fraction : 0, 0), 1)
        let green = Int((255 * (1 - clamped) + 40 * clamped).rounded()), blue = green
        let red = Int((255 * (1 - clamped) + 200 * clamped).rounded())
        return "#" + [red, green, blue].map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    static func format(_ value: Double) -> String { String(format: "%.1f", value) }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String { String(repeating: "0", count: max(0, length - count)) + self }
}
