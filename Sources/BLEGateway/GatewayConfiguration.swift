import BLEFleet

/// One gateway as `ble gateway`'s options or a fleet file's entry describe it: which
/// controller, what it is called and keeps, how it scans and batches.
public struct GatewayConfiguration: Hashable, Sendable {
    /// The gateway's name, unique in the fleet (`--name`).
    public var name: String
    /// The controller (`--hci`: `sim`, `sim:FILE`, `tcp:HOST:PORT`, `unix:PATH`, `serial:DEV`, `hci:N`).
    public var hci: String
    /// The zone it reports for, if the deployment names one (presence groups gateways by zone).
    public var zone: String?
    /// What it keeps.
    public var filter: GatewayFilter
    /// How it scans.
    public var scanning: Gateway.Scanning
    /// How it batches.
    public var batching: GatewayCore.Batching

    /// A configuration with every field; by default it scans passively and continuously and
    /// cuts a batch every 500 sightings or 250 ms.
    public init(name: String, hci: String, zone: String? = nil, filter: GatewayFilter = GatewayFilter(rules: []),
                scanning: Gateway.Scanning = Gateway.Scanning(),
                batching: GatewayCore.Batching = GatewayCore.Batching(maximumCount: 500, maximumAge: 250_000)) {
        self.name = name
        self.hci = hci
        self.zone = zone
        self.filter = filter
        self.scanning = scanning
        self.batching = batching
    }

    /// Checks what one field cannot: a usable name.
    /// - Throws: ``GatewayConfigurationError``.
    public func validate() throws(GatewayConfigurationError) {
        guard !name.isEmpty, name.utf8.count <= 64, !name.contains("/"), name.allSatisfy({ !$0.isNewline }) else {
            throw GatewayConfigurationError("the gateway name \"\(name)\" must be 1 to 64 characters without / or line breaks")
        }
    }
}

/// A gateway configuration (options or fleet file) that cannot be used, in one sentence.
public struct GatewayConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong and what is accepted.
    public var description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
