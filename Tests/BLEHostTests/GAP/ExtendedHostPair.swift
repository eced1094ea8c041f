@testable import BLEHost
import BLEWorld

/// Started hosts on a fresh world whose controllers claim extended advertising and
/// scanning: the first devices' hosts to advertise (one unless asked for more), the last
/// one's to scan, their events drained. The host-to-host extended tests (ExtendedScanTests, CodedPHYGAPTests) share it.
struct ExtendedHostPair {
    let running: RunningWorld
    /// The first advertiser (device 0).
    var advertiser: Host { advertisers[0] }
    /// The advertisers, devices 0 ..< count.
    let advertisers: [Host]
    /// The scanner, the last device.
    let scanner: Host
    private let drains: [Task<Void, Never>]

    /// Starts `advertisers` advertising hosts and a scanning one on an ideal-timing world of
    /// external devices at 20× speed.
    static func start(advertisers count: Int = 1) async throws -> ExtendedHostPair {
        var scenario = Scenario(name: "empty").addingExternalDevices(count + 1)
        scenario.timing = .ideal
        let running = try RunningWorld(scenario, speed: 20, capturesHCI: false, claimsExtendedAdvertising: true)
        let hosts = running.transports.map { Host(transport: $0, configuration: .patient) }
        for host in hosts { _ = try await host.start() }
        let drains = hosts.map { host in Task { for await _ in host.events {} } }
        return ExtendedHostPair(running: running, advertisers: Array(hosts.dropLast()), scanner: hosts[count], drains: drains)
    }

    /// Stops draining the hosts' events.
    func close() {
        for drain in drains { drain.cancel() }
    }
}
