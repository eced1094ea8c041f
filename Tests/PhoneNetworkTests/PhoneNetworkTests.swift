import BLE
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SimulatedTesting
import Testing

/// Apps on a simulated iPhone reaching servers with `URLSession` through the phone's
/// cellular link, on virtual time (docs/network.md).
@Suite("Apps reach servers through the phone's cellular link", .simulatedOnMainActor, .timeLimit(.minutes(5)))
@MainActor
struct PhoneNetworkTests {
    private func post(_ host: String, _ path: String, _ body: String) throws -> URLRequest {
        var request = URLRequest(url: try #require(URL(string: "http://\(host)\(path)")))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body.utf8)
        return request
    }

    @Test("A foreground app's POST with URLSession.shared reaches the server one link latency after it is made, and the answer one latency later")
    func foregroundPost() async throws {
        let host = uniqueHost("rides")
        let server = RecordingServer(status: 201)
        let phone = try phoneWithApp(server: server, host: host)
        defer { phone.close() }
        let start = testClock.microseconds
        let (data, response) = try await URLSession.shared.data(for: try post(host, "/rides", #"{"route":"42"}"#))
        let end = testClock.microseconds
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 201)
        #expect(http.value(forHTTPHeaderField: "X-Path") == "/rides")
        #expect(String(decoding: data, as: UTF8.self) == #"POST /rides  {"route":"42"}"#)
        let arrival = try #require(server.arrivals.first)
        #expect(arrival.request.method == "POST" && arrival.request.header("content-type") == "application/json")
        let link = phone.cellularLinkPolicy
        let oneWay = link.baseLatency ... link.baseLatency + link.jitter
        #expect(oneWay.contains(arrival.time - start), "reached the server after \(arrival.time - start) µs")
        #expect(oneWay.contains(end - arrival.time), "came back after \(end - arrival.time) µs")
        let line = try #require(networkLines(phone).first)
        #expect(line == "Rides: → POST \(host)/rides 201 (\((end - start) / 1000) ms)")
    }

    @Test("A GET with a query and a completion handler gets its answer on the session's queue, through the shared session and through one that names the protocol")
    func completionHandlerGet() async throws {
        let host = uniqueHost("stops")
        let server = RecordingServer()
        let phone = try phoneWithApp(server: server, host: host)
        defer { phone.close() }
        let outcome = Outcome()
        let url = try #require(URL(string: "http://\(host)/stops/7/departures?route=42&limit=3"))
        URLSession.shared.dataTask(with: url) { data, response, error in outcome.settle(data, response, error) }.resume()
        await outcome.finished()
        #expect(outcome.status == 200 && outcome.error == nil)
        #expect(outcome.body == "GET /stops/7/departures route=42&limit=3 ")
        #expect(server.arrivals.map(\.request.query) == ["route=42&limit=3"])
        // A session that names the protocol in its configuration is served as well.
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [SimulatedNetworkProtocol.self]
        let (_, named) = try await URLSession(configuration: configuration).data(from: url)
        #expect((named as? HTTPURLResponse)?.statusCode == 200)
        #expect(server.arrivals.count == 2)
    }

    @Test("While the link is down a request fails at once with not connected to the internet (-1009); the app's queued retry succeeds once the link is back")
    func outageAndRetry() async throws {
        let host = uniqueHost("outage")
        let server = RecordingServer(status: 201)
        let phone = try phoneWithApp(server: server, host: host)
        defer { phone.close() }
        phone.setNetwork(on: false)
        let request = try post(host, "/rides", "{}")
        let failedAt = testClock.microseconds
        do {
            _ = try await URLSession.shared.data(for: request)
            Issue.record("a request went out while the link was down")
        } catch let error as URLError {
            #expect(error.code == .notConnectedToInternet && error.errorCode == -1009)
        }
        #expect(testClock.microseconds == failedAt)
        // The app keeps the request and retries it every 5 s; the link comes back at 12 s.
        // (The script runs in this task: a request is taken in by Foundation on a thread of
        // its own, and no other sleeper may move the clock meanwhile; docs/network.md.)
        var attempts = 1
        var status: Int?
        while status == nil, attempts < 10 {
            let retryAt = testClock.microseconds + 5_000_000
            if !phone.isNetworkOn, retryAt >= failedAt + 12_000_000 {
                try await testClock.sleep(untilMicroseconds: failedAt + 12_000_000)
                phone.setNetwork(on: true)
            }
            try await testClock.sleep(untilMicroseconds: retryAt)
            attempts += 1
            do {
                status = (try await URLSession.shared.data(for: request).1 as? HTTPURLResponse)?.statusCode
            } catch let error as URLError where error.code == .notConnectedToInternet {
                continue
            }
        }
        #expect(status == 201 && attempts == 4)
        #expect(server.arrivals.count == 1)
        #expect(networkLines(phone).filter { $0.contains("-1009") }.count == 3)
        #expect(networkLines(phone).contains("cellular: link up"))
    }

    @Test("A request in flight when the link drops fails with network connection lost (-1005)")
    func droppedInFlight() async throws {
        let host = uniqueHost("drop")
        let server = RecordingServer()
        // A slow link (5 s each way), so that the drop surely comes while the request travels.
        var slow = CellularLinkPolicy()
        slow.baseLatency = 5_000_000
        let phone = try phoneWithApp(server: server, host: host, link: slow)
        defer { phone.close() }
        let url = try #require(URL(string: "http://\(host)/rides"))
        let outcome = Outcome()
        URLSession.shared.dataTask(with: url) { data, response, error in outcome.settle(data, response, error) }.resume()
        try await wait { phone.requestsInFlight == 1 }
        phone.setNetwork(on: false)
        await outcome.finished()
        #expect(outcome.error?.code == .networkConnectionLost && outcome.error?.errorCode == -1005)
        #expect(server.arrivals.count <= 1)
        #expect(networkLines(phone).last?.contains("failed: network connection lost (-1005)") == true)
    }

    @Test("A request whose answer cannot come back within its timeout interval fails with timed out (-1001)")
    func timeout() async throws {
        let host = uniqueHost("slow")
        let phone = try phoneWithApp(server: RecordingServer(), host: host)
        defer { phone.close() }
        var request = URLRequest(url: try #require(URL(string: "http://\(host)/health")))
        request.timeoutInterval = 0.08  // the link needs at least 100 ms there and back
        let error = await #expect(throws: URLError.self) { _ = try await URLSession.shared.data(for: request) }
        #expect(error?.code == .timedOut)
        #expect(networkLines(phone).last?.contains("failed: timed out (-1001) (80 ms)") == true)
    }

    @Test("A request to a host no phone serves is not claimed, so it goes to the real network")
    func unregisteredHostNotClaimed() async throws {
        let host = uniqueHost("served")
        let phone = try phoneWithApp(server: RecordingServer(), host: host)
        defer { phone.close() }
        let served = try #require(URL(string: "https://\(host)/rides"))
        let elsewhere = try #require(URL(string: "http://127.0.0.1:8080/rides"))
        let other = try #require(URL(string: "http://not-\(host)/rides"))
        let file = try #require(URL(string: "file:///tmp/\(host)"))
        // Asked from outside the phone's simulation: asked inside it, as the loading system
        // asks when a task resumes, the phone would take the request in and send it.
        let claimed = await Task.detached {
            [served, elsewhere, other, file].map { SimulatedNetworkProtocol.canInit(with: URLRequest(url: $0)) }
        }.value
        #expect(claimed == [true, false, false, false])
        #expect(phone.requestsInFlight == 0)
    }

    @Test("The same seed gives the same exchanges at the same times; another seed other latencies")
    func sameSeedSameTimeline() async throws {
        func story(seed: UInt64) async throws -> [String] {
            let host = uniqueHost("seeded")
            let phone = try phoneWithApp(server: RecordingServer(status: 201), host: host, seed: seed)
            defer { phone.close() }
            let start = testClock.microseconds
            for path in ["/a", "/b", "/c", "/d"] {
                _ = try await URLSession.shared.data(for: try post(host, path, "{}"))
            }
            return phone.timeline.compactMap { entry in
                guard case let .network(app, exchange) = entry.output else { return nil }
                return "\(entry.time - start) \(app): " + exchange.replacingOccurrences(of: host, with: "HOST")
            }
        }
        let first = try await story(seed: 5)
        #expect(first.count == 4)
        #expect(try await story(seed: 5) == first)
        #expect(try await story(seed: 6) != first)
    }
}
