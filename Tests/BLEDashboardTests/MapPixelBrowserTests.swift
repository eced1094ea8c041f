@testable import BLEScenarios
import Foundation
import Testing

extension BrowserSuites {
    /// The bus stop's coverage map (``CoverageSVG``, as `ble sim map` and the dashboard draw it)
    /// rendered by headless Chromium: pixels sampled across the plot have the colour of the band
    /// the radio model puts there, and are white where it hears nothing — behind the pole among
    /// them (Browser/check_map_pixels.py). Skipped, saying why, where Chromium, its driver or
    /// Selenium is missing.
    @Suite("Coverage map pixels in a browser")
    struct MapPixelBrowserTests {
        /// One pixel to read: where in the drawing, and the colour the model's band gives it.
        struct Sample: Encodable {
            var x: Double
            var y: Double
            var rgb: [Int]
            var what: String
        }

        /// Cells on a 5-cell lattice whose eight neighbours share their band (so that no edge
        /// between two bands is sampled), each at its centre, with the colour it should show: the
        /// band's colour at the cells' 80 % opacity over the white page, or white.
        static func samples(_ map: CoverageMap, _ drawing: CoverageSVG) -> [Sample] {
            let grid = map.grid, bands = RSSIBand.bands(sensitivityDBm: map.sensitivityDBm)
            let side = grid.resolution * drawing.scale
            func band(_ column: Int, _ row: Int) -> Int? {
                let index = grid.index(column: column, row: row)
                return map.isHeard(at: index) ? RSSIBand.index(of: map.strongestPowerDBm(at: index), in: bands) : nil
            }
            var samples: [Sample] = []
            for row in stride(from: 2, to: grid.rows - 2, by: 5) {
                for column in stride(from: 2, to: grid.columns - 2, by: 5) {
                    let own = band(column, row)
                    let uniform = (-1 ... 1).allSatisfy { dr in (-1 ... 1).allSatisfy { dc in band(column + dc, row + dr) == own } }
                    guard uniform else { continue }
                    let rgb = own.map { Self.rgb(bands[$0].colour).map { Int((0.8 * Double($0) + 0.2 * 255).rounded()) } } ?? [255, 255, 255]
                    samples.append(Sample(x: drawing.left + (Double(column) + 0.5) * side, y: drawing.top + (Double(grid.rows - 1 - row) + 0.5) * side,
                                          rgb: rgb, what: "cell (\(column), \(row)) \(own.map { "band \($0)" } ?? "not heard")"))
                }
            }
            // Straight north of the pole, the cells in its shadow, whatever their neighbours.
            for north in stride(from: 1.5, through: 7.5, by: 1) {
                guard let (column, row) = grid.cell(containingX: 0.5, y: north) else { continue }
                let own = band(column, row)
                let rgb = own.map { Self.rgb(bands[$0].colour).map { Int((0.8 * Double($0) + 0.2 * 255).rounded()) } } ?? [255, 255, 255]
                samples.append(Sample(x: drawing.left + (Double(column) + 0.5) * side, y: drawing.top + (Double(grid.rows - 1 - row) + 0.5) * side,
                                      rgb: rgb, what: "\(north) m north of the pole \(own.map { "band \($0)" } ?? "not heard")"))
            }
            return samples
        }

        /// `#rrggbb` as three channels.
        static func rgb(_ hex: String) -> [Int] {
            let digits = Array(hex.dropFirst())
            return stride(from: 0, to: 6, by: 2).map { Int(String(digits[$0 ... $0 + 1]), radix: 16) ?? 0 }
        }

        @Test("Pixels across the bus stop's map have the colour of the model's RSSI band, white north of the pole",
              .enabled(if: BrowserHarness.missing == nil, BrowserHarness.skipReason))
        func pixelsMatchBands() async throws {
            let scenario = try BundledScenarios.scenario(named: "bus-stop")
            let map = try CoverageMap(scenario: scenario, request: CoverageRequest(devices: ["stop beacon"], resolution: 1))
            let drawing = CoverageSVG(map: map)
            let samples = Self.samples(map, drawing)
            // Both kinds are sampled: shaded cells of several bands, and unheard ones.
            #expect(Set(samples.map(\.rgb)).count >= 4)
            #expect(samples.filter { $0.what.contains("north of the pole") && $0.rgb == [255, 255, 255] }.count >= 3)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("map-pixels-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let svgFile = folder.appendingPathComponent("bus-stop.svg"), samplesFile = folder.appendingPathComponent("samples.json")
            try Data(drawing.document().utf8).write(to: svgFile)
            try JSONEncoder().encode(samples).write(to: samplesFile)

            let python = try #require(BrowserHarness.python)
            let script = URL(fileURLWithPath: BrowserHarness.script).deletingLastPathComponent().appendingPathComponent("check_map_pixels.py").path
            let checker = try LineProcess(python, [script, svgFile.path, samplesFile.path])
            var transcript: [String] = []
            for await line in checker.lines { transcript.append(line) }
            let status = checker.wait()
            #expect(status == 0, "check_map_pixels.py:\n\(transcript.joined(separator: "\n"))")
            let result = transcript.first { $0.hasPrefix("RESULT ") }
            #expect(result == "RESULT {\"samples\": \(samples.count), \"mismatches\": 0}", "check_map_pixels.py:\n\(transcript.joined(separator: "\n"))")
            print("map pixels: \(samples.count) sampled, \(transcript.filter { $0.hasPrefix("MISMATCH") }.count) mismatched")
        }
    }
}
