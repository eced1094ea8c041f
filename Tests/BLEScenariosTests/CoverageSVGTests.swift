import BLEScenarios
import BLEWorld
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// The SVG `ble sim map` writes, and the errors for bad input.
@Suite("Coverage map drawing and bad input")
struct CoverageSVGTests {
    let busStop: Scenario

    init() throws { busStop = try BundledScenarios.scenario(named: "bus-stop") }

    /// Element names and `id`s of an XML document; throws if it is not well-formed.
    private final class Elements: NSObject, XMLParserDelegate {
        var names: [String] = []
        var ids: [String] = []
        var texts: [String] = []
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            names.append(name)
            if let id = attributes["id"] { ids.append(id) }
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { texts.append(string) }
    }

    private func parse(_ svg: String) throws -> Elements {
        let parser = XMLParser(data: Data(svg.utf8))
        let elements = Elements()
        parser.delegate = elements
        let ok = parser.parse()
        #expect(ok, "not well-formed: \(String(describing: parser.parserError))")
        return elements
    }

    @Test("The bus stop's SVG is well-formed and has title, cells, obstacles, routes, devices, legend and scale bar")
    func wellFormed() throws {
        let map = try CoverageMap(scenario: busStop, request: CoverageRequest(resolution: 1, withinSeconds: 1))
        let svg = CoverageSVG(map: map).document()
        let elements = try parse(svg)
        #expect(elements.names.first == "svg")
        for id in ["title", "cells", "detection", "obstacles", "routes", "devices", "legend", "scale-bar"] {
            #expect(elements.ids.contains(id), "no \(id)")
        }
        let text = elements.texts.joined()
        #expect(text.contains("Coverage: bus stop"))
        #expect(text.contains("≥ −50 dBm") && text.contains("−95 to −90 dBm") && text.contains("not heard (below −95 dBm)"))
        #expect(text.contains("stop beacon") && text.contains("south walker"))
        #expect(text.contains("Heard within 1 s"))
        // One polyline per walker's route; the bus stands still.
        let walkers = busStop.devices.filter { $0.description.route != nil }.count
        #expect(walkers == 4)
        #expect(elements.names.filter { $0 == "polyline" }.count == walkers)
        // The same map gives the same bytes.
        #expect(CoverageSVG(map: try CoverageMap(scenario: busStop, request: CoverageRequest(resolution: 1, withinSeconds: 1))).document() == svg)
    }

    @Test("Cells north of the pole are left unshaded, those south of it are shaded in the band of their power")
    func shading() throws {
        let map = try CoverageMap(scenario: busStop, request: CoverageRequest(devices: ["stop beacon"], resolution: 1))
        let drawing = CoverageSVG(map: map)
        let svg = drawing.document()
        // A cell's rectangle starts at its top-left pixel, or a run of cells covers it.
        let bands = RSSIBand.bands(sensitivityDBm: -95)
        let rows = svg.split(separator: "\n").filter { $0.hasPrefix("<rect x=") && $0.contains("data-band") }
        func band(atX x: Double, y: Double) -> String? {
            let px = drawing.left + (x - map.grid.originX) * drawing.scale + 0.1
            let py = drawing.top + (map.grid.originY + Double(map.grid.rows) * map.grid.resolution - y) * drawing.scale + 0.1
            for row in rows {
                let numbers = row.split(separator: "\"").compactMap { Double($0) }
                guard numbers.count >= 4, px >= numbers[0], px < numbers[0] + numbers[2], py >= numbers[1], py < numbers[1] + numbers[3]
                else { continue }
                return row.split(separator: "\"").first { $0.hasPrefix("#") }.map(String.init)
            }
            return nil
        }
        for distance in [5.5, 20.5, 40.5] {
            let south = try #require(map.grid.cell(containingX: 0.5, y: -distance))
            let power = map.layers[0].meanPowerDBm[map.grid.index(column: south.column, row: south.row)]
            #expect(band(atX: 0.5, y: -distance) == bands[RSSIBand.bands(sensitivityDBm: -95).firstIndex { power >= $0.lowerDBm }!].colour)
            #expect(band(atX: 0.5, y: distance) == nil)
        }
    }

    @Test("Every cell's edges lie on whole pixels and the runs of a column tile it, so no hairline separates two rows")
    func cellsOnWholePixels() throws {
        let map = try CoverageMap(scenario: busStop, request: CoverageRequest(devices: ["stop beacon"], resolution: 1))
        let svg = CoverageSVG(map: map).document()
        let rects = svg.split(separator: "\n").filter { $0.hasPrefix("<rect x=") && $0.contains("data-band") }
            .map { $0.split(separator: "\"").compactMap { Double($0) }.prefix(4) }
        #expect(rects.count > 100)
        #expect(rects.allSatisfy { $0.allSatisfy { $0 == $0.rounded() } })
        // Rows meet: each row's top is the bottom of the row above it.
        let tops = Set(rects.map { $0[$0.startIndex + 1] }).sorted()
        let heights = Dictionary(rects.map { ($0[$0.startIndex + 1], $0[$0.startIndex + 3]) }, uniquingKeysWith: { first, _ in first })
        #expect(zip(tops, tops.dropFirst()).allSatisfy { upper, lower in upper + heights[upper]! == lower })
    }

    @Test("An unknown device is refused with the scenario's device names")
    func unknownDevice() {
        #expect(throws: CoverageMapError.unknownDevice("stop beacn", known: busStop.devices.map(\.name))) {
            try CoverageMap(scenario: busStop, request: CoverageRequest(devices: ["stop beacn"]))
        }
        let error = CoverageMapError.unknownDevice("stop beacn", known: ["stop beacon", "bus"])
        #expect(error.description == "No device \"stop beacn\" in the scenario; its devices are: \"stop beacon\", \"bus\".")
    }

    @Test("A scenario with nothing that advertises has nothing to draw")
    func nothingToDraw() throws {
        var quiet = busStop
        quiet.devices = quiet.devices.filter { $0.advertising == nil }
        #expect(throws: CoverageMapError.nothingToDraw(scenario: "bus stop")) {
            try CoverageMap(scenario: quiet, request: CoverageRequest())
        }
        #expect(throws: CoverageMapError.nothingToDraw(scenario: "empty")) {
            try CoverageMap(scenario: Scenario(name: "empty"), request: CoverageRequest())
        }
    }

    @Test("Numbers out of range are refused, naming the option", arguments: [
        ("--resolution", CoverageRequest(resolution: 0)), ("--resolution", CoverageRequest(resolution: -1)),
        ("--resolution", CoverageRequest(resolution: .nan)), ("--receiver-height", CoverageRequest(receiverHeight: .infinity)),
        ("--at", CoverageRequest(atSeconds: -1)), ("--within", CoverageRequest(withinSeconds: 0)),
        ("--within", CoverageRequest(withinSeconds: -3)),
    ])
    func badNumbers(option: String, request: CoverageRequest) {
        let error = #expect(throws: CoverageMapError.self) { try CoverageMap(scenario: busStop, request: request) }
        guard case let .invalidNumber(named, _, _) = error else {
            Issue.record("expected an invalid number, got \(String(describing: error))")
            return
        }
        #expect(named == option)
    }

    @Test("A resolution too fine for the scenario's extent is refused")
    func tooManyCells() {
        let error = #expect(throws: CoverageMapError.self) { try CoverageMap(scenario: busStop, request: CoverageRequest(resolution: 0.05)) }
        guard case let .tooManyCells(cells, limit, _) = error else {
            Issue.record("expected too many cells, got \(String(describing: error))")
            return
        }
        #expect(cells > limit)
    }

    @Test("Outputs that cannot be written are refused before any work")
    func unwritableOutputs() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ble-map-tests-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: CoverageMapError.unsupportedFormat(path: folder.path + "/map.jpg")) {
            try CoverageMapOutput.check(folder.path + "/map.jpg")
        }
        let missing = #expect(throws: CoverageMapError.self) { try CoverageMapOutput.check("/no/such/folder/map.svg") }
        #expect(missing == .unwritableOutput(path: "/no/such/folder/map.svg", reason: "the folder /no/such/folder does not exist"))
        let folderNamedSVG = folder.appendingPathComponent("taken.svg")
        try FileManager.default.createDirectory(at: folderNamedSVG, withIntermediateDirectories: true)
        #expect(throws: CoverageMapError.unwritableOutput(path: folderNamedSVG.path, reason: "it is a folder")) {
            try CoverageMapOutput.check(folderNamedSVG.path)
        }
        #expect(throws: CoverageMapError.pngConverterMissing) {
            try CoverageMapOutput.check(folder.path + "/map.png", searchPath: folder.path)
        }
        let map = try CoverageMap(scenario: busStop, request: CoverageRequest(devices: ["stop beacon"], resolution: 5))
        let svgPath = folder.path + "/map.svg"
        try CoverageMapOutput.write(CoverageSVG(map: map).document(), to: svgPath)
        #expect(try String(contentsOfFile: svgPath, encoding: .utf8) == CoverageSVG(map: map).document())
    }

    @Test("A PNG is rendered by rsvg-convert when it is installed", .enabled(if: CoverageMapOutput.converterIsInstalled))
    func png() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ble-map-test-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let map = try CoverageMap(scenario: busStop, request: CoverageRequest(devices: ["stop beacon"], resolution: 2))
        try CoverageMapOutput.write(CoverageSVG(map: map).document(), to: path)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    }
}
