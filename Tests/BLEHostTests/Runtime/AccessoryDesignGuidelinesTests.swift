import BLEController
import BLEHost
import BLEWire
import BLEWorld
import SimulatedTesting
import Testing

/// Apple's Accessory Design Guidelines for the connection parameters an accessory asks an
/// iPhone for (≤ R17 and QA1931), one rule a case, and the policy a central host answers by.
@Suite("Accessory Design Guidelines for connection parameter requests", .simulated, .timeLimit(.minutes(3)))
struct AccessoryDesignGuidelinesTests {
    /// Parameters in milliseconds (intervals) and a timeout in milliseconds.
    private func request(_ minimum: Double, _ maximum: Double, latency: UInt16 = 0, timeout: Double) -> HCI.LEConnectionParameters {
        HCI.LEConnectionParameters(connectionIntervalMin: UInt16(minimum / 1.25), connectionIntervalMax: UInt16(maximum / 1.25),
                                   maxLatency: latency, supervisionTimeout: UInt16(timeout / 10))
    }

    @Test("requests that keep every rule pass", arguments: [
        (15.0, 30.0, UInt16(0), 2000.0), (15, 15, 0, 2000), (30, 45, 4, 6000), (45, 75, 10, 4000),
    ])
    func compliant(minimum: Double, maximum: Double, latency: UInt16, timeout: Double) {
        #expect(AccessoryDesignGuidelines.violation(of: request(minimum, maximum, latency: latency, timeout: timeout)) == nil)
    }

    @Test("each rule broken is named", arguments: [
        (7.5, 30.0, UInt16(0), 2000.0, "Interval Min"),   // under 15 ms
        (20, 40, 0, 2000, "Interval Min"),                  // not a multiple of 15 ms
        (15, 20, 0, 2000, "Interval Max"),                  // Max < Min + 15 ms
        (30, 45, 31, 6000, "Peripheral Latency"),           // latency over 30
        (60, 90, 30, 6000, "× (Latency + 1) is over 2 s"),  // 90 ms × 31
        (15, 30, 0, 1000, "Supervision Timeout"),           // under 2 s
        (15, 30, 0, 7000, "Supervision Timeout"),           // over 6 s
        (300, 900, 1, 5000, "3 × Interval Max"),            // 5 s ≤ 3 × 1.8 s
    ])
    func broken(minimum: Double, maximum: Double, latency: UInt16, timeout: Double, rule: String) throws {
        let violation = try #require(AccessoryDesignGuidelines.violation(of: request(minimum, maximum, latency: latency, timeout: timeout)))
        #expect(violation.contains(rule))
    }

    @Test("a HID accessory may ask for 11.25 ms; another may not")
    func hidInterval() {
        let parameters = request(11.25, 11.25, timeout: 2000)
        #expect(AccessoryDesignGuidelines.violation(of: parameters, hid: true) == nil)
        #expect(AccessoryDesignGuidelines.violation(of: parameters) != nil)
    }

    @Test("a central host on the guidelines applies a compliant request and rejects one at 7.5 ms")
    func centralAnswers() async throws {
        let running = try RunningWorld(Scenario(name: "empty").addingExternalDevices(2), speed: 20)
        let peripheral = Host(transport: running.transports[0], configuration: .patient)
        let central = Host(transport: running.transports[1], configuration: .patient, parameterUpdates: .accessoryDesignGuidelines)
        _ = try await peripheral.start()
        _ = try await central.start()
        let events = peripheral.events
        try await peripheral.startAdvertising(GAPAdvertisingParameters(intervalMin: 32, intervalMax: 32))
        _ = try await central.connect(GAPConnectRequest(peer: running.addresses[0], timeout: 60_000_000))
        let up = try await firstElement(of: events, within: patience) {
            if case .connected = $0 { return true } else { return false }
        }
        guard case let .connected(link) = up else { throw TimedOut() }
        await #expect(throws: HostError.parameterUpdateRejected) {
            try await peripheral.updateConnectionParameters(link.handle, to: request(7.5, 7.5, timeout: 2000))
        }
        let applied = try await peripheral.updateConnectionParameters(link.handle, to: request(15, 30, timeout: 2000))
        #expect((12...24).contains(applied.interval))
        await central.close()
        await peripheral.close()
        await running.stop()
    }
}
