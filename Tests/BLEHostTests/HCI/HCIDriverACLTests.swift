import BLEController
import BLEHost
import BLEWire
import BLEWorld
import Testing

@Suite("HCI driver ACL data")
struct HCIDriverACLTests {
    @Test("A 300-octet frame crosses a real link with 251-octet buffers and is reassembled byte-exact")
    func reassemblyOverRealLink() throws {
        let harness = DriverWorld(seed: 7)
        let central = harness.add("central", address: 0xC0FF_EE00_0001, x: 0)
        let peripheral = harness.add("peripheral", address: 0xC0FF_EE00_0002, x: 2)
        let (centralHandle, peripheralHandle) = try #require(harness.connect(central: central, peripheral: peripheral, peripheralAddress: 0xC0FF_EE00_0002))
        let frame = basicFrame(count: 296)
        #expect(frame.count == 300)
        harness.send(central, frame: frame, handle: centralHandle)
        let fragments = harness.sentACL[central.rawValue]
        #expect(fragments.map(\.data.count) == [251, 49])
        #expect(fragments.map(\.packetBoundary) == [.firstNonAutomaticallyFlushable, .continuing])
        let received = { harness.recorded(peripheral).compactMap { output -> [UInt8]? in
            if case let .l2capFrame(handle, bytes) = output, handle == peripheralHandle { return bytes } else { return nil }
        } }
        #expect(harness.run(for: 1_000_000) { !received().isEmpty })
        #expect(received() == [frame])
        // And back the other way.
        let reply = basicFrame(count: 500, channel: 0x0041)
        harness.send(peripheral, frame: reply, handle: peripheralHandle)
        let replies = { harness.recorded(central).compactMap { output -> [UInt8]? in
            if case let .l2capFrame(_, bytes) = output { return bytes } else { return nil }
        } }
        #expect(harness.run(for: 1_000_000) { !replies().isEmpty })
        #expect(replies() == [reply])
    }

    @Test("With 27-octet × 2 buffers a frame is cut to 27 octets and paced by Number Of Completed Packets")
    func fragmentationAndPacingOverRealLink() throws {
        let harness = DriverWorld(seed: 11)
        let central = harness.add("central", address: 0xC0FF_EE00_0011, x: 0, bufferSize: 27, bufferCount: 2)
        let peripheral = harness.add("peripheral", address: 0xC0FF_EE00_0012, x: 2, bufferSize: 27, bufferCount: 2)
        let (centralHandle, peripheralHandle) = try #require(harness.connect(central: central, peripheral: peripheral, peripheralAddress: 0xC0FF_EE00_0012))
        #expect(harness.driver(central).controller?.leACLDataPacketLength == 27)
        let frame = basicFrame(count: 196)
        harness.send(central, frame: frame, handle: centralHandle)
        // Only two buffers: two fragments go at once, the rest wait for credits.
        #expect(harness.sentACL[central.rawValue].count == 2)
        let received = { harness.recorded(peripheral).compactMap { output -> [UInt8]? in
            if case let .l2capFrame(handle, bytes) = output, handle == peripheralHandle { return bytes } else { return nil }
        } }
        #expect(harness.run(for: 2_000_000) { !received().isEmpty })
        #expect(received() == [frame])
        let fragments = harness.sentACL[central.rawValue]
        #expect(fragments.count == 8)
        #expect(fragments.allSatisfy { $0.data.count <= 27 })
        #expect(fragments.dropFirst().allSatisfy { $0.packetBoundary == .continuing })
        #expect(fragments.first?.packetBoundary == .firstNonAutomaticallyFlushable)
        #expect(Array(fragments.map(\.data).joined()) == frame)
        // Had the driver exceeded the two buffers, the controller would have dropped a
        // fragment and the frame above could not have been reassembled.
    }

    @Test("Credits: fragments beyond the buffer count wait, NOCP releases them one by one per handle")
    func creditPacing() {
        var host = ScriptedHost(controller: .typical(bufferLength: 27, bufferCount: 2))
        host.start()
        host.connect(handle: 0x0040)
        _ = host.take()
        let first = host.driver.sendL2CAP(basicFrame(count: 96), handle: 0x0040, at: 0)
        #expect(sentACL(first).map(\.data.count) == [27, 27])
        #expect(host.driver.queuedACLFragments(handle: 0x0040) == 2, "100 octets in 27-octet fragments: 4, two sent")
        #expect(host.driver.queuedACLFragments(handle: 0x0041) == 0)
        #expect(host.driver.receive(.event(HCI.Event.numberOfCompletedPackets(HCI.NumberOfCompletedPackets(entries: [
            .init(connectionHandle: 0x0041, numCompletedPackets: 5),
        ])).packet), at: 1).isEmpty, "credits for a handle with nothing in flight are ignored")
        let one = host.driver.receive(.event(HCI.Event.numberOfCompletedPackets(HCI.NumberOfCompletedPackets(entries: [
            .init(connectionHandle: 0x0040, numCompletedPackets: 1),
        ])).packet), at: 2)
        #expect(sentACL(one).map(\.data.count) == [27])
        let two = host.driver.receive(.event(HCI.Event.numberOfCompletedPackets(HCI.NumberOfCompletedPackets(entries: [
            .init(connectionHandle: 0x0040, numCompletedPackets: 2),
        ])).packet), at: 3)
        #expect(sentACL(two).map(\.data.count) == [19])
        #expect(sentACL(two).first?.packetBoundary == .continuing)
        #expect(host.driver.queuedACLFragments(handle: 0x0040) == 0)
    }

    @Test("Disconnection drops a link's queued fragments, recovers its credits and reports the link lost")
    func disconnectionRecoversCredits() {
        var host = ScriptedHost(controller: .typical(bufferLength: 27, bufferCount: 2))
        host.start()
        host.connect(handle: 1)
        host.connect(handle: 2)
        _ = host.take()
        #expect(sentACL(host.driver.sendL2CAP(basicFrame(count: 96), handle: 1, at: 0)).count == 2)
        #expect(sentACL(host.driver.sendL2CAP(basicFrame(count: 10), handle: 2, at: 0)).isEmpty)
        let done = HCI.Event.disconnectionComplete(HCI.DisconnectionComplete(
            status: .success, connectionHandle: 1, reason: .remoteUserTerminatedConnection))
        let outputs = host.driver.receive(.event(done.packet), at: 1)
        guard outputs.count == 3, case let .linkLost(handle, reason) = outputs[0], case .event(done) = outputs[1] else {
            Issue.record("unexpected outputs \(outputs)")
            return
        }
        #expect(handle == 1)
        #expect(reason == .remoteUserTerminatedConnection)
        // Handle 2's frame goes out on the recovered credits.
        #expect(sentACL(outputs).map(\.connectionHandle) == [2])
        #expect(host.driver.counters.outgoingFragmentsDropped == 2)
        #expect(host.driver.sendL2CAP(basicFrame(count: 4), handle: 1, at: 2).isEmpty)
        #expect(host.driver.counters.outgoingUnknownHandle == 1)
        #expect(host.driver.connectionHandles == [2])
    }

    @Test("Reassembly drops and counts a continuation without start, an unknown handle, an overlong frame and an interrupted one")
    func reassemblyDrops() {
        var host = ScriptedHost(controller: .typical(), configuration: HCIDriverConfiguration(maximumIncomingFrameLength: 1_000))
        host.start()
        host.connect(handle: 3)
        _ = host.take()
        func acl(_ handle: UInt16, _ boundary: HCI.ACLPacket.PacketBoundaryFlag, _ bytes: [UInt8]) -> H4.Packet {
            .acl(HCI.ACLPacket(connectionHandle: handle, packetBoundary: boundary, data: bytes[...]))
        }
        let frame = basicFrame(count: 20)
        #expect(host.driver.receive(acl(3, .continuing, Array(frame[4...])), at: 0).isEmpty)
        #expect(host.driver.counters.continuationWithoutStart == 1)
        #expect(host.driver.receive(acl(9, .firstAutomaticallyFlushable, frame), at: 0).isEmpty)
        #expect(host.driver.counters.unknownHandlePackets == 1)
        // A frame whose pieces run past its L2CAP length.
        #expect(host.driver.receive(acl(3, .firstAutomaticallyFlushable, Array(frame[..<10])), at: 0).isEmpty)
        #expect(host.driver.receive(acl(3, .continuing, Array(frame[10...]) + [0xEE]), at: 0).isEmpty)
        #expect(host.driver.counters.overlongFrames == 1)
        // A frame declaring more than the configured maximum.
        #expect(host.driver.receive(acl(3, .firstAutomaticallyFlushable, [0xE8, 0x03, 0x40, 0x00]), at: 0).isEmpty)
        #expect(host.driver.counters.overlongFrames == 2)
        // A start interrupting an incomplete frame: the old one is counted, the new one completes.
        #expect(host.driver.receive(acl(3, .firstAutomaticallyFlushable, Array(frame[..<1])), at: 0).isEmpty)
        #expect(host.driver.receive(acl(3, .firstAutomaticallyFlushable, Array(frame[..<7])), at: 0).isEmpty)
        #expect(host.driver.counters.incompleteFrames == 1)
        let whole = host.driver.receive(acl(3, .continuing, Array(frame[7...])), at: 0)
        guard case let .l2capFrame(handle, bytes)? = whole.first else {
            Issue.record("expected a frame, got \(whole)")
            return
        }
        #expect(handle == 3)
        #expect(bytes == frame)
    }
}
