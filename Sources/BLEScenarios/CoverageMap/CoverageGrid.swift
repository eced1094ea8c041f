import BLEWorld

/// The cells of a coverage map: a horizontal grid of square cells at one height, row 0 at
/// the south (smallest y), column 0 at the west (smallest x). A cell's values are those at
/// its centre.
public struct CoverageGrid: Hashable, Sendable {
    /// The west edge of column 0, in metres.
    public var originX: Double
    /// The south edge of row 0, in metres.
    public var originY: Double
    /// The side of a cell in metres.
    public var resolution: Double
    /// Cells from west to east.
    public var columns: Int
    /// Cells from south to north.
    public var rows: Int
    /// The height of every cell's centre (the receiver's antenna), in metres.
    public var height: Double

    /// How many cells the grid has.
    public var count: Int { columns * rows }

    /// The index in a layer's arrays of the cell at `column`, `row` (row-major).
    public func index(column: Int, row: Int) -> Int { row * columns + column }

    /// The centre of the cell at `column`, `row`.
    public func centre(column: Int, row: Int) -> Vector3 {
        Vector3(x: originX + (Double(column) + 0.5) * resolution, y: originY + (Double(row) + 0.5) * resolution, z: height)
    }

    /// The cell that contains the point (`x`, `y`), or `nil` outside the grid.
    public func cell(containingX x: Double, y: Double) -> (column: Int, row: Int)? {
        let column = Int(((x - originX) / resolution).rounded(.down))
        let row = Int(((y - originY) / resolution).rounded(.down))
        guard (0 ..< columns).contains(column), (0 ..< rows).contains(row) else { return nil }
        return (column, row)
    }

    /// A grid covering `minX…maxX` × `minY…maxY` with cells of `resolution` metres whose
    /// edges fall on multiples of the resolution.
    init(minX: Double, minY: Double, maxX: Double, maxY: Double, resolution: Double, height: Double) {
        originX = (minX / resolution).rounded(.down) * resolution
        originY = (minY / resolution).rounded(.down) * resolution
        columns = Swift.max(1, Int(((maxX - originX) / resolution).rounded(.up)))
        rows = Swift.max(1, Int(((maxY - originY) / resolution).rounded(.up)))
        self.resolution = resolution
        self.height = height
    }
}

/// One transmitter's coverage over a grid.
public struct CoverageLayer: Hashable, Sendable {
    /// The transmitter's device name.
    public var transmitter: String
    /// Its transmit power in dBm.
    public var txPowerDBm: Double
    /// Its advertising interval in milliseconds, when it advertises.
    public var advertisingIntervalMilliseconds: Double?
    /// The mean received power at each cell in dBm, from the world's radio model.
    public var meanPowerDBm: [Double]
    /// Whether each cell's mean power is at or above the receiver's sensitivity (every cell
    /// in the ideal mode, which has no sensitivity limit).
    public var heard: [Bool]
    /// The probability of hearing it within the request's window at each cell, when asked
    /// and the transmitter advertises.
    public var detectionProbability: [Double]?
}
