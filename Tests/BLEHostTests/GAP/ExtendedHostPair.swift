@testable import BLEHost
import BLEWorld

/// Two started hosts on a fresh world whose controllers claim extended advertising and
/// scanning: the first device's host to advertise, the second's to scan, their events
/// drained. The host-to-host extended tests (ExtendedScanTests, CodedPHYGAPTests) share it.
struct ExtendedHostPair {
    let running: RunningWorld
    let advertiser: Host
    let scanner: Host
    private let drains: [Task<Void, Never>]

    /// Starts both hosts on an ideal-timing world of two external devices at 20× speed.
    static func start() async throws -> ExtendedHostPair {
        var scenario = Scenario(name: "empty").addingExternalDevices(2)
        scenario.timing = .ideal
        let running = try RunningWorld(scenario, speed: 20, capturesHCI: false, claimsExtendedAdvertising: true)
        let advertiser = Host(transport: running.transports[0], configuration: .patient)
        let scanner = Host(transport: running.transports[1], configuration: .patient)
        _ = try await advertiser.start()
        _ = try await scanner.start()
        let drains = [Task { for await _ in advertiser.events {} }, Task { for await _ in scanner.events {} }]
        return ExtendedHostPair(running: running, advertiser: advertiser, scanner: scanner, drains: drains)
    }

    /// Stops draining the hosts' events.
    func close() {
        for drain in drains { drain.cancel() }
    }
}
