/// What the dashboard's server sends its page over the WebSocket: one ``Hello`` when a page
/// connects, then one ``Update`` per tick holding everything that changed during it — however
/// many devices moved or sightings arrived, a page receives one message per tick (updates
/// batched, so a thousand devices cost one frame, not a thousand).
public enum DashboardMessage {
    /// A device as the page draws it.
    public struct Device: Codable, Hashable, Sendable {
        /// Its name in the scenario.
        public var name: String
        /// What it is: `gateway`, `beacon`, `vehicle` (moves, does not advertise) or `device`.
        public var kind: String
        /// Where it starts, metres east and north.
        public var x: Double, y: Double
    }

    /// Where the scenario's plan (``BLEScenarios/CoverageSVG``, served at `/map.svg`) puts
    /// the world: pixel `(left + (x - originX) × scale, top + (topY - y) × scale)` is the
    /// point `x` metres east and `y` metres north.
    public struct MapGeometry: Codable, Hashable, Sendable {
        /// The plot's left edge and top edge, in pixels.
        public var left: Double, top: Double
        /// Pixels per metre.
        public var scale: Double
        /// The world's x at the plot's left edge and y at its top edge, in metres.
        public var originX: Double, topY: Double
    }

    /// One received signal strength: a gateway (the receiver) heard a beacon.
    public struct RSSIPoint: Codable, Hashable, Sendable {
        /// The beacon's device name (or its identity, when no device of the scenario has its address).
        public var beacon: String
        /// The gateway.
        public var receiver: String
        /// Simulated seconds.
        public var time: Double
        /// dBm.
        public var rssi: Int
    }

    /// One line of the event log.
    public struct Event: Codable, Hashable, Sendable {
        /// Simulated seconds.
        public var time: Double
        /// `enter`, `exit`, `hearing`, `store`, or `world` (an attached world went away or came back).
        public var kind: String
        /// Who it is about (a device or a gateway).
        public var who: String
        /// What happened, in words.
        public var text: String
    }

    /// The first message on a connection: the scenario, its map and what happened so far.
    public struct Hello: Codable, Sendable {
        /// Always `hello`.
        public var type = "hello"
        /// This server process's run, so that a page can tell a restarted server from a dropped connection.
        public var session: String
        /// The scenario's name, or `nil` when the dashboard shows only a store.
        public var scenario: String?
        /// Simulated seconds per wall-clock second.
        public var speed: Double
        /// Simulated seconds so far.
        public var time: Double
        /// The map's placement, when there is a world.
        public var map: MapGeometry?
        /// The scenario's devices.
        public var devices: [Device]
        /// Every device's position now, by name, `[x, y]` in metres.
        public var positions: [String: [Double]]
        /// The recent RSSI points.
        public var rssi: [RSSIPoint]
        /// The recent events.
        public var events: [Event]
        /// Whether `/api/` answers the back end's questions over a store.
        public var office: Bool
        /// The scenario's device behind each identity the gateways reported, for the office view.
        public var names: [String: String]
        /// The map's SVG, sent only to an attached dashboard that asked for it (`/ws?map=1`); a
        /// page loads `/map.svg` instead.
        public var mapSVG: String?
    }

    /// What changed in one tick.
    public struct Update: Codable, Sendable {
        /// Always `update`.
        public var type = "update"
        /// Simulated seconds at the end of the tick.
        public var time: Double
        /// Devices that moved, by name, `[x, y]` in metres.
        public var positions: [String: [Double]]
        /// Sightings the gateways reported during the tick.
        public var rssi: [RSSIPoint]
        /// Events of the tick.
        public var events: [Event]
        /// Sightings written to the store so far.
        public var stored: Int
        /// Identities first reported during the tick, with their device's name.
        public var names: [String: String]
        /// When the server sent it, in milliseconds since 1970, so that a page can tell how long
        /// a world event took to reach its screen.
        public var sentAt: Double = 0
    }
}
