import BLEController
import BLEWire
import BLEWorld
import Testing

/// Connection data over airtime-free ideal links (``ControllerConfiguration/airtimeFreeData``):
/// straight from one controller to the other, still through both controllers' HCI, LE ACL
/// buffers, Number Of Completed Packets and fragmentation to the negotiated data length
/// (Core 5.4, Vol 4, Part E, §4.1.1, §5.4.2; Vol 6, Part B, §4.5.10).
@Suite("Airtime-free ideal links in the world")
struct WorldDirectLinkTests {
    static let peripheralAddress: UInt64 = 0xF0_00_00_00_00_11

    /// Two controllers connected at 7.5 ms in an ideal world; the peripheral's data length
    /// raised to `peripheralTxOctets` when given.
    static func connected(airtimeFree: Bool, peripheralTxOctets: UInt16? = nil) throws
        -> (hosted: HostedWorld, central: DeviceID, peripheral: DeviceID, handles: (central: UInt16, peripheral: UInt16)) {
        let hosted = HostedWorld(seed: 5, timing: .ideal, capturesHCI: false)
        let peripheral = hosted.add("peripheral", at: Vector3(x: 0, y: 0), address: peripheralAddress, seed: 1, airtimeFreeData: airtimeFree)
        let central = hosted.add("central", at: Vector3(x: 1, y: 0), address: 0xF0_00_00_00_00_12, seed: 2, airtimeFreeData: airtimeFree)
        hosted.advertise(peripheral, interval: 32)
        let handles = try #require(hosted.connect(central, to: peripheral, address: peripheralAddress, interval: 6))
        if let octets = peripheralTxOctets {
            hosted.command(peripheral, HCI.LESetDataLength(connectionHandle: handles.peripheral, txOctets: octets, txTime: 2120))
            hosted.world.run(until: hosted.world.now + 200_000)
        }
        return (hosted, central, peripheral, handles)
    }

    /// Completed packets `device`'s host was told of for `handle`, after event `since`.
    static func completed(_ hosted: HostedWorld, _ device: DeviceID, handle: UInt16, since: Int) -> [Int] {
        hosted.events[device.rawValue][since...].flatMap { item -> [Int] in
            guard case let .numberOfCompletedPackets(done) = item.event else { return [] }
            return done.entries.filter { $0.connectionHandle == handle }.map { Int($0.numCompletedPackets) }
        }
    }

    @Test("a host keeping its 8 buffers full gets 40 packets to the peer's host in order, at the moment it sends, completed four (half the buffers) to an event")
    func inOrderNoneLostNoAirtime() throws {
        let (hosted, central, peripheral, handles) = try Self.connected(airtimeFree: true, peripheralTxOctets: 251)
        let start = hosted.world.now
        let eventsBefore = hosted.events[peripheral.rawValue].count
        let aclBefore = hosted.acl[central.rawValue].count
        let total = 40
        var sent = 0
        var credits = 8
        func pump() {
            while credits > 0, sent < total {
                credits -= 1
                let payload = [UInt8](repeating: UInt8(sent), count: 251)
                sent += 1
                hosted.world.sendToController(.acl(HCI.ACLPacket(
                    connectionHandle: handles.peripheral, packetBoundary: .firstNonAutomaticallyFlushable, data: payload[...])),
                    device: peripheral)
            }
        }
        hosted.onEvent = { device, event in
            guard device == peripheral, case let .numberOfCompletedPackets(done) = event else { return }
            credits += done.entries.reduce(0) { $0 + Int($1.numCompletedPackets) }
            pump()
        }
        pump()
        // Only what is due now: the data needs no connection event.
        hosted.world.run(until: start)
        let received = hosted.acl[central.rawValue][aclBefore...]
        #expect(received.count == total)
        #expect(received.map { $0.packet.data.first ?? 0xFF } == (0 ..< total).map(UInt8.init))
        #expect(received.allSatisfy { $0.packet.data.count == 251 && Set($0.packet.data).count == 1 })
        #expect(received.allSatisfy { $0.at == start && $0.packet.connectionHandle == handles.central })
        #expect(received.allSatisfy { $0.packet.packetBoundary == .firstAutomaticallyFlushable })
        let completions = Self.completed(hosted, peripheral, handle: handles.peripheral, since: eventsBefore)
        #expect(completions == Array(repeating: 4, count: total / 4))
        #expect(credits == 8)
    }

    @Test("a packet longer than the negotiated data length reaches the peer's host cut into 27-octet PDUs: start, then continuations")
    func fragmentsToDataLength() throws {
        let (hosted, central, peripheral, handles) = try Self.connected(airtimeFree: true)
        let start = hosted.world.now
        let eventsBefore = hosted.events[central.rawValue].count
        let aclBefore = hosted.acl[peripheral.rawValue].count
        let payload = (0 ..< 100).map { UInt8($0) }
        hosted.world.sendToController(.acl(HCI.ACLPacket(
            connectionHandle: handles.central, packetBoundary: .firstNonAutomaticallyFlushable, data: payload[...])), device: central)
        hosted.world.run(until: start)
        let received = hosted.acl[peripheral.rawValue][aclBefore...].map(\.packet)
        #expect(received.map(\.data.count) == [27, 27, 27, 19])
        #expect(received.map(\.packetBoundary) == [.firstAutomaticallyFlushable, .continuing, .continuing, .continuing])
        #expect(received.flatMap(\.data) == payload)
        // Fewer than half the buffers completed: reported 1 µs later, not at once.
        #expect(Self.completed(hosted, central, handle: handles.central, since: eventsBefore).isEmpty)
        hosted.world.run(until: start + 1)
        #expect(Self.completed(hosted, central, handle: handles.central, since: eventsBefore) == [1])
    }

    @Test("three packets then a pause: their completions come in one event 1 µs after the first, and the next burst starts a new count")
    func lateCompletionsAreReported() throws {
        let (hosted, central, _, handles) = try Self.connected(airtimeFree: true)
        let eventsBefore = hosted.events[central.rawValue].count
        func send(_ count: Int) {
            for index in 0 ..< count {
                let payload = [UInt8](repeating: UInt8(index), count: 20)
                hosted.world.sendToController(.acl(HCI.ACLPacket(
                    connectionHandle: handles.central, packetBoundary: .firstNonAutomaticallyFlushable, data: payload[...])), device: central)
            }
        }
        let start = hosted.world.now
        send(3)
        hosted.world.run(until: start)
        #expect(Self.completed(hosted, central, handle: handles.central, since: eventsBefore).isEmpty)
        hosted.world.run(until: start + 1)
        #expect(Self.completed(hosted, central, handle: handles.central, since: eventsBefore) == [3])
        send(5)
        hosted.world.run(until: hosted.world.now + 1)
        #expect(Self.completed(hosted, central, handle: handles.central, since: eventsBefore) == [3, 4, 1])
    }

    @Test("without the setting, an ideal world's data still waits for a connection event")
    func airtimeWithoutTheSetting() throws {
        let (hosted, central, peripheral, handles) = try Self.connected(airtimeFree: false)
        let start = hosted.world.now
        let aclBefore = hosted.acl[peripheral.rawValue].count
        let payload = [UInt8](repeating: 0x42, count: 20)
        hosted.world.sendToController(.acl(HCI.ACLPacket(
            connectionHandle: handles.central, packetBoundary: .firstNonAutomaticallyFlushable, data: payload[...])), device: central)
        hosted.world.run(until: start)
        #expect(hosted.acl[peripheral.rawValue].count == aclBefore)
        hosted.world.run(until: start + 20_000)
        let received = hosted.acl[peripheral.rawValue][aclBefore...]
        #expect(received.map(\.packet.data) == [payload[...]])
        #expect(received.allSatisfy { $0.at > start })
    }

    @Test("while encryption starts, data waits in the controller's 8 buffers (a ninth is refused), then arrives in order; later data goes direct again")
    func backPressureWhileDataMustWait() throws {
        let (hosted, central, peripheral, handles) = try Self.connected(airtimeFree: true)
        hosted.command(central, HCI.LEEnableEncryption(
            connectionHandle: handles.central, randomNumber: 1, encryptedDiversifier: 2, longTermKey: 0x1234))
        let eventsBefore = hosted.events[central.rawValue].count
        let aclBefore = hosted.acl[peripheral.rawValue].count
        // The encryption procedure pauses data (Core 5.4, Vol 6, Part B, §5.1.3.1): nothing
        // may take the direct path past it, so the buffers fill and the ninth packet is
        // beyond the host's credits.
        for index in 0 ..< 9 {
            let payload = [UInt8](repeating: UInt8(index), count: 20)
            hosted.world.sendToController(.acl(HCI.ACLPacket(
                connectionHandle: handles.central, packetBoundary: .firstNonAutomaticallyFlushable, data: payload[...])), device: central)
        }
        hosted.world.run(until: hosted.world.now)
        #expect(hosted.acl[peripheral.rawValue].count == aclBefore)
        #expect(Self.completed(hosted, central, handle: handles.central, since: eventsBefore).isEmpty)
        hosted.world.run(until: hosted.world.now + 200_000)
        hosted.command(peripheral, HCI.LELongTermKeyRequestReply(connectionHandle: handles.peripheral, longTermKey: 0x1234))
        hosted.world.run(until: hosted.world.now + 500_000)
        let received = hosted.acl[peripheral.rawValue][aclBefore...]
        #expect(received.map { $0.packet.data.first ?? 0xFF } == (0 ..< 8).map(UInt8.init))
        #expect(Self.completed(hosted, central, handle: handles.central, since: eventsBefore).reduce(0, +) == 8)
        // With nothing left on the air, the next packet goes straight to the peer again.
        let after = hosted.world.now
        let last = [UInt8](repeating: 0xEE, count: 20)
        hosted.world.sendToController(.acl(HCI.ACLPacket(
            connectionHandle: handles.central, packetBoundary: .firstNonAutomaticallyFlushable, data: last[...])), device: central)
        hosted.world.run(until: after)
        #expect(hosted.acl[peripheral.rawValue].last.map { $0.packet.data == last[...] && $0.at == after } == true)
    }
}
