import BLEFleetSimulation
import BLEFleetStore
import BLEScenarios

/// Why a dashboard cannot start, each case told in one sentence that names the wrong value
/// and what would be accepted.
public enum DashboardError: Error, CustomStringConvertible, Equatable {
    /// `--device` named no device of the scenario.
    case unknownDevice(String, known: [String])
    /// Neither a scenario nor a store was given: nothing to show.
    case nothingToShow
    /// The scenario cannot run with gateways (none, a bad rule, it does not build).
    case scenario(String)
    /// The store could not be opened.
    case store(url: String, reason: String)
    /// The store answers but holds no gateway schema (no sightings table): not a fleet store, or never migrated.
    case noGatewaySchema(url: String, reason: String)
    /// The speed is not a positive number.
    case invalidSpeed(Double)
    /// The port is not 0 to 65535.
    case invalidPort(Int)
    /// The server could not listen.
    case cannotListen(address: String, port: Int, reason: String)
    /// `--attach` is not a `ws://` or `http://` address of a `ble sim serve --watch-port`.
    case invalidAttach(String)
    /// `--attach` came with a scenario or `--device`: the attached world is another process's.
    case attachConflict(String)

    /// One sentence saying what is wrong.
    public var description: String {
        switch self {
        case let .unknownDevice(name, known):
            return "no device is called \"\(name)\" in the scenario; --device takes one of " + known.map { "\"\($0)\"" }.joined(separator: ", ")
        case .nothingToShow:
            return "nothing to show: give a scenario with gateways (e.g. bus-fleet), --attach ws://HOST:PORT of a `ble sim serve --watch-port`, --store URL, or a world and a store"
        case let .scenario(reason):
            return reason
        case let .store(url, reason):
            return "cannot open the store \(url): \(reason)"
        case let .noGatewaySchema(url, reason):
            let reason = reason.hasSuffix(".") ? String(reason.dropLast()) : reason
            return "the store \(url) has no gateway schema (\(reason)); point --store at a fleet store that `ble gateway` or "
                + "`ble backend` has written, or run `ble backend --check --database \(url)` once to create it"
        case let .invalidSpeed(speed):
            return "--speed \(speed) is not a positive number of simulated seconds per second"
        case let .invalidPort(port):
            return "--port \(port) is not a TCP port (0 to 65535; 0 picks a free one)"
        case let .cannotListen(address, port, reason):
            return "cannot listen on \(address):\(port): \(reason); pick another --port or stop what uses it"
        case let .invalidAttach(value):
            return "--attach \"\(value)\" is not the address of a watched world; give ws://HOST:PORT (or http://HOST:PORT), "
                + "the port `ble sim serve --watch-port` printed"
        case let .attachConflict(option):
            return "\(option) cannot be given with --attach: the attached `ble sim serve` runs the world and draws its map"
        }
    }
}
