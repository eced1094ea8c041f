import BLEController
import BLEWire
import BLEWorld
import Testing

/// New advertising data on a scripted host (a rotating beacon's next frame), in each phase.
@Suite("Scripted host: advertising data that changes")
struct ScriptedHostDataChangeTests {
    static let plan = ScriptedHost.Plan(
        deviceName: "eid", randomAddress: nil,
        parameters: HCI.LESetAdvertisingParameters(advertisingIntervalMin: 0x00A0, advertisingIntervalMax: 0x00A0,
                                                   advertisingType: .nonConnectableUndirected, ownAddressType: .public),
        advertisingData: [0x02, 0x01, 0x06], scanResponseData: nil)

    private func complete(_ opcode: HCI.Opcode) throws -> H4.Packet {
        .event(try HCI.EventPacket(HCI.CommandComplete(numHCICommandPackets: 1, opcode: opcode, returnParameters: [0])))
    }

    /// The host carried through its setup to advertising.
    private func advertising() throws -> ScriptedHost {
        var host = ScriptedHost(plan: Self.plan)
        var packets = host.start()
        while let packet = packets.first, case let .command(command) = packet { packets = host.handle(try complete(command.opcode)) }
        return host
    }

    /// The advertising data of an LE Set Advertising Data packet, if it is one.
    private func data(_ packet: H4.Packet?) -> [UInt8]? {
        guard case let .command(command)? = packet, command.opcode == HCI.LESetAdvertisingData.opcode,
              let decoded = try? HCI.LESetAdvertisingData(decoding: command.parameters) else { return nil }
        return Array(decoded.advertisingData)
    }

    @Test("While advertising, new data goes out at once as LE Set Advertising Data and advertising stays on")
    func whileAdvertising() throws {
        var host = try advertising()
        #expect(host.phase == .advertising)
        let sent = host.setAdvertisingData([0x02, 0x01, 0x04])
        #expect(data(sent.first) == [0x02, 0x01, 0x04])
        #expect(host.handle(try complete(HCI.LESetAdvertisingData.opcode)).isEmpty)
        #expect(host.phase == .advertising)
        #expect(host.plan.advertisingData == [0x02, 0x01, 0x04])
    }

    @Test("Before the host starts, new data only changes the plan, and the setup sends it")
    func beforeStart() throws {
        var host = ScriptedHost(plan: Self.plan)
        #expect(host.setAdvertisingData([0x02, 0x01, 0x05]).isEmpty)
        var packets = host.start()
        var seen: [[UInt8]] = []
        while let packet = packets.first, case let .command(command) = packet {
            if let bytes = data(packet) { seen.append(bytes) }
            packets = host.handle(try complete(command.opcode))
        }
        #expect(seen == [[0x02, 0x01, 0x05]])
    }

    @Test("During the setup, the newest data is sent after the command under way, once")
    func duringSetup() throws {
        var host = ScriptedHost(plan: Self.plan)
        var packets = host.start()
        #expect(host.setAdvertisingData([0x02, 0x01, 0x07]).isEmpty)
        var seen: [[UInt8]] = []
        while let packet = packets.first, case let .command(command) = packet {
            if let bytes = data(packet) { seen.append(bytes) }
            packets = host.handle(try complete(command.opcode))
        }
        #expect(seen == [[0x02, 0x01, 0x07]])
        #expect(host.phase == .advertising)
    }
}
