import BLEController
import BLEWire
import BLEWorld
import Testing

/// ``World/sendToControllerNow(_:device:)``: the same deliveries, at the same times and in
/// the same order, as ``World/sendToController(_:device:)`` followed by running what is due.
@Suite("Sending to a controller now")
struct WorldImmediateSendTests {
    /// What the peer's host and the sender's host saw, with times.
    struct Seen: Equatable {
        var acl: [String]
        var events: [String]
    }

    /// 40 packets over an airtime-free link, sent 8 at a time and again from inside the
    /// world's handler on each Number Of Completed Packets, with `send`.
    static func run(immediately: Bool) throws -> Seen {
        let (hosted, central, peripheral, handles) = try WorldDirectLinkTests.connected(airtimeFree: true, peripheralTxOctets: 251)
        let start = hosted.world.now
        let eventsBefore = hosted.events[peripheral.rawValue].count
        let aclBefore = hosted.acl[central.rawValue].count
        var sent = 0
        var credits = 8
        func pump() {
            while credits > 0, sent < 40 {
                credits -= 1
                let packet = H4.Packet.acl(HCI.ACLPacket(connectionHandle: handles.peripheral, packetBoundary: .firstNonAutomaticallyFlushable,
                                                         data: [UInt8](repeating: UInt8(sent), count: 100)[...]))
                sent += 1
                if immediately {
                    hosted.world.sendToControllerNow(packet, device: peripheral)
                } else {
                    hosted.world.sendToController(packet, device: peripheral)
                }
            }
        }
        hosted.onEvent = { device, event in
            guard device == peripheral, case let .numberOfCompletedPackets(done) = event else { return }
            credits += done.entries.reduce(0) { $0 + Int($1.numCompletedPackets) }
            pump()
        }
        pump()
        if !immediately { hosted.world.run(until: start) }
        // Packets handed over now must have arrived before anything else runs.
        let arrivedAtOnce = hosted.acl[central.rawValue].count - aclBefore
        hosted.world.run(until: start + 10)
        return Seen(acl: ["\(arrivedAtOnce) at once"] + hosted.acl[central.rawValue][aclBefore...].map { "\($0.at) \($0.packet)" },
                    events: hosted.events[peripheral.rawValue][eventsBefore...].map { "\($0.at) \($0.event)" })
    }

    @Test("40 packets, some sent from inside the world's handler, reach the peer's host as they do through the event queue")
    func sameAsThroughTheQueue() throws {
        let queued = try Self.run(immediately: false)
        let immediate = try Self.run(immediately: true)
        #expect(queued.acl.first == "40 at once")
        #expect(queued.acl.count == 41)
        #expect(immediate == queued)
    }

    @Test("sent from inside the world's handler, a packet waits until the event under way is done, as the handler's contract says")
    func insideTheHandlerItWaits() throws {
        let (hosted, central, peripheral, handles) = try WorldDirectLinkTests.connected(airtimeFree: true)
        let packet = H4.Packet.acl(HCI.ACLPacket(connectionHandle: handles.peripheral, packetBoundary: .firstNonAutomaticallyFlushable,
                                                 data: [1, 2, 3][...]))
        var arrivedDuringCall: Int?
        hosted.onEvent = { device, event in
            guard device == peripheral, arrivedDuringCall == nil, case .numberOfCompletedPackets = event else { return }
            let before = hosted.acl[central.rawValue].count
            hosted.world.sendToControllerNow(packet, device: peripheral)
            arrivedDuringCall = hosted.acl[central.rawValue].count - before
        }
        let aclBefore = hosted.acl[central.rawValue].count
        hosted.world.sendToControllerNow(packet, device: peripheral)
        #expect(hosted.acl[central.rawValue].count == aclBefore + 1, "outside a handler it arrives before the call returns")
        hosted.world.run(until: hosted.world.now + 10)
        #expect(arrivedDuringCall == 0)
        #expect(hosted.acl[central.rawValue].count == aclBefore + 2, "and arrives once the event is done")
    }
}
