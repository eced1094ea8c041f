@testable import BLEHost
import BLEWire
import Testing

/// Each bound of docs/limits.md met by a peer: the peer gets the specified answer and the
/// structure does not grow past its limit.
@Suite("Resource limits against a hostile peer")
struct ResourceLimitTests {
    @Test("An SDU Length of 65,535 on a channel with MTU 512 closes the channel and buffers nothing")
    func sduLengthAnnouncedAt65535() throws {
        var pair = L2CAPLinkPair()
        let victim = try pair.openChannel(psm: 0x0080)
        let peerCID = try #require(pair.central.channelStatus(victim.central)?.remoteCID)
        let channelsBefore = pair.peripheral.channels.count
        // First K-frame: SDU Length 0xFFFF, then 62 octets; MPS 64 allows the frame itself.
        let first = [0xFF, 0xFF] + [UInt8](repeating: 0xEE, count: 62)
        pair.run(.peripheral) { link, now in link.receive(frame: bFrame(peerCID.rawValue, first), at: now) }
        #expect(pair.takeEvents(.peripheral) == [.channelClosed(victim.peripheral, reason: .sduExceedsMTU)])
        // The Disconnection Request went out and was answered: the channel is gone (§3.4.3).
        #expect(pair.peripheral.channels.count == channelsBefore - 1)
        #expect(pair.peripheral.channelStatus(victim.peripheral) == nil)
        // More K-frames for the closed CID are dropped and counted, not buffered.
        let dropped = pair.peripheral.counters.unknownCIDFramesDropped
        for _ in 0 ..< 100 {
            pair.run(.peripheral) { link, now in link.receive(frame: bFrame(peerCID.rawValue, [UInt8](repeating: 1, count: 64)), at: now) }
        }
        #expect(pair.peripheral.counters.unknownCIDFramesDropped == dropped + 100)
        #expect(pair.peripheral.channels.count == channelsBefore - 1)
    }

    @Test("A 65th credit-based channel is refused: the 64 dynamic CIDs are all the channels a link holds")
    func channelsPerLink() {
        var link = L2CAPLink(handle: 1, role: .peripheral)
        link.listen(psm: 0x0080, mtu: 100, mps: 50, initialCredits: 4)
        func request(_ id: UInt8, cid: UInt16) -> [UInt8] {
            bFrame(5, [0x14, id, 0x0A, 0x00, 0x80, 0x00, UInt8(cid & 0xFF), UInt8(cid >> 8), 100, 0, 50, 0, 0x01, 0x00])
        }
        func result(_ outputs: [L2CAPOutput]) -> UInt16? {
            guard let frame = sentFrames(outputs).first, frame.count == 18 else { return nil }
            return UInt16(frame[16]) | UInt16(frame[17]) << 8
        }
        for (index, cid) in L2CAP.ChannelIdentifier.leDynamicRange.enumerated() {
            #expect(result(link.receive(frame: request(UInt8(index % 255 + 1), cid: cid), at: 0)) == 0x0000)
        }
        #expect(link.channels.count == 64)
        // Every source CID the peer may use is taken: a repeat is refused (0x000A) and our
        // own CIDs are exhausted too, so nothing more is allocated.
        #expect(result(link.receive(frame: request(0x80, cid: 0x0040), at: 0)) == 0x000A)
        #expect(link.allocateLocalCID() == nil)
        #expect(link.channels.count == 64)
    }

    @Test("Prepare Write past 64 queued parts gets Prepare Queue Full (0x09) and the queue stays at 64")
    func prepareQueueFull() throws {
        var server = try GATTFixture.server()
        let limit = server.configuration.prepareQueueLimit
        #expect(limit == 64)
        for index in 0 ..< limit {
            let request = ATT.PrepareWriteRequest(attributeHandle: 0x1A, valueOffset: UInt16(index), partAttributeValue: [UInt8(index)][...])
            #expect(server.handle(request.encoded(), from: 0x40, security: .unencrypted).sentPDUs.first?.first == 0x17)
        }
        for index in 0 ..< 10 {
            let request = ATT.PrepareWriteRequest(attributeHandle: 0x1A, valueOffset: UInt16(limit + index), partAttributeValue: [0xFF][...])
            #expect(server.handle(request.encoded(), from: 0x40, security: .unencrypted).sentPDUs == [hex("01 16 1A00 09")])
        }
        #expect(server.clients[0x40]?.prepareQueue.count == limit)
        // The queue is per client: another client still has room, and a disconnection
        // forgets the first one's queue.
        #expect(server.answer("16 1A00 0000 01", from: 0x41) == hex("17 1A00 0000 01"))
        _ = server.disconnected(0x40)
        #expect(server.clients[0x40] == nil)
    }

    @Test("An ACL frame announced past the maximum is dropped at its first fragment and holds no buffer")
    func reassemblyPastMaximum() {
        var reassembly = ACLReassembly()
        reassembly.maximumFrameLength = 4 + 517
        let announced: [UInt8] = [0xFF, 0xFF, 0x04, 0x00] + [UInt8](repeating: 0, count: 23)
        #expect(reassembly.receive(HCI.ACLPacket(connectionHandle: 1, packetBoundary: .firstAutomaticallyFlushable, data: announced[...])) == .overlong)
        #expect(reassembly.framesInProgress.count == 0)
        for _ in 0 ..< 100 {
            let more = [UInt8](repeating: 0xAA, count: 27)
            #expect(reassembly.receive(HCI.ACLPacket(connectionHandle: 1, packetBoundary: .continuing, data: more[...])) == .continuationWithoutStart)
        }
        #expect(reassembly.framesInProgress.count == 0)
        #expect(reassembly.framesInProgress.octets == 0)
    }

    @Test("Reassembly holds one frame per handle: a peer restarting frames never stacks buffers")
    func reassemblyOneFramePerHandle() {
        var reassembly = ACLReassembly()
        for _ in 0 ..< 50 {
            let start: [UInt8] = [0xFF, 0xFF, 0x04, 0x00] + [UInt8](repeating: 0, count: 23)
            #expect(reassembly.receive(HCI.ACLPacket(connectionHandle: 7, packetBoundary: .firstAutomaticallyFlushable, data: start[...])) == .incomplete)
        }
        #expect(reassembly.framesInProgress.count == 1)
        #expect(reassembly.framesInProgress.octets == 27)
        #expect(reassembly.abandoned == 49)
        reassembly.disconnected(7)
        #expect(reassembly.framesInProgress.count == 0)
    }

    @Test("The scan filter remembers at most its capacity of devices, forgetting the least recently heard")
    func scanCacheCapacity() {
        var filter = GAPAdvertisementFilter(allowDuplicates: false, serviceUUIDs: [])
        filter.capacity = 64
        func report(_ address: UInt64) -> HCI.LEAdvertisingReport.Report {
            HCI.LEAdvertisingReport.Report(eventType: .advNonconnInd, addressType: .random,
                                           address: BluetoothAddress(address, kind: .random), data: [0x02, 0x01, 0x06][...], rssi: -50)
        }
        // A device heard throughout stays remembered (reported once) while 1,000 private
        // addresses, each heard once, pass through.
        var steadyReports = 0
        for address in UInt64(1) ... 1_000 {
            if filter.add(report(0xC0_00_00_00_00_00), at: HostTime(address)) != nil { steadyReports += 1 }
            #expect(filter.add(report(address), at: HostTime(address)) != nil)
            #expect(filter.rememberedDevices <= 64)
        }
        #expect(steadyReports == 1)
        #expect(filter.forgottenDevices > 0)
        #expect(filter.rememberedDevices + filter.forgottenDevices == 1_001)
        // A forgotten device is reported again as new when next heard.
        #expect(filter.add(report(1), at: 2_000) != nil)
    }

    @Test("The repeated-attempts table remembers at most 64 peers, forgetting the oldest failure")
    func pairingAttemptPeers() {
        var tracker = SMPAttemptTracker()
        for index in 0 ..< 1_000 {
            tracker.recordFailure(BluetoothAddress(UInt64(0xC000_0000_0000 + index), kind: .random), at: HostTime(index) * 1_000)
            #expect(tracker.trackedPeerCount <= 64)
        }
        #expect(tracker.trackedPeerCount == 64)
        #expect(tracker.forgottenPeers == 1_000 - 64)
        // The most recent failures are still refused; the oldest are forgotten.
        #expect(tracker.isBlocked(BluetoothAddress(0xC000_0000_0000 + 999, kind: .random), at: 999_500))
        #expect(!tracker.isBlocked(BluetoothAddress(0xC000_0000_0000, kind: .random), at: 999_500))
    }

    @Test("A bond store kept at most N bonds evicts the least recently updated; replacing a bond evicts none")
    func bondStoreMaximum() {
        var store = BondStore()
        func bond(_ index: Int, updated: Int64) -> BondRecord {
            BondRecord(identityAddress: BluetoothAddress(UInt64(0x1000 + index)), peerIdentifier: "P\(index)",
                       securityLevel: .unauthenticated, created: updated, updated: updated)
        }
        for index in 0 ..< 10 {
            #expect(store.insert(bond(index, updated: Int64(100 + index)), keepingAtMost: 4).count == (index < 4 ? 0 : 1))
            #expect(store.records.count <= 4)
        }
        #expect(store.sortedRecords.map(\.peerIdentifier) == ["P6", "P7", "P8", "P9"])
        #expect(store.insert(bond(6, updated: 500), keepingAtMost: 4).isEmpty)
        let evicted = store.insert(bond(42, updated: 600), keepingAtMost: 4)
        #expect(evicted.map(\.peerIdentifier) == ["P7"])
        #expect(store.records.count == 4)
    }
}
