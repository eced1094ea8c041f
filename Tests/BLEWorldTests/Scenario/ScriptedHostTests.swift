import BLEController
import BLEWire
import BLEWorld
import Testing

@Suite("Scripted host")
struct ScriptedHostTests {
    /// A scannable random-address device: the longest sequence.
    static let plan = ScriptedHost.Plan(
        deviceName: "bulb", randomAddress: BluetoothAddress(0xC1_22_33_44_55_66, kind: .random),
        parameters: HCI.LESetAdvertisingParameters(advertisingIntervalMin: 0x00A0, advertisingIntervalMax: 0x00A0,
                                                   advertisingType: .connectableUndirected, ownAddressType: .random),
        advertisingData: [0x02, 0x01, 0x06], scanResponseData: [0x03, 0x09, 0x48, 0x69])

    /// The expected commands, as H4 bytes (Core 5.4, Vol 4, Part E, §7.3.2, §7.3.1, §7.8.4,
    /// §7.8.5, §7.8.7, §7.8.8, §7.8.9), recorded once and checked by hand against the spec.
    static let expected = [
        "01030c00",
        "01010c08" + "9080000000000020",
        "01052006" + "66554433 22c1",
        "0106200f" + "a000 a000 00 01 00 000000000000 07 00",
        "01082020" + "03 020106" + String(repeating: "00", count: 28),
        "01092020" + "04 03094869" + String(repeating: "00", count: 27),
        "010a2001" + "01",
    ].map { $0.replacingOccurrences(of: " ", with: "") }

    private func complete(_ opcode: HCI.Opcode, status: UInt8 = 0) throws -> H4.Packet {
        .event(try HCI.EventPacket(HCI.CommandComplete(numHCICommandPackets: 1, opcode: opcode, returnParameters: [status])))
    }

    private func commandBytes(_ packets: [H4.Packet]) -> [String] { packets.map { Hex.encode($0.encoded()) } }

    @Test("It sends one command at a time and waits for each Command Complete")
    func sequence() throws {
        var host = ScriptedHost(plan: Self.plan)
        var sent = commandBytes(host.start())
        #expect(sent == [Self.expected[0]])
        while case let .waiting(opcode) = host.phase {
            let next = host.handle(try complete(opcode))
            sent += commandBytes(next)
            if next.isEmpty { break }
        }
        #expect(sent == Self.expected)
        #expect(host.phase == .advertising)
    }

    @Test("A public-address beacon skips the random address and the scan response")
    func beacon() throws {
        var plan = Self.plan
        plan.randomAddress = nil
        plan.scanResponseData = nil
        plan.parameters.ownAddressType = .public
        plan.parameters.advertisingType = .nonConnectableUndirected
        var host = ScriptedHost(plan: plan)
        var opcodes: [UInt16] = []
        var packets = host.start()
        while let packet = packets.first, case let .command(command) = packet {
            opcodes.append(command.opcode.rawValue)
            packets = host.handle(try complete(command.opcode))
        }
        #expect(opcodes == [0x0C03, 0x0C01, 0x2006, 0x2008, 0x200A])
        #expect(host.phase == .advertising)
    }

    @Test("A refused command stops the sequence and is reported with device, opcode and status")
    func failure() throws {
        var host = ScriptedHost(plan: Self.plan)
        var packets = host.start()
        while let packet = packets.first, case let .command(command) = packet {
            let status: UInt8 = command.opcode.rawValue == 0x2006 ? 0x12 : 0x00
            packets = host.handle(try complete(command.opcode, status: status))
        }
        let failure = try #require(host.failure)
        #expect(failure.opcode.rawValue == 0x2006)
        #expect(failure.status == .invalidHCICommandParameters)
        #expect(failure.description.contains("\"bulb\""))
        #expect(failure.description.contains("0x2006"))
        #expect(host.handle(try complete(HCI.Opcode(rawValue: 0x2008))).isEmpty)
    }

    @Test("Stopping and starting advertising sends LE Set Advertising Enable 0 then 1")
    func toggling() throws {
        var host = try advertisingHost()
        #expect(commandBytes(host.setAdvertisingEnabled(false)) == ["010a200100"])
        #expect(host.handle(try complete(HCI.Opcode(rawValue: 0x200A))).isEmpty)
        #expect(host.phase == .stopped)
        #expect(host.setAdvertisingEnabled(false).isEmpty)
        #expect(commandBytes(host.setAdvertisingEnabled(true)) == ["010a200101"])
        _ = host.handle(try complete(HCI.Opcode(rawValue: 0x200A)))
        #expect(host.phase == .advertising)
    }

    @Test("Advertising is enabled again when a connection ends")
    func readvertise() throws {
        var host = try advertisingHost()
        let connection = HCI.LEConnectionComplete(
            status: .success, connectionHandle: 1, role: .peripheral, peerAddressType: .public,
            peerAddress: BluetoothAddress(0x11_22_33_44_55_66), connectionInterval: 24, peripheralLatency: 0,
            supervisionTimeout: 72, centralClockAccuracy: .ppm500)
        #expect(host.handle(.event(try HCI.EventPacket(leMeta: connection))).isEmpty)
        #expect(host.phase == .connected)
        let disconnection = HCI.DisconnectionComplete(status: .success, connectionHandle: 1, reason: .remoteUserTerminatedConnection)
        #expect(commandBytes(host.handle(.event(try HCI.EventPacket(disconnection)))) == ["010a200101"])
    }

    @Test("Unrelated events and Command Completes for other opcodes are ignored")
    func unrelated() throws {
        var host = ScriptedHost(plan: Self.plan)
        _ = host.start()
        #expect(host.handle(try complete(HCI.Opcode(rawValue: 0x2008))).isEmpty)
        #expect(host.handle(try complete(HCI.Opcode(rawValue: 0x0000))).isEmpty)
        #expect(host.phase == .waiting(HCI.Opcode(rawValue: 0x0C03)))
    }

    private func advertisingHost() throws -> ScriptedHost {
        var host = ScriptedHost(plan: Self.plan)
        var packets = host.start()
        while let packet = packets.first, case let .command(command) = packet {
            packets = host.handle(try complete(command.opcode))
        }
        #expect(host.phase == .advertising)
        return host
    }
}
