import BLEController
import BLEWire
import Testing

/// Two real controllers, driven only through HCI as a host drives a chip: connect, carry
/// L2CAP data both ways, encrypt, and disconnect (Core 5.4, Vol 6, Part B, §4.5 and §5.1).
@Suite("Connections through the HCI surface")
struct ConnectionThroughControllerTests {
    static let longTermKey: UInt128 = 0x4C68_3840_8C9F_1A0B_6E2E_1D7A_2E7F_5D13

    /// An L2CAP B-frame on the ATT channel of `count` octets, as one HCI ACL packet.
    static func frame(_ count: Int, seed: UInt8, handle: UInt16) -> HCI.ACLPacket {
        let payload = (0 ..< count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ Int(seed)) }
        let frame = L2CAP.BasicFrame(channelIdentifier: .attributeProtocol, payload: payload[...]).encoded()
        return HCI.ACLPacket(connectionHandle: handle, packetBoundary: .firstNonAutomaticallyFlushable, data: frame[...])
    }

    /// The L2CAP frames a host reassembles from its ACL packets.
    static func reassemble(_ packets: [HCI.ACLPacket]) -> [[UInt8]] {
        var frames: [[UInt8]] = []
        for packet in packets {
            if packet.packetBoundary == .continuing, !frames.isEmpty {
                frames[frames.count - 1] += packet.data
            } else {
                frames.append(Array(packet.data))
            }
        }
        return frames
    }

    static func events(_ air: TestAir, _ index: Int) -> [HCI.Event] { air.devices[index].events.map(\.event) }

    /// Read Encryption Key Size's answer on `handle`.
    static func keySize(_ air: inout TestAir, _ index: Int, _ handle: UInt16) throws -> HCI.ReadEncryptionKeySize.ReturnParameters {
        guard case let .commandComplete(complete)? = air.command(index, HCI.ReadEncryptionKeySize(connectionHandle: handle)).first else {
            throw WireError(field: "Read Encryption Key Size", reason: .truncated(needed: 1, available: 0))
        }
        return try complete.returnParameters(for: HCI.ReadEncryptionKeySize.self)
    }

    @Test("Data crosses both ways byte-exact, encryption starts with a shared key, and disconnect reaches both hosts")
    func connectEncryptTalkDisconnect() throws {
        var air = TestAir()
        let peripheral = air.add(address: 0xF0_00_00_00_00_01, seed: 11)
        let central = air.add(address: 0xF0_00_00_00_00_02, seed: 12)
        air.startAdvertising(peripheral)
        air.command(central, TestAir.createConnection(to: air.address(peripheral)))
        air.run(until: 300_000)
        let centralHandle = try #require(air.connectionCompletes(central).first).connectionHandle
        let peripheralHandle = try #require(air.connectionCompletes(peripheral).first).connectionHandle

        // 200 octets each way: several LL PDUs at the default 27-octet data length.
        let toPeripheral = Self.frame(200, seed: 1, handle: centralHandle)
        let toCentral = Self.frame(200, seed: 2, handle: peripheralHandle)
        air.input(central, .hci(.acl(toPeripheral)))
        air.input(peripheral, .hci(.acl(toCentral)))
        air.run(until: air.now + 500_000)
        #expect(Self.reassemble(air.devices[peripheral].acl) == [Array(toPeripheral.data)])
        #expect(Self.reassemble(air.devices[central].acl) == [Array(toCentral.data)])
        let completed = Self.events(air, central).contains {
            if case let .numberOfCompletedPackets(event) = $0 { return !event.entries.isEmpty }
            return false
        }
        #expect(completed, "the central's host gets its buffer back")

        // No key size before encryption (Insufficient Security, Vol 4, Part E, §7.5.7).
        #expect(try Self.keySize(&air, central, centralHandle).status == .insufficientSecurity)

        // Encryption: the central's host starts it; the peripheral's host supplies the key.
        air.command(central, HCI.LEEnableEncryption(
            connectionHandle: centralHandle, randomNumber: 0x1234, encryptedDiversifier: 0x5678, longTermKey: Self.longTermKey))
        air.run(until: air.now + 200_000)
        let request = Self.events(air, peripheral).compactMap { event -> HCI.LELongTermKeyRequest? in
            if case let .leMeta(.longTermKeyRequest(request)) = event { return request }
            return nil
        }.first
        #expect(request?.randomNumber == 0x1234)
        #expect(request?.encryptedDiversifier == 0x5678)
        air.command(peripheral, HCI.LELongTermKeyRequestReply(connectionHandle: peripheralHandle, longTermKey: Self.longTermKey))
        air.run(until: air.now + 300_000)
        for side in [central, peripheral] {
            let change = Self.events(air, side).compactMap { event -> HCI.EncryptionChange? in
                if case let .encryptionChange(change) = event { return change }
                return nil
            }.last
            #expect(change?.status == .success, "side \(side)")
            #expect(change?.encryptionEnabled == .on, "side \(side)")
        }
        for (side, handle) in [(central, centralHandle), (peripheral, peripheralHandle)] {
            let size = try Self.keySize(&air, side, handle)
            #expect(size.status == .success, "side \(side)")
            #expect(size.keySize == 16, "side \(side): the whole 128-bit LTK")
        }

        // Encrypted data still arrives intact.
        air.devices[peripheral].acl.removeAll()
        let secret = Self.frame(120, seed: 9, handle: centralHandle)
        air.input(central, .hci(.acl(secret)))
        air.run(until: air.now + 300_000)
        #expect(Self.reassemble(air.devices[peripheral].acl) == [Array(secret.data)])

        // Disconnect: local reason 0x16 at the central, the reason sent at the peripheral.
        air.command(central, HCI.Disconnect(connectionHandle: centralHandle, reason: .remoteUserTerminatedConnection))
        air.run(until: air.now + 500_000)
        let reasons = [central, peripheral].map { side in
            Self.events(air, side).compactMap { event -> HCI.StatusCode? in
                if case let .disconnectionComplete(done) = event { return done.reason }
                return nil
            }
        }
        #expect(reasons[0] == [.connectionTerminatedByLocalHost])
        #expect(reasons[1] == [.remoteUserTerminatedConnection])
    }
}

@Suite("Channel map update from the host's classification")
struct HostChannelClassificationTests {
    @Test("After LE Set Host Channel Classification the link hops only on the classified channels and data still flows")
    func classifiedChannels() throws {
        var air = TestAir()
        let peripheral = air.add(address: 0xF0_00_00_00_00_01, seed: 31)
        let central = air.add(address: 0xF0_00_00_00_00_02, seed: 32)
        air.startAdvertising(peripheral)
        air.command(central, TestAir.createConnection(to: air.address(peripheral)))
        air.run(until: 300_000)
        let centralHandle = try #require(air.connectionCompletes(central).first).connectionHandle

        let allowed: UInt64 = 0x3FF // data channels 0–9
        let answer = air.command(central, HCI.LESetHostChannelClassification(channelMap: HCI.LEChannelMap(rawValue: allowed)))
        #expect(answer.first?.commandResult?.status == 0)
        // The instant is at least six events ahead (30 ms each here); allow a few more.
        air.run(until: air.now + 1_000_000)
        let switched = air.now
        air.input(central, .hci(.acl(ConnectionThroughControllerTests.frame(150, seed: 4, handle: centralHandle))))
        air.run(until: switched + 2_000_000)

        let dataChannels = air.log.filter { $0.transmission.start >= switched && $0.transmission.channel < 37 }.map(\.transmission.channel)
        #expect(dataChannels.count > 50)
        #expect(dataChannels.allSatisfy { allowed >> UInt64($0) & 1 == 1 }, "channels used: \(Set(dataChannels).sorted())")
        #expect(Set(dataChannels).count > 5, "the link still hops")
        #expect(ConnectionThroughControllerTests.reassemble(air.devices[peripheral].acl).last?.count == 154)
        let read = air.command(central, HCI.LEReadChannelMap(connectionHandle: centralHandle))
        guard case let .commandComplete(done)? = read.first else {
            Issue.record("no answer to LE Read Channel Map")
            return
        }
        let map = try HCI.LEReadChannelMap.ReturnParameters(decoding: done.returnParameters)
        #expect(map.channelMap.rawValue == allowed)
    }
}
