import BLEController
import BLEWire
import BLEWorld
import Testing

/// The link-layer SweynTooth attacks (Garbelini et al., USENIX ATC 2020) from a hostile
/// device in the world against our controller, in both roles where the attack has two. Each
/// test checks that our controller refuses the packet the way the Core specification leaves
/// it (docs/security.md, "SweynTooth"), counts the refusal, and carries on: the frame the
/// attacker's host sent arrives once and intact when the attacker stops cheating.
@Suite("SweynTooth: link layer attacks from a hostile device")
struct SweynToothLinkLayerTests {
    /// Connects with our controller in `victimRole`, has the attacker's host send one ATT
    /// Read Request while its controller cheats `budget` times, and returns the world.
    func attackData(_ attack: SweynToothAttack, victimRole: HCI.Role, budget: Int = 3) throws -> HostileWorld {
        let hostile = HostileWorld(attack: attack, budget: budget)
        let handles = try #require(hostile.connect(peripheral: victimRole == .peripheral ? hostile.victim : hostile.attacker))
        hostile.send(readRequestFrame, from: hostile.attacker, handle: handles.attacker)
        hostile.run(for: 1_000_000)
        return hostile
    }

    @Test("Link Layer Length Overflow (CVE-2019-16336, CVE-2019-17519): a Length past the packet is not acknowledged, the link carries on",
          arguments: [HCI.Role.peripheral, .central])
    func linkLayerLengthOverflow(victimRole: HCI.Role) throws {
        let hostile = try attackData(.linkLayerLengthOverflow, victimRole: victimRole)
        #expect(hostile.hostile?.rewritten == 3)
        let refused = try #require(hostile.victimController?.counters.linkRefusals)
        #expect(refused.lengthBeyondPacket == 3 && refused.total == 3)
        #expect(hostile.received(hostile.victim) == readRequestFrame)
        #expect(hostile.disconnections(hostile.victim).isEmpty)
    }

    @Test("LLID Deadlock (CVE-2019-17061, CVE-2019-17060): PDUs with the reserved LLID 0 never reach the host, the link carries on",
          arguments: [HCI.Role.peripheral, .central])
    func llidDeadlock(victimRole: HCI.Role) throws {
        let hostile = try attackData(.llidDeadlock, victimRole: victimRole)
        #expect(hostile.hostile?.rewritten == 3)
        let refused = try #require(hostile.victimController?.counters.linkRefusals)
        #expect(refused.reservedLLID == 3 && refused.total == 3)
        #expect(hostile.received(hostile.victim) == readRequestFrame)
        #expect(hostile.disconnections(hostile.victim).isEmpty)
    }

    @Test("LLID Deadlock without end: the link outlives the attack only as long as the supervision timeout allows, then both sides close")
    func llidDeadlockForever() throws {
        let hostile = try attackData(.llidDeadlock, victimRole: .peripheral, budget: .max)
        hostile.run(for: 3_000_000)
        #expect(hostile.received(hostile.victim).isEmpty)
        // Nothing valid arrives while the central sends only LLID 0 data: after 2 s
        // (supervision timeout 200 × 10 ms) our side ends the link as the spec says (§4.5.2).
        #expect(hostile.disconnections(hostile.victim) == [.connectionTimeout])
        #expect((hostile.victimController?.counters.linkRefusals.reservedLLID ?? 0) > 3)
    }

    @Test("Silent Length Overflow (CVE-2019-17518): a start padded to 114 octets past the 27 negotiated is refused, the link carries on",
          arguments: [HCI.Role.peripheral, .central])
    func silentLengthOverflow(victimRole: HCI.Role) throws {
        let hostile = try attackData(.silentLengthOverflow(octets: 114), victimRole: victimRole)
        #expect(hostile.hostile?.rewritten == 3)
        let refused = try #require(hostile.victimController?.counters.linkRefusals)
        #expect(refused.payloadOverMaximum == 3 && refused.total == 3)
        #expect(hostile.received(hostile.victim) == readRequestFrame)
        #expect(hostile.disconnections(hostile.victim).isEmpty)
    }

    @Test("Invalid Connection Request (CVE-2019-19193): a CONNECT_IND out of range starts nothing, advertising goes on, a valid one connects",
          arguments: SweynToothAttack.ConnectionRequestFault.allCases)
    func invalidConnectionRequest(fault: SweynToothAttack.ConnectionRequestFault) throws {
        let hostile = HostileWorld(attack: .invalidConnectionRequest(fault), budget: 1)
        #expect(hostile.connect(peripheral: hostile.victim) == nil)
        #expect(hostile.hostile?.rewritten == 1)
        #expect(hostile.connectionCompletes(hostile.victim).isEmpty)
        let counters = try #require(hostile.victimController?.counters)
        // A CONNECT_IND cut short does not decode; the others decode and are refused.
        #expect((fault == .truncated ? counters.malformedAirPDUs : counters.invalidConnectIndications) == 1)
        // The attacker's own controller believed the link up and lost it (§4.5.2: not established).
        hostile.run(for: 1_000_000)
        #expect(hostile.disconnections(hostile.attacker) == [.connectionFailedToBeEstablished])
        // Still advertising: an honest CONNECT_IND now connects.
        hostile.command(hostile.attacker, HCI.LECreateConnection(
            leScanInterval: 0x0010, leScanWindow: 0x0010, peerAddressType: .public, peerAddress: HostileWorld.victimAddress,
            ownAddressType: .public,
            connectionParameters: HCI.LEConnectionParameters(
                connectionIntervalMin: 6, connectionIntervalMax: 6, maxLatency: 0, supervisionTimeout: 200)))
        hostile.run(for: 1_000_000)
        #expect(hostile.connectionHandle(hostile.victim) != nil)
    }

    @Test("Invalid Channel Map (CVE-2020-10069, CVE-2020-13594): fewer than two channels ends the link with Invalid LL Parameters",
          arguments: [UInt64(0), 1 << 20])
    func invalidChannelMap(map: UInt64) throws {
        let hostile = HostileWorld(attack: .invalidChannelMap(map: map), budget: 1)
        _ = try #require(hostile.connect(peripheral: hostile.victim))
        hostile.command(hostile.attacker, HCI.LESetHostChannelClassification(channelMap: HCI.LEChannelMap(rawValue: 0x1F_FFFF_FF00)))
        hostile.run(for: 1_000_000)
        #expect(hostile.hostile?.rewritten == 1)
        #expect(hostile.disconnections(hostile.victim) == [.invalidLMPOrLLParameters])
        #expect(hostile.disconnections(hostile.attacker) == [.invalidLMPOrLLParameters])
        #expect(hostile.victimController?.counters.linkRefusals.invalidChannelMap == 1)
        // Our controller takes a new connection at once.
        #expect(hostile.connect(peripheral: hostile.victim) != nil)
        #expect(hostile.connectionCompletes(hostile.victim).filter { $0.status == .success }.count == 2)
    }
}
