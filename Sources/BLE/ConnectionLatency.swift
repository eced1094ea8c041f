/// How quickly a peripheral wants its central to answer, in Core Bluetooth's three steps
/// (`CBPeripheralManagerConnectionLatency`), turned into connection parameters to ask for
/// (Core 5.4, Vol 3, Part C, §9.3.9; ranges in Vol 4, Part E, §7.8.12). The values are
/// SwiftBLE's choice: Apple does not publish the ones it asks for.
public enum ConnectionLatency: Hashable, Sendable {
    /// Quick exchanges: a 15–30 ms interval, no peripheral latency, a 2 s timeout.
    case low
    /// A balance: a 30–60 ms interval, latency 2, a 4 s timeout.
    case medium
    /// Saving power: a 100–200 ms interval, latency 4, a 6 s timeout.
    case high

    /// The parameters to ask the central for.
    public var request: ConnectionParameterRequest {
        switch self {
        case .low:
            ConnectionParameterRequest(interval: .milliseconds(15) ... .milliseconds(30), latency: 0, supervisionTimeout: .seconds(2))
        case .medium:
            ConnectionParameterRequest(interval: .milliseconds(30) ... .milliseconds(60), latency: 2, supervisionTimeout: .seconds(4))
        case .high:
            ConnectionParameterRequest(interval: .milliseconds(100) ... .milliseconds(200), latency: 4, supervisionTimeout: .seconds(6))
        }
    }
}
