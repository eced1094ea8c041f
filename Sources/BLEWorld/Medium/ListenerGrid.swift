import BLEController

/// The receivers open on each channel, filed by where they stand, so that a transmission
/// is offered only to those within its reach (``World/reach(txPowerDBm:senderGainDBi:phy:)``).
///
/// A uniform grid of square cells in the horizontal plane: a stationary listener is filed in
/// the cell of its position, per channel, when its receiver opens on that channel and taken
/// out when it closes or moves to another. A listener that moves (it follows a route or is
/// carried) or stands nowhere a cell can name (a position that is not a finite number, or
/// beyond ±2³⁰ cells) is kept in a per-channel list instead and checked where it is at the
/// time of each transmission, since its route is a function of time.
struct ListenerGrid {
    /// A cell of one channel.
    struct CellKey: Hashable {
        var channel: UInt8
        var x: Int32
        var y: Int32
    }

    /// The cells a disc covers: a rectangle of cell coordinates.
    struct CellRange {
        var xs: ClosedRange<Int32>
        var ys: ClosedRange<Int32>

        /// How many cells the rectangle holds.
        var count: Int { (Int(xs.upperBound) - Int(xs.lowerBound) + 1) * (Int(ys.upperBound) - Int(ys.lowerBound) + 1) }

        /// The keys of the rectangle's cells on `channel`, row by row.
        func keys(channel: Int) -> some Sequence<CellKey> {
            let channel = UInt8(truncatingIfNeeded: channel)
            return ys.lazy.flatMap { y in xs.lazy.map { x in CellKey(channel: channel, x: x, y: y) } }
        }
    }

    /// A stationary listener as filed: its device, and where it stands and its factor of a
    /// packet's squared reach (``World/reachScale(of:)``) as they were when filed, which only
    /// a refiling changes, so that a packet's reach is checked without reading the device.
    struct FiledListener {
        var device: Int
        var position: Vector3
        var reachScale: Double
    }

    /// A moving listener as filed: its device and reach factor, how fast its route can take
    /// it, and the last place this grid worked out for it, so that a packet far from it is
    /// passed over without reading the device (``World/collectReachableListeners(channel:origin:reach:known:serial:)``).
    struct MovingListener {
        var device: Int
        var reachScale: Double
        /// The fastest its route moves it, in metres per second, or `nil` when it is carried
        /// or its route sets no bound (then it is checked where it is for every packet).
        var speedLimit: Double?
        /// Where its route put it at ``fixTime``, once worked out.
        var fixPosition = Vector3.zero
        var fixTime: Microseconds = 0
        var hasFix = false

        /// Whether it certainly stands farther than the reach whose packet factor is
        /// `baseSquared` from `origin` at `now`, judged from its fix and its speed: the test
        /// of the nearest it can be, with a millimetre and a relative 10⁻⁹ to spare for
        /// rounding, so it rules out only listeners the exact check would rule out too.
        @inline(__always)
        func isSurelyBeyond(_ baseSquared: Double, of origin: Vector3, at now: Microseconds) -> Bool {
            guard hasFix, let speedLimit else { return false }
            let elapsed = Double(fixTime > now ? fixTime - now : now - fixTime) / 1_000_000
            let nearest = (fixPosition - origin).length - speedLimit * elapsed - 0.001
            return nearest > 0 && nearest * nearest > baseSquared * reachScale * (1 + 1e-9)
        }
    }

    /// Where a listener is filed.
    enum Filing: Equatable {
        case cell(CellKey)
        case moving(channel: Int)
    }

    /// The side of a cell in metres, fixed at the first filing (``World`` picks about one
    /// reach), or 0 before.
    var cellSize = 0.0
    /// The stationary listeners of each non-empty cell.
    var cells: [CellKey: [FiledListener]] = [:]
    /// The moving listeners on each channel.
    var moving: [[MovingListener]] = Array(repeating: [], count: 256)
    /// The channel each device is filed in a cell on, or −1, by device index.
    private(set) var cellChannelOf: [Int] = []
    /// Each device's index in its channel's listeners, or −1 (``DeviceState/listenerIndex``,
    /// kept here too so a packet's listeners are sorted without reading the devices).
    private(set) var listenerIndexOf: [Int] = []
    /// Every device ever filed in a cell, by index: those a stationary sender's packets may
    /// reach (``SenderReach``).
    var stationary: [Int] = []
    /// Bumped whenever something a ``SenderReach`` depends on changes: a device added, moved
    /// or carried, an obstacle added, a device filed in a cell for the first time.
    var version: UInt64 = 0

    /// Notes that `device` is filed in a cell on `channel` (−1: it is not).
    mutating func setCellChannel(_ channel: Int, of device: Int) {
        while cellChannelOf.count <= device { cellChannelOf.append(-1) }
        cellChannelOf[device] = channel
    }

    /// Notes `device`'s index in its channel's listeners (−1: it does not listen).
    mutating func setListenerIndex(_ index: Int, of device: Int) {
        while listenerIndexOf.count <= device { listenerIndexOf.append(-1) }
        listenerIndexOf[device] = index
    }

    /// The largest cell coordinate used; positions beyond count as moving.
    private static let limit = Double(1 << 30)

    /// The cell of `position` on `channel`, or `nil` when no cell can name it.
    func cell(of position: Vector3, channel: Int) -> CellKey? {
        guard cellSize > 0 else { return nil }
        let x = (position.x / cellSize).rounded(.down), y = (position.y / cellSize).rounded(.down)
        guard abs(x) < Self.limit, abs(y) < Self.limit else { return nil }
        return CellKey(channel: UInt8(truncatingIfNeeded: channel), x: Int32(x), y: Int32(y))
    }

    /// The cells a disc of `reach` metres around `origin` touches, or `nil` when they cannot
    /// be named (then every listener is checked).
    func cells(around origin: Vector3, reach: Double) -> CellRange? {
        guard cellSize > 0 else { return nil }
        let low = (x: ((origin.x - reach) / cellSize).rounded(.down), y: ((origin.y - reach) / cellSize).rounded(.down))
        let high = (x: ((origin.x + reach) / cellSize).rounded(.down), y: ((origin.y + reach) / cellSize).rounded(.down))
        guard abs(low.x) < Self.limit, abs(low.y) < Self.limit, abs(high.x) < Self.limit, abs(high.y) < Self.limit else { return nil }
        return CellRange(xs: Int32(low.x) ... Int32(high.x), ys: Int32(low.y) ... Int32(high.y))
    }
}
