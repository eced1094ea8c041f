import Foundation
import BLEWorld

/// Draws a ``CoverageMap`` as an SVG 1.1 document (plain text we write ourselves): a plan
/// view, north up, with cells shaded by the strongest transmitter's mean RSSI in
/// ``RSSIBand``s, contours of the detection probability when asked, obstacles, routes,
/// devices with heading arrows, a title, a legend and a scale bar. The same map gives the
/// same bytes every time.
public struct CoverageSVG {
    /// The map drawn.
    public let map: CoverageMap
    /// Pixels per metre (public, with the plot's corner, so that a test or a browser can
    /// find a world point's pixel).
    public let scale: Double
    /// The plot's left edge in pixels.
    public let left = 20.0
    /// The plot's top edge in pixels.
    public let top = 64.0
    /// The plot's width in pixels.
    public let plotWidth: Double
    /// The plot's height in pixels.
    public let plotHeight: Double
    /// Room right of the plot for the legend, and below it for the scale bar.
    let legendWidth = 290.0, bottomMargin = 64.0
    /// The longer side of the plot in pixels.
    static let plotSide = 800.0
    /// The detection probability levels drawn as contours, with their dash patterns.
    static let contourLevels: [(level: Double, dash: String)] = [(0.9, "none"), (0.5, "6 4")]

    /// A drawing of `map`.
    public init(map: CoverageMap) {
        self.map = map
        let grid = map.grid
        let widthMetres = Double(grid.columns) * grid.resolution, heightMetres = Double(grid.rows) * grid.resolution
        scale = Self.plotSide / Swift.max(widthMetres, heightMetres)
        plotWidth = widthMetres * scale
        plotHeight = heightMetres * scale
    }

    /// The whole document.
    public func document() -> String {
        let width = left + plotWidth + legendWidth, height = top + plotHeight + bottomMargin
        var svg = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="\(n(width))" height="\(n(height))" \
            viewBox="0 0 \(n(width)) \(n(height))" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">
            <defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto">\
            <path d="M0,0 L10,5 L0,10 z" fill="#000"/></marker></defs>
            <rect x="0" y="0" width="\(n(width))" height="\(n(height))" fill="#ffffff"/>

            """
        svg += title() + cells() + contours() + planLayer() + frame() + scaleBar() + legend()
        svg += "</svg>\n"
        return svg
    }

    // MARK: Coordinates

    /// The pixel column of `x` metres east.
    func px(_ x: Double) -> Double { left + (x - map.grid.originX) * scale }
    /// The pixel row of `y` metres north (north is up).
    func py(_ y: Double) -> Double { top + (map.grid.originY + Double(map.grid.rows) * map.grid.resolution - y) * scale }
    func n(_ value: Double) -> String { SVGText.number(value) }

    // MARK: Layers

    /// Cells shaded by band, each row's runs of one band merged into one rectangle.
    func cells() -> String {
        let grid = map.grid
        let bands = RSSIBand.bands(sensitivityDBm: map.sensitivityDBm)
        let side = grid.resolution * scale
        var out = "<g id=\"cells\" fill-opacity=\"0.8\" shape-rendering=\"crispEdges\">\n"
        for row in 0 ..< grid.rows {
            var column = 0
            while column < grid.columns {
                let band = bandIndex(column: column, row: row, bands: bands)
                var end = column + 1
                while end < grid.columns, bandIndex(column: end, row: row, bands: bands) == band { end += 1 }
                if let band {
                    // Edges on whole pixels: with crispEdges, fractional ones round apart and leave
                    // a white hairline between two rows of cells.
                    let x = (left + Double(column) * side).rounded(), y = (top + Double(grid.rows - 1 - row) * side).rounded()
                    let width = (left + Double(end) * side).rounded() - x, height = (top + Double(grid.rows - row) * side).rounded() - y
                    out += "<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(width))\" height=\"\(n(height))\" "
                        + "fill=\"\(bands[band].colour)\" data-band=\"\(band)\"/>\n"
                }
                column = end
            }
        }
        return out + "</g>\n"
    }

    private func bandIndex(column: Int, row: Int, bands: [RSSIBand]) -> Int? {
        let index = map.grid.index(column: column, row: row)
        guard map.isHeard(at: index) else { return nil }
        return RSSIBand.index(of: map.strongestPowerDBm(at: index), in: bands)
    }

    /// The edges between cells on either side of each probability level.
    func contours() -> String {
        let grid = map.grid
        guard map.request.withinSeconds != nil, grid.count > 0, map.detectionProbability(at: 0) != nil else { return "" }
        let probability = (0 ..< grid.count).map { map.detectionProbability(at: $0) ?? 0 }
        let side = grid.resolution * scale
        var out = "<g id=\"detection\" fill=\"none\" stroke=\"#000000\" stroke-width=\"1.5\">\n"
        for (level, dash) in Self.contourLevels {
            var path = ""
            for row in 0 ..< grid.rows {
                for column in 0 ..< grid.columns {
                    let inside = probability[grid.index(column: column, row: row)] >= level
                    let x = left + Double(column + 1) * side, y = top + Double(grid.rows - 1 - row) * side
                    if column + 1 < grid.columns, inside != (probability[grid.index(column: column + 1, row: row)] >= level) {
                        path += "M\(n(x)),\(n(y))v\(n(side))"
                    }
                    if row + 1 < grid.rows, inside != (probability[grid.index(column: column, row: row + 1)] >= level) {
                        path += "M\(n(x - side)),\(n(y))h\(n(side))"
                    }
                }
            }
            guard !path.isEmpty else { continue }
            out += "<path d=\"\(path)\" stroke-dasharray=\"\(dash)\" data-level=\"\(n(level))\"/>\n"
        }
        return out + "</g>\n"
    }

    /// Obstacles, routes and devices with their heading arrows and names.
    func planLayer() -> String {
        var out = "<g id=\"obstacles\" fill=\"#4d4d4d\" fill-opacity=\"0.7\" stroke=\"#000000\" stroke-width=\"1\">\n"
        for obstacle in map.plan.obstacles {
            let name = SVGText.escaped("\(obstacle.name) (\(n(obstacle.lossDB)) dB)")
            switch obstacle.outline {
            case let .rectangle(minX, minY, maxX, maxY):
                out += "<rect x=\"\(n(px(minX)))\" y=\"\(n(py(maxY)))\" width=\"\(n(Swift.max(2, (maxX - minX) * scale)))\" "
                    + "height=\"\(n(Swift.max(2, (maxY - minY) * scale)))\"><title>\(name)</title></rect>\n"
            case let .circle(x, y, radius):
                out += "<circle cx=\"\(n(px(x)))\" cy=\"\(n(py(y)))\" r=\"\(n(Swift.max(3, radius * scale)))\"><title>\(name)</title></circle>\n"
            }
        }
        out += "</g>\n<g id=\"routes\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\">\n"
        for route in map.plan.routes {
            let points = route.points.map { "\(n(px($0.x))),\(n(py($0.y)))" }.joined(separator: " ")
            out += "<polyline points=\"\(points)\"><title>\(SVGText.escaped(route.device))</title></polyline>\n"
        }
        out += "</g>\n<g id=\"devices\" font-size=\"10\">\n"
        var labels: [(x: Double, y: Double)] = []
        for device in map.plan.devices {
            let x = px(device.position.x), y = py(device.position.y)
            // Devices close together (a bus's beacons) get their names stacked, not overprinted.
            // Names near the right edge run leftwards, so they stay off the legend.
            let leftwards = x > left + plotWidth - 110
            let labelX = leftwards ? x - 6 : x + 6
            var labelY = y - 6
            while labels.contains(where: { abs($0.x - labelX) < 120 && abs($0.y - labelY) < 11 }) { labelY += 11 }
            labels.append((labelX, labelY))
            let radians = device.headingDegrees * .pi / 180
            let length = device.isDirectional ? 22.0 : 14.0
            out += "<line x1=\"\(n(x))\" y1=\"\(n(y))\" x2=\"\(n(x + cos(radians) * length))\" y2=\"\(n(y - sin(radians) * length))\" "
                + "stroke=\"#000000\" stroke-width=\"\(device.isDirectional ? "1.5" : "1")\" marker-end=\"url(#arrow)\"/>\n"
            out += "<circle cx=\"\(n(x))\" cy=\"\(n(y))\" r=\"4\" fill=\"\(device.isTransmitter ? "#000000" : "#ffffff")\" "
                + "stroke=\"#000000\" stroke-width=\"1\"/>\n"
            out += "<text x=\"\(n(labelX))\" y=\"\(n(labelY))\"\(leftwards ? " text-anchor=\"end\"" : "")>"
                + "\(SVGText.escaped(device.name))</text>\n"
        }
        return out + "</g>\n"
    }

    /// A thin border round the plot.
    func frame() -> String {
        "<rect id=\"frame\" x=\"\(n(left))\" y=\"\(n(top))\" width=\"\(n(plotWidth))\" height=\"\(n(plotHeight))\" "
            + "fill=\"none\" stroke=\"#000000\" stroke-width=\"1\"/>\n"
    }
}
