import BLE
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SimulatedTesting
import Testing

/// iOS's rules for an app's requests off screen: a suspended app sends nothing until it
/// runs again; an answer that comes while it is suspended waits for it (docs/network.md).
@Suite("Requests of apps off screen", .simulatedOnMainActor, .timeLimit(.minutes(5)))
@MainActor
struct PhoneNetworkBackgroundTests {
    /// A link of 5 s each way: the app's state surely changes while its request travels.
    private var slowLink: CellularLinkPolicy {
        var link = CellularLinkPolicy()
        link.baseLatency = 5_000_000
        return link
    }

    @Test("A suspended app sends nothing until a region entry wakes it; its request then goes out and is answered within the wake window")
    func suspendedUntilWoken() async throws {
        let host = uniqueHost("wake")
        let server = RecordingServer(status: 201)
        let phone = try phoneWithApp(server: server, host: host)
        defer { phone.close() }
        try phone.perform(.background("Rides"))
        try await wait(upTo: 10, step: .milliseconds(100)) { phone.state(of: "Rides") == .suspended }
        #expect(phone.state(of: "Rides") == .suspended)
        // Code of the app that would run now (a timer) makes a request: it waits.
        let outcome = Outcome()
        URLSession.shared.dataTask(with: try #require(URL(string: "http://\(host)/rides"))) { data, response, error in
            outcome.settle(data, response, error)
        }.resume()
        try await waitForLine(phone, containing: "waits: Rides is not running")
        try await testClock.sleep(for: .seconds(30))
        #expect(server.arrivals.isEmpty && !outcome.done)
        // A region entry wakes the app (1 to 12 s late, rule 21): the request goes out.
        phone.deliver(.region, "didEnterRegion \"stop\"", region: "stop", for: "Rides", on: MainActor.shared) {}
        await outcome.finished()
        #expect(outcome.status == 201)
        let woken = try #require(phone.timeline.last { entry in
            if case .stateChanged(app: "Rides", from: .suspended, to: .background) = entry.output { true } else { false }
        })
        let arrival = try #require(server.arrivals.first?.time)
        let link = phone.cellularLinkPolicy
        #expect((link.baseLatency ... link.baseLatency + link.jitter).contains(arrival - woken.time))
        // The answer reached the app on the phone's clock within its wake window, not kept.
        let answered = try #require(phone.timeline.last { entry in
            if case let .network(app: "Rides", exchange: words) = entry.output { words.contains(" 201 (") } else { false }
        })
        #expect(answered.time - woken.time < phone.policy.wakeWindow)
        #expect(!networkLines(phone).contains { $0.contains("kept until") })
    }

    @Test("An answer that arrives while the app is suspended is kept and delivered when the app returns to the foreground")
    func answerKeptWhileSuspended() async throws {
        let host = uniqueHost("kept")
        let server = RecordingServer()
        let phone = try phoneWithApp(server: server, host: host, link: slowLink)
        defer { phone.close() }
        let outcome = Outcome()
        URLSession.shared.dataTask(with: try #require(URL(string: "http://\(host)/rides/R-1"))) { data, response, error in
            outcome.settle(data, response, error)
        }.resume()
        try await wait { phone.requestsInFlight == 1 }
        try phone.perform(.background("Rides"))
        try phone.perform(.suspend("Rides"))
        try await testClock.sleep(for: .seconds(30))
        #expect(server.arrivals.count == 1 && !outcome.done)
        #expect(networkLines(phone).contains { $0.contains("kept until Rides runs") })
        try phone.perform(.foreground("Rides"))
        await outcome.finished()
        #expect(outcome.status == 200)
    }

    @Test("A request made right after the app is launched is the app's, before its entry point has had a chance to run")
    func launchedAppOwnsRequestsAtOnce() throws {
        let phone = try phoneWithApp(server: RecordingServer(), host: uniqueHost("launched"))
        defer { phone.close() }
        // No await since the launch: the task that runs the entry point has not run. On a loaded
        // machine Foundation may start loading a request in between; it must find its app.
        #expect(phone.currentNetworkApp == "Rides")
    }

    @Test("An app that ends takes its requests with it: nothing is delivered")
    func endedWithTheApp() async throws {
        let host = uniqueHost("ended")
        let phone = try phoneWithApp(server: RecordingServer(), host: host, link: slowLink)
        defer { phone.close() }
        let outcome = Outcome()
        URLSession.shared.dataTask(with: try #require(URL(string: "http://\(host)/x"))) { data, response, error in
            outcome.settle(data, response, error)
        }.resume()
        try await wait { phone.requestsInFlight == 1 }
        try phone.perform(.terminate("Rides", .forceQuit))
        try await testClock.sleep(for: .seconds(12))
        #expect(!outcome.done && phone.requestsInFlight == 0, "the request ended with \(String(describing: outcome.error))")
        #expect(networkLines(phone).last == "Rides: 1 request(s) ended with the app", "\(networkLines(phone))")
    }
}
