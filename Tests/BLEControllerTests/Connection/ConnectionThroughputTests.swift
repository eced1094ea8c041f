import BLEController
import BLEWire
import Testing

/// Throughput against the analytic maximum: each exchange is a full data PDU, T_IFS, the
/// peer's empty PDU and T_IFS, back to back.
@Suite("Link Layer connection: throughput")
struct ConnectionThroughputTests {
    /// One exchange's time for `payload` octets on `phy` (data PDU + T_IFS + empty PDU + T_IFS).
    static func exchange(payload: Int, phy: RadioPHY) -> Microseconds {
        Airtime.duration(pduOctets: 2 + payload, phy: phy) + 150 + Airtime.duration(pduOctets: 2, phy: phy) + 150
    }

    /// Streams from the central for `events` events after warming up; returns the octets
    /// the peripheral's host got per second.
    static func measure(_ pair: inout ConnectionPair, interval: Microseconds, events: Int, packetSize: Int) -> Double {
        let start = pair.now
        let needed = Int(Double(events + 20) * Double(interval) / 1e6 * 300_000)
        for index in 0 ..< max(needed / packetSize, 1) {
            pair.sendFromHost(.central, patternBytes(packetSize, seed: UInt8(truncatingIfNeeded: index)))
        }
        pair.run(until: start + 10 * interval)
        let from = pair.now
        let to = from + Microseconds(events) * interval
        pair.run(until: to)
        let octets = pair.outputs(.peripheral).reduce(0) { total, logged in
            guard logged.at > from, logged.at <= to, case let .aclToHost(packet) = logged.output else { return total }
            return total + packet.data.count
        }
        return Double(octets) / (Double(to - from) / 1e6)
    }

    @Test("27-octet PDUs on LE 1M at 7.5 ms reach at least 98% of the analytic maximum")
    func oneMegabit() {
        var pair = ConnectionPair(interval: 6)
        pair.run(until: 30_000)
        let achieved = Self.measure(&pair, interval: 7500, events: 133, packetSize: 243)
        let exchange = Self.exchange(payload: 27, phy: .le1M)
        #expect(exchange == 296 + 150 + 80 + 150)
        let analytic = 27 / (Double(exchange) / 1e6)
        let fraction = achieved / analytic
        print("LE 1M, 27 octets, 7.5 ms: \(Int(achieved)) octets/s of \(Int(analytic)) analytic = \(fraction)")
        #expect(fraction >= 0.98)
        #expect(fraction <= 1.0)
    }

    /// Runs the data length and PHY updates the central's host asks for.
    static func upgrade(interval: UInt16) -> ConnectionPair {
        var pair = ConnectionPair(interval: interval)
        pair.run(until: 30_000)
        pair.feed(.central, .command(.setDataLength(txOctets: 251, txTime: 2120)))
        pair.feed(.central, .command(.setPHY(HCI.LESetPHY(connectionHandle: 0x40, txPHYs: .le2M, rxPHYs: .le2M))))
        pair.run(until: pair.now + 200_000)
        return pair
    }

    @Test("Data length and PHY update: both hosts learn 251 octets and LE 2M, and packets go on LE 2M")
    func upgradeEvents() {
        let pair = Self.upgrade(interval: 6)
        let lengthChange = HCI.Event.leMeta(.dataLengthChange(.init(connectionHandle: 0x40, maxTxOctets: 251, maxTxTime: 2120, maxRxOctets: 27, maxRxTime: 328)))
        #expect(pair.events(.central).contains(lengthChange))
        #expect(pair.events(.peripheral).contains(.leMeta(.dataLengthChange(.init(connectionHandle: 0x41, maxTxOctets: 27, maxTxTime: 328, maxRxOctets: 251, maxRxTime: 2120)))))
        #expect(pair.events(.central).contains(.leMeta(.phyUpdateComplete(.init(status: .success, connectionHandle: 0x40, txPHY: .le2M, rxPHY: .le2M)))))
        #expect(pair.events(.peripheral).contains(.leMeta(.phyUpdateComplete(.init(status: .success, connectionHandle: 0x41, txPHY: .le2M, rxPHY: .le2M)))))
        #expect(pair.sent.last?.transmission.phy == .le2M)
        #expect(pair.sent.first?.transmission.phy == .le1M)
        #expect(pair.central.effectiveMaxTxOctets == 251)
    }

    @Test("251-octet PDUs on LE 2M reach at least 98% of the analytic maximum (11.25 ms interval)")
    func twoMegabit() {
        var pair = Self.upgrade(interval: 9)
        let achieved = Self.measure(&pair, interval: 11_250, events: 89, packetSize: 251)
        let exchange = Self.exchange(payload: 251, phy: .le2M)
        #expect(exchange == 1048 + 150 + 44 + 150)
        let analytic = 251 / (Double(exchange) / 1e6)
        let fraction = achieved / analytic
        print("LE 2M, 251 octets, 11.25 ms: \(Int(achieved)) octets/s of \(Int(analytic)) analytic = \(fraction)")
        #expect(fraction >= 0.98)
        #expect(fraction <= 1.0)
    }

    @Test("251-octet PDUs on LE 2M at 7.5 ms fill every event with the five exchanges that fit")
    func twoMegabitShortInterval() {
        var pair = Self.upgrade(interval: 6)
        let achieved = Self.measure(&pair, interval: 7500, events: 133, packetSize: 251)
        let exchange = Self.exchange(payload: 251, phy: .le2M)
        // An exchange may start only if it ends T_IFS + an empty PDU before the next anchor: 5 per event.
        let perEvent = 7500 / Int(exchange)
        #expect(perEvent == 5)
        let packed = Double(perEvent * 251) / 0.0075
        let analytic = 251 / (Double(exchange) / 1e6)
        print("LE 2M, 251 octets, 7.5 ms: \(Int(achieved)) octets/s; \(achieved / packed) of 5 exchanges per event, \(achieved / analytic) of back-to-back")
        #expect(achieved / packed >= 0.98)
    }
}
