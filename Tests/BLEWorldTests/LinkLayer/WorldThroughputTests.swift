import BLEController
import BLEWire
import BLEWorld
import Testing

/// Connection throughput through real controllers in the world, against the analytic
/// maximum computed from airtimes (Core 5.4, Vol 6, Part B, §2.1 and §4.5.1).
@Suite("Connection throughput in the world")
struct WorldThroughputTests {
    /// The analytic maximum in LL payload octets per second: per connection event, as many
    /// exchanges (a full data PDU, T_IFS, an empty PDU, T_IFS) as fit in the interval.
    static func analyticMaximum(payload: Int, phy: RadioPHY, intervalMicroseconds: Int64) -> Double {
        let exchange = Airtime.duration(pduOctets: 2 + payload, phy: phy) + Airtime.interFrameSpace
            + Airtime.duration(pduOctets: 2, phy: phy) + Airtime.interFrameSpace
        let perEvent = intervalMicroseconds / exchange
        return Double(perEvent * Int64(payload)) / (Double(intervalMicroseconds) / 1_000_000)
    }

    /// Connects two devices at 7.5 ms, optionally raises data length and PHY, then keeps the
    /// central's controller buffers full for `seconds` and returns LL payload octets per second
    /// delivered to the peripheral's host.
    static func measure(payload: Int, phy: RadioPHY, seconds: Double) throws -> Double {
        let hosted = HostedWorld(seed: 3, capturesHCI: false)
        let peripheral = hosted.add("peripheral", at: Vector3(x: 0, y: 0), address: 0xF0_00_00_00_00_01, seed: 1)
        let central = hosted.add("central", at: Vector3(x: 1, y: 0), address: 0xF0_00_00_00_00_02, seed: 2)
        hosted.advertise(peripheral, interval: 32)
        let handles = try #require(hosted.connect(central, to: peripheral, address: 0xF0_00_00_00_00_01, interval: 6))
        if payload > 27 {
            hosted.command(central, HCI.LESetDataLength(connectionHandle: handles.central, txOctets: UInt16(payload), txTime: 2120))
        }
        if phy == .le2M {
            hosted.command(central, HCI.LESetPHY(
                connectionHandle: handles.central, txPHYs: .le2M, rxPHYs: .le2M))
        }
        hosted.world.run(until: hosted.world.now + 500_000)

        // The host sends one LL PDU's worth per ACL packet and keeps every buffer in use.
        let bufferCount = 8
        var credits = bufferCount
        let frame = [UInt8](repeating: 0x5A, count: payload)
        func pump() {
            while credits > 0 {
                credits -= 1
                hosted.world.sendToController(.acl(HCI.ACLPacket(
                    connectionHandle: handles.central, packetBoundary: .firstNonAutomaticallyFlushable, data: frame[...])),
                    device: central)
            }
        }
        hosted.onEvent = { device, event in
            guard device == central, case let .numberOfCompletedPackets(done) = event else { return }
            credits += done.entries.reduce(0) { $0 + Int($1.numCompletedPackets) }
            pump()
        }
        pump()
        hosted.world.run(until: hosted.world.now + 500_000)   // warm up
        let start = hosted.world.now
        let before = hosted.acl[peripheral.rawValue].reduce(0) { $0 + $1.packet.data.count }
        hosted.world.run(until: start + Int64(seconds * 1_000_000))
        let after = hosted.acl[peripheral.rawValue].reduce(0) { $0 + $1.packet.data.count }
        return Double(after - before) / seconds
    }

    @Test("7.5 ms interval, 27-octet PDUs on LE 1M: within 2% of the analytic maximum")
    func oneMegabitShortPDUs() throws {
        let achieved = try Self.measure(payload: 27, phy: .le1M, seconds: 2)
        let maximum = Self.analyticMaximum(payload: 27, phy: .le1M, intervalMicroseconds: 7_500)
        print("27 octets, LE 1M, 7.5 ms: \(achieved) B/s of \(maximum) B/s = \(achieved / maximum)")
        #expect(achieved / maximum >= 0.98)
        #expect(achieved / maximum <= 1.0001)
    }

    @Test("7.5 ms interval, 251-octet PDUs on LE 2M: within 2% of the analytic maximum")
    func twoMegabitLongPDUs() throws {
        let achieved = try Self.measure(payload: 251, phy: .le2M, seconds: 2)
        let maximum = Self.analyticMaximum(payload: 251, phy: .le2M, intervalMicroseconds: 7_500)
        print("251 octets, LE 2M, 7.5 ms: \(achieved) B/s of \(maximum) B/s = \(achieved / maximum)")
        #expect(achieved / maximum >= 0.98)
        #expect(achieved / maximum <= 1.0001)
    }
}
