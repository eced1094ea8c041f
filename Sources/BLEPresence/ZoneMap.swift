/// Which zone each gateway stands in.
///
/// Several gateways may form one zone (a long living room with a receiver at each end). A gateway
/// that is not listed is its own zone, named after it, so that an empty map means "one zone per
/// gateway" and a new receiver works before anyone edits the map.
public struct ZoneMap: Hashable, Sendable, Codable, ExpressibleByDictionaryLiteral {
    /// Gateway name → zone name.
    public var zones: [String: String]

    /// A map from gateway names to zone names.
    public init(_ zones: [String: String] = [:]) {
        self.zones = zones
    }

    /// A map written as a literal: `["kitchen-1": "kitchen", "kitchen-2": "kitchen"]`.
    public init(dictionaryLiteral elements: (String, String)...) {
        var zones: [String: String] = [:]
        for (gateway, zone) in elements { zones[gateway] = zone }
        self.zones = zones
    }

    /// The zone `gateway` stands in: its mapped zone, or the gateway's own name.
    public func zone(of gateway: String) -> String {
        zones[gateway] ?? gateway
    }
}
