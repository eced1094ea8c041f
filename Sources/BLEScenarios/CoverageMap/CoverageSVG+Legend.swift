import Foundation
import BLEWorld

extension CoverageSVG {
    /// The title (the scenario) and a line saying what is shaded, when and where.
    func title() -> String {
        let names = map.layers.map(\.transmitter).joined(separator: ", ")
        let subtitle = "Heard from \(names) at t = \(n(map.request.atSeconds)) s, receiver at \(n(map.grid.height)) m"
        return "<g id=\"title\">\n<text x=\"\(n(left))\" y=\"26\" font-size=\"18\" font-weight=\"bold\">"
            + "Coverage: \(SVGText.escaped(map.scenarioName))</text>\n"
            + "<text x=\"\(n(left))\" y=\"46\" font-size=\"12\">\(SVGText.escaped(subtitle))</text>\n</g>\n"
    }

    /// A bar of a round length (1, 2 or 5 × 10ⁿ m) of at most 160 px under the plot's
    /// bottom-left corner, and a north arrow.
    func scaleBar() -> String {
        let metres = Self.roundLength(atMost: 160 / scale)
        let width = metres * scale
        let x = left, y = top + plotHeight + 30
        var out = "<g id=\"scale-bar\" stroke=\"#000000\" stroke-width=\"2\" font-size=\"11\">\n"
        out += "<path d=\"M\(n(x)),\(n(y - 6))v6h\(n(width))v-6\" fill=\"none\"/>\n"
        out += "<text x=\"\(n(x + width / 2))\" y=\"\(n(y + 16))\" text-anchor=\"middle\" stroke=\"none\">\(n(metres)) m</text>\n"
        let northX = left + plotWidth - 20, northY = top + plotHeight + 40
        out += "<line x1=\"\(n(northX))\" y1=\"\(n(northY))\" x2=\"\(n(northX))\" y2=\"\(n(northY - 26))\" marker-end=\"url(#arrow)\"/>\n"
        out += "<text x=\"\(n(northX + 8))\" y=\"\(n(northY - 14))\" stroke=\"none\">N</text>\n"
        return out + "</g>\n"
    }

    /// The largest of 1, 2 or 5 × 10ⁿ not above `limit` (and at least 0.01).
    static func roundLength(atMost limit: Double) -> Double {
        guard limit.isFinite, limit > 0.01 else { return 0.01 }
        let power = pow(10, log10(limit).rounded(.down))
        return [5.0, 2, 1].map { $0 * power }.first { $0 <= limit } ?? power
    }

    /// The bands with their powers, the not-heard area, the symbols, the probability
    /// contours when drawn, and the model the powers come from.
    func legend() -> String {
        let x = left + plotWidth + 20
        var y = top + 4
        var out = "<g id=\"legend\" font-size=\"11\">\n"
        func line(_ text: String, bold: Bool = false) {
            out += "<text x=\"\(n(x))\" y=\"\(n(y + 11))\"\(bold ? " font-weight=\"bold\"" : "")>\(SVGText.escaped(text))</text>\n"
            y += 17
        }
        func swatch(_ fill: String, _ text: String) {
            out += "<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"14\" height=\"14\" fill=\"\(fill)\" fill-opacity=\"0.8\" stroke=\"#000000\" stroke-width=\"0.5\"/>\n"
            out += "<text x=\"\(n(x + 20))\" y=\"\(n(y + 11))\">\(SVGText.escaped(text))</text>\n"
            y += 18
        }
        line("Mean RSSI (strongest transmitter)", bold: true)
        for band in RSSIBand.bands(sensitivityDBm: map.sensitivityDBm) { swatch(band.colour, band.label) }
        swatch("#ffffff", "not heard (below \(SVGText.dBm(map.sensitivityDBm)))")
        y += 6
        line("Plan", bold: true)
        out += "<circle cx=\"\(n(x + 7))\" cy=\"\(n(y + 7))\" r=\"4\" fill=\"#000000\"/>\n"
        out += "<text x=\"\(n(x + 20))\" y=\"\(n(y + 11))\">transmitter (white: other device)</text>\n"
        y += 18
        out += "<line x1=\"\(n(x))\" y1=\"\(n(y + 7))\" x2=\"\(n(x + 14))\" y2=\"\(n(y + 7))\" stroke=\"#000000\" marker-end=\"url(#arrow)\"/>\n"
        out += "<text x=\"\(n(x + 20))\" y=\"\(n(y + 11))\">antenna heading (long: directional)</text>\n"
        y += 18
        swatch("#4d4d4d", "obstacle (loss in its tooltip)")
        out += "<line x1=\"\(n(x))\" y1=\"\(n(y + 7))\" x2=\"\(n(x + 14))\" y2=\"\(n(y + 7))\" stroke=\"#d62728\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\"/>\n"
        out += "<text x=\"\(n(x + 20))\" y=\"\(n(y + 11))\">route</text>\n"
        y += 24
        if let within = map.request.withinSeconds, map.layers.contains(where: { $0.detectionProbability != nil }) {
            line("Heard within \(n(within)) s", bold: true)
            for (level, dash) in Self.contourLevels {
                out += "<line x1=\"\(n(x))\" y1=\"\(n(y + 7))\" x2=\"\(n(x + 14))\" y2=\"\(n(y + 7))\" stroke=\"#000000\" stroke-width=\"1.5\" stroke-dasharray=\"\(dash)\"/>\n"
                out += "<text x=\"\(n(x + 20))\" y=\"\(n(y + 11))\">probability \(n(level * 100)) % (inside)</text>\n"
                y += 18
            }
            y += 6
        }
        line("Model", bold: true)
        let radio = map.radio
        line("path loss \(n(radio.referenceLossDB)) + \(n(10 * radio.pathLossExponent))·log10(d) dB")
        line(map.timing == .realistic ? "obstacles, antennas and bodies counted" : "ideal radio: every packet arrives")
        if radio.shadowingSigmaDB > 0 || radio.fastFading {
            line("per packet: shadowing σ \(n(radio.shadowingSigmaDB)) dB" + (radio.fastFading ? ", Rayleigh fading" : ""))
        }
        line("cells \(n(map.grid.resolution)) m, t = \(n(map.request.atSeconds)) s")
        return out + "</g>\n"
    }
}
