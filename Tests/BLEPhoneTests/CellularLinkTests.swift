import BLEPhone
import Testing

/// The phone's cellular link (docs/network.md): latency each way, outages, timeouts.
@Suite("Cellular link")
struct CellularLinkTests {
    private func policy(jitter: Int64 = 0) -> CellularLinkPolicy {
        var policy = CellularLinkPolicy()
        policy.baseLatency = 50_000
        policy.jitter = jitter
        return policy
    }

    @Test("A request reaches its server one latency after it is sent and its answer comes back one latency after the server answers")
    func latencyEachWay() {
        var link = CellularLink(policy: policy())
        #expect(link.send(1, timeout: 60_000_000, at: 1_000_000) == nil)
        #expect(link.nextDeadline == 1_050_000)
        #expect(link.advance(to: 1_049_999).isEmpty)
        #expect(link.advance(to: 1_050_000) == [.reachedServer(1)])
        link.serverAnswered(1, at: 1_050_000)
        #expect(link.nextDeadline == 1_100_000)
        #expect(link.advance(to: 1_100_000) == [.answered(1)])
        #expect(link.inFlight.isEmpty && link.nextDeadline == nil)
    }

    @Test("A request made while the link is off fails at once with not connected to the internet (-1009)")
    func offline() {
        var link = CellularLink(policy: policy())
        #expect(link.set(on: false, at: 0).isEmpty)
        #expect(link.send(1, timeout: 60_000_000, at: 10) == .notConnectedToInternet)
        #expect(NetworkFailure.notConnectedToInternet.urlErrorCode == -1009)
        #expect(link.inFlight.isEmpty)
        _ = link.set(on: true, at: 20)
        #expect(link.send(2, timeout: 60_000_000, at: 30) == nil)
    }

    @Test("Requests in flight when the link goes down fail with network connection lost (-1005), at the server or on the way back")
    func connectionLost() {
        var link = CellularLink(policy: policy())
        _ = link.send(1, timeout: 60_000_000, at: 0)
        _ = link.send(2, timeout: 60_000_000, at: 0)
        _ = link.advance(to: 50_000)
        link.serverAnswered(2, at: 60_000)
        #expect(link.set(on: false, at: 70_000) == [.failed(1, .networkConnectionLost), .failed(2, .networkConnectionLost)])
        #expect(NetworkFailure.networkConnectionLost.urlErrorCode == -1005)
        link.serverAnswered(1, at: 80_000)
        #expect(link.nextDeadline == nil)
    }

    @Test("A request whose answer does not come back within its timeout fails with timed out (-1001)")
    func timeout() {
        var link = CellularLink(policy: policy())
        _ = link.send(1, timeout: 2_000_000, at: 0)
        #expect(link.advance(to: 50_000) == [.reachedServer(1)])
        #expect(link.nextDeadline == 2_000_000)
        #expect(link.advance(to: 2_000_000) == [.failed(1, .timedOut)])
        link.serverAnswered(1, at: 2_500_000)
        #expect(link.nextDeadline == nil)
        #expect(NetworkFailure.timedOut.urlErrorCode == -1001)
    }

    @Test("The jitter stays within its range and the same seed gives the same latencies")
    func seededJitter() {
        func arrivals(seed: UInt64) -> [Int64] {
            var link = CellularLink(policy: policy(jitter: 20_000), seed: seed)
            return (1 ... 20).map { id -> Int64 in
                _ = link.send(UInt64(id), timeout: 60_000_000, at: 0)
                let at = link.nextDeadline ?? -1
                link.cancel(UInt64(id))
                return at
            }
        }
        let first = arrivals(seed: 7)
        #expect(first == arrivals(seed: 7))
        #expect(first != arrivals(seed: 8))
        #expect(first.allSatisfy { (50_000 ... 70_000).contains($0) })
        #expect(Set(first).count > 1)
    }
}
