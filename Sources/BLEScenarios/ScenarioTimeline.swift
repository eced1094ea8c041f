import BLEBeacons
import BLEController
import BLEWorld
import Foundation

/// What a scenario's observing devices noticed, in time order, with the advertisements
/// behind it: printed by `ble sim run` as text or JSON lines, asserted on by tests.
public struct ScenarioTimeline: Hashable, Sendable {
    /// The scenario's name.
    public var scenario: String
    /// The seed it ran with.
    public var seed: UInt64
    /// The simulated time reached.
    public var until: Microseconds
    /// The events, in time order.
    public var events: [ScenarioTimelineEvent]
    /// Every advertisement of a monitored beacon an observer received, in order.
    public var receptions: [BeaconReception]
    /// Commands scripted hosts had refused (normally none).
    public var failures: [String]

    /// A timeline with every field.
    public init(scenario: String, seed: UInt64, until: Microseconds, events: [ScenarioTimelineEvent],
                receptions: [BeaconReception], failures: [String] = []) {
        self.scenario = scenario
        self.seed = seed
        self.until = until
        self.events = events
        self.receptions = receptions
        self.failures = failures
    }

    /// The events of one device.
    public func events(of device: String) -> [ScenarioTimelineEvent] { events.filter { $0.device == device } }

    /// The receptions of one observer, optionally of one beacon only.
    public func receptions(of observer: String, beacon: String? = nil) -> [BeaconReception] {
        receptions.filter { $0.observer == observer && (beacon == nil || $0.beacon == beacon) }
    }

    // MARK: Text

    /// The readable timeline: a heading, then one line per event,
    /// `  12.0 s  rider  enter "stop 2"`.
    public var text: String {
        var lines = ["Scenario \"\(scenario)\", seed \(seed), \(Self.number(Double(until) / 1_000_000, places: 1)) s simulated"]
        for event in events { lines.append(Self.line(event)) }
        if events.isEmpty { lines.append("  (nothing was heard)") }
        return lines.joined(separator: "\n")
    }

    /// One event as a line of text.
    public static func line(_ event: ScenarioTimelineEvent) -> String {
        let time = number(event.seconds, places: 1) + " s"
        let prefix = String(repeating: " ", count: max(2, 9 - time.count)) + time + "  " + event.device + "  "
        return prefix + words(event.kind)
    }

    /// What an event says, in words, without its time and device: `enter "stop 2"`.
    public static func words(_ kind: ScenarioTimelineEvent.Kind) -> String {
        switch kind {
        case let .firstHeard(sighting):
            return "hears \"\(sighting.beacon)\" first (\(sighting.rssi) dBm\(distance(sighting.distance)))"
        case let .entered(region):
            return "enter \"\(region)\""
        case let .exited(region):
            return "exit \"\(region)\""
        case let .proximity(sighting, proximity, filtered, accuracy):
            if proximity == .unknown {
                return "unknown \"\(sighting.beacon)\" (last heard \(number(Double(sighting.heardAt) / 1_000_000, places: 1)) s"
                    + "\(distance(sighting.distance)))"
            }
            var details: [String] = []
            if let filtered { details.append(number(filtered, places: 1) + " dBm filtered") }
            details.append("≈ " + metres(accuracy))
            if let trueDistance = sighting.distance { details.append("true " + metres(trueDistance)) }
            return "\(proximity) \"\(sighting.beacon)\" (\(details.joined(separator: ", ")))"
        case let .passed(sighting):
            return "passed \"\(sighting.beacon)\" (strongest \(sighting.rssi) dBm\(distance(sighting.distance)))"
        case let .action(words):
            return words
        case let .app(app, words):
            return app + ": " + words
        }
    }

    private static func distance(_ value: Double?) -> String {
        value.map { ", " + metres($0) } ?? ""
    }

    /// `5 cm` under a metre, `12.3 m` from there.
    private static func metres(_ value: Double) -> String {
        value < 1 ? number(value * 100, places: 0) + " cm" : number(value, places: 1) + " m"
    }

    /// `value` with `places` decimals, "-0" printed as "0".
    static func number(_ value: Double, places: Int) -> String {
        guard value.isFinite else { return "?" }
        let text = String(format: "%.\(places)f", value)
        return text.hasPrefix("-") && Double(text) == 0 ? String(text.dropFirst()) : text
    }

    // MARK: JSON

    /// One JSON object per event, keys in a fixed order:
    /// `{"time": 12.000000, "device": "rider", "event": "enter", "region": "stop 2"}`.
    public var jsonLines: [String] { events.map { Self.json($0).text } }

    /// One event as a JSON object.
    public static func json(_ event: ScenarioTimelineEvent) -> SimulationLog.JSON {
        var pairs: [(String, SimulationLog.JSON)] = [("time", .seconds(event.time)), ("device", .string(event.device))]
        func beacon(_ sighting: BeaconSighting) {
            pairs.append(("beacon", .string(sighting.beacon)))
            pairs.append(("uuid", .string(sighting.identity.uuid.uuidString)))
            pairs.append(("major", .integer(Int64(sighting.identity.major))))
            pairs.append(("minor", .integer(Int64(sighting.identity.minor))))
            pairs.append(("rssi", .integer(Int64(sighting.rssi))))
            pairs.append(("distance", sighting.distance.map { .number($0) } ?? .null))
            pairs.append(("heardAt", .seconds(sighting.heardAt)))
        }
        switch event.kind {
        case let .firstHeard(sighting):
            pairs.append(("event", .string("firstHeard")))
            beacon(sighting)
        case let .entered(region):
            pairs.append(("event", .string("enter")))
            pairs.append(("region", .string(region)))
        case let .exited(region):
            pairs.append(("event", .string("exit")))
            pairs.append(("region", .string(region)))
        case let .proximity(sighting, proximity, filtered, accuracy):
            pairs.append(("event", .string("proximity")))
            pairs.append(("proximity", .string(proximity.description)))
            beacon(sighting)
            pairs.append(("filteredRSSI", filtered.map { .number($0) } ?? .null))
            pairs.append(("accuracy", .number(accuracy)))
        case let .passed(sighting):
            pairs.append(("event", .string("passed")))
            beacon(sighting)
        case let .action(words):
            pairs.append(("event", .string("action")))
            pairs.append(("action", .string(words)))
        case let .app(app, words):
            pairs.append(("event", .string("app")))
            pairs.append(("app", .string(app)))
            pairs.append(("what", .string(words)))
        }
        return .object(pairs)
    }
}
