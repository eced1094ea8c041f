import Foundation

/// One shade of a coverage map: the mean received powers from `lowerDBm` up to (not
/// including) `upperDBm`, or above `lowerDBm` for the strongest band.
public struct RSSIBand: Hashable, Sendable {
    /// The weakest power in the band, in dBm (the sensitivity for the weakest band).
    public var lowerDBm: Double
    /// The power the band stops below, in dBm; `nil` for the strongest band.
    public var upperDBm: Double?
    /// The fill colour, `#rrggbb`.
    public var colour: String

    /// The legend's words for the band: `≥ −50 dBm`, `−60 to −50 dBm`.
    public var label: String {
        guard let upperDBm else { return "≥ \(SVGText.dBm(lowerDBm))" }
        return "\(SVGText.dBm(lowerDBm, unit: false)) to \(SVGText.dBm(upperDBm))"
    }

    /// Band edges every 10 dB from −50 dBm down, the usual steps of RSSI in beacon planning.
    static let edgesDBm: [Double] = [-50, -60, -70, -80, -90]

    /// Six steps of the viridis colour map (van der Walt and Smith, matplotlib, 2015):
    /// perceptually uniform, readable in grey and by people with colour-vision deficiencies.
    /// Yellow is strongest, violet weakest.
    static let palette = ["#fde725", "#90d743", "#35b779", "#21918c", "#31688e", "#443983"]

    /// The bands above `sensitivityDBm`, strongest first: one per 10 dB edge above the
    /// sensitivity, the weakest from the sensitivity to the lowest edge.
    public static func bands(sensitivityDBm: Double) -> [RSSIBand] {
        let edges = edgesDBm.filter { $0 > sensitivityDBm }
        guard let first = edges.first else { return [RSSIBand(lowerDBm: sensitivityDBm, upperDBm: nil, colour: palette[0])] }
        var bands = [RSSIBand(lowerDBm: first, upperDBm: nil, colour: palette[0])]
        for (index, upper) in edges.enumerated() {
            let lower = index + 1 < edges.count ? edges[index + 1] : sensitivityDBm
            bands.append(RSSIBand(lowerDBm: lower, upperDBm: upper, colour: palette[Swift.min(index + 1, palette.count - 1)]))
        }
        return bands
    }

    /// The index in `bands` of the band holding `powerDBm`; the weakest band for powers
    /// below it (heard only in the ideal mode).
    static func index(of powerDBm: Double, in bands: [RSSIBand]) -> Int {
        bands.firstIndex { powerDBm >= $0.lowerDBm } ?? bands.count - 1
    }
}

/// Text in the SVG we write: numbers with fixed decimals (the same bytes on every run and
/// machine) and XML escaping.
enum SVGText {
    /// `value` with two decimals and no trailing zeros, never `-0`.
    static func number(_ value: Double) -> String {
        let hundredths = (value * 100).rounded()
        guard hundredths.isFinite, abs(hundredths) < 1e15 else { return "0" }
        let whole = Int64(hundredths)
        let sign = whole < 0 ? "-" : ""
        let magnitude = whole.magnitude
        let fraction = magnitude % 100
        var text = sign + String(magnitude / 100)
        if fraction != 0 {
            text += "." + (fraction < 10 ? "0" : "") + String(fraction)
            while text.hasSuffix("0") { text.removeLast() }
        }
        return text
    }

    /// A power for people: `−95 dBm` with a true minus sign.
    static func dBm(_ value: Double, unit: Bool = true) -> String {
        let text = number(value).replacingOccurrences(of: "-", with: "−")
        return unit ? text + " dBm" : text
    }

    /// `text` safe inside an XML element or attribute.
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }
}
