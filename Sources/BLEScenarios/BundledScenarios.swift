import BLEWorld

/// The scenarios that ship with SwiftBLE, by name: the beacon field scenarios `walk`,
/// `bus-stop`, `bus-route`, `crowd` and `car`; `bus-stop-coded`, the bus stop's beacon on LE
/// Coded S=8 heard by gateways; `bus-stop-pocket`, a phone's app in a pocket; `car-pocket` and `car-pocket-20`, the car's phone in a pocket at 50 and 20 km/h;
/// `bus-route-pocket`, the bus rider's phone in a pocket; `heart-rate-restore` and `heart-rate-force-quit`, a phone running
/// Examples/HeartRateMonitor; `heart-rate-run`, that phone on a run past a café whose beacon
/// region its system monitors; and `call-notification-light`, a call reaching a phone while
/// Examples/NotificationLight is connected; and the fleet scenarios `bus-fleet`, `shop` and
/// `flat`, whose gateways `ble presence score` scores; and the phone systems `ride-log`,
/// `stolen-car` and `cheating`, which, like the fleet scenarios, name the field system they play with
/// `system:` (`ble sim run walk`, `ble sim run ride-log`). Their YAML lives in
/// the package's Scenarios/ folder, which is the source of truth; a copy is compiled in
/// (scripts/embed-scenarios.py) so the command line needs no file, and a test keeps the
/// two identical.
public enum BundledScenarios {
    /// The names, in the order docs/scenarios.md presents them.
    public static let names = ["walk", "bus-stop", "bus-stop-coded", "bus-stop-pocket", "bus-route", "crowd", "car", "car-pocket", "car-pocket-20", "bus-route-pocket", "heart-rate-restore", "heart-rate-force-quit", "heart-rate-run", "call-notification-light", "bus-fleet", "shop", "flat", "ride-log", "stolen-car", "cheating"]

    /// The YAML text of the scenario called `name`, or `nil` if none is.
    public static func yaml(named name: String) -> String? { texts[name] }

    /// The scenario called `name`, parsed and checked.
    /// - Throws: ``ScenarioError`` of kind `unknownBuiltIn` naming the bundled scenarios
    ///   when none has that name.
    public static func scenario(named name: String) throws(ScenarioError) -> Scenario {
        guard let text = texts[name] else {
            throw ScenarioError(.unknownBuiltIn, message: "no bundled scenario is called \"\(name)\"; use one of "
                                + names.joined(separator: ", "))
        }
        return try ScenarioLoader.parse(yaml: text, file: name + ".yaml")
    }
}
