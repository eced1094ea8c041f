@testable import BLEHost
import BLEWire
import BLEWorld
import SimulatedTesting
import Synchronization
import Testing

/// The opcodes of the commands one host sent, in order.
final class SentOpcodes: Sendable {
    private let opcodes = Mutex<[HCI.Opcode]>([])

    /// Keeps `record`'s opcode when it is a command the host sent.
    func record(_ record: HostPacketRecord) {
        guard record.outgoing, case let .command(command) = record.packet else { return }
        opcodes.withLock { $0.append(command.opcode) }
    }

    /// Every opcode sent so far.
    var all: [HCI.Opcode] { opcodes.withLock { $0 } }
}

/// Our hosts on controllers that claim LE Extended Advertising and the extended commands
/// (``ControllerConfiguration/claimsExtendedAdvertising``): every plain request goes out in
/// the extended family (Core 5.4, Vol 4, Part E, §3.1.1), and what the apps see is what they
/// see on a legacy controller.
@Suite("Our hosts in the extended command family", .simulated, .serialized, .timeLimit(.minutes(5)))
struct ExtendedFamilyHostTests {
    /// The advertising, scanning and initiating commands of each family that plain requests send.
    static let legacyFamily: Set<HCI.Opcode> = [
        HCI.LESetAdvertisingParameters.opcode, HCI.LESetAdvertisingData.opcode, HCI.LESetScanResponseData.opcode,
        HCI.LESetAdvertisingEnable.opcode, HCI.LESetScanParameters.opcode, HCI.LESetScanEnable.opcode, HCI.LECreateConnection.opcode,
    ]
    static let extendedFamily: Set<HCI.Opcode> = [
        HCI.LESetExtendedAdvertisingParameters.opcode, HCI.LESetExtendedAdvertisingData.opcode,
        HCI.LESetExtendedScanResponseData.opcode, HCI.LESetExtendedAdvertisingEnable.opcode,
        HCI.LESetExtendedScanParameters.opcode, HCI.LESetExtendedScanEnable.opcode, HCI.LEExtendedCreateConnection.opcode,
    ]

    /// Two started hosts (peripheral, central) on an ideal-timing world at 20× speed whose
    /// controllers claim the extended family or not, with the commands each sends.
    struct Pair {
        let running: RunningWorld
        let peripheral: Host
        let central: Host
        let sent: [SentOpcodes]

        init(claiming: Bool) async throws {
            var scenario = Scenario(name: "empty").addingExternalDevices(2)
            scenario.timing = .ideal
            running = try RunningWorld(scenario, speed: 20, capturesHCI: false, claimsExtendedAdvertising: claiming)
            let sent = [SentOpcodes(), SentOpcodes()]
            let hosts = zip(running.transports, sent).map { transport, opcodes in
                Host(transport: transport, configuration: .patient, onPacket: { opcodes.record($0) })
            }
            (peripheral, central, self.sent) = (hosts[0], hosts[1], sent)
            for host in hosts { _ = try await host.start() }
        }

        /// The central connected to the peripheral's advertising, with the peripheral's link.
        func connect(_ peripheralEvents: AsyncStream<GAPEvent>) async throws -> (central: GAPConnection, peripheral: GAPConnection) {
            let link = try await central.connect(GAPConnectRequest(peer: running.addresses[0], timeout: 60_000_000))
            let up = try await firstElement(of: peripheralEvents, within: patience) {
                if case .connected = $0 { return true } else { return false }
            }
            guard case let .connected(peripheralLink) = up else { throw TimedOut() }
            return (link, peripheralLink)
        }

        func close() async {
            await central.close()
            await peripheral.close()
            await running.stop()
        }
    }

    @Test("Two hosts scan (scan response merged), connect, pair and read an encryption-required value, in the family their controllers claim",
          arguments: [false, true])
    func scanConnectPairRead(claiming: Bool) async throws {
        let pair = try await Pair(claiming: claiming)
        let (peripheral, central) = (pair.peripheral, pair.central)
        #expect(await central.gap.commandFamily == (claiming ? .extended : .legacy))
        #expect(await peripheral.gap.commandFamily == (claiming ? .extended : .legacy))
        let database = try await peripheral.publishGATT(HostPairingTests.protectedService())
        let response = AdvertisingData([.completeLocalName("Family")])
        try await peripheral.startAdvertising(GAPAdvertisingParameters(
            intervalMin: 32, intervalMax: 32, data: AdvertisingData([.flags([.leGeneralDiscoverable])]), scanResponse: response))
        let reports = try await central.startScanning(GAPScanParameters(active: true))
        let seen = try await firstElement(of: reports, within: patience) {
            $0.address == pair.running.addresses[0] && $0.data.localName == "Family"
        }
        #expect(seen.connectable && seen.addressType == .public && seen.extended == nil)
        #expect(seen.scanResponseBytes == response.encoded() && seen.data.flags?.contains(.leGeneralDiscoverable) == true)
        try await central.stopScanning()

        let link = try await central.connect(GAPConnectRequest(peer: seen.address, peerAddressType: seen.addressType, timeout: 60_000_000))
        let configuration = SMPConfiguration(secureConnections: true)
        await central.setPairingConfiguration(configuration)
        await peripheral.setPairingConfiguration(configuration)
        let agent = PasskeyUser()
        await central.setPairingAgent(agent)
        await peripheral.setPairingAgent(agent)
        let result = try await central.pair(link.handle)
        #expect(result.bonded && result.level == .unauthenticated && result.secureConnections)
        let handle = try #require(database.valueHandle(of: BluetoothUUID(0xFFF1), inService: BluetoothUUID(0xFFF0)))
        guard case let .value(value) = try await central.gatt(.read(handle), on: link.handle) else { throw TimedOut() }
        #expect(value == [0x42])
        try await central.disconnect(link.handle)

        let used = Set(pair.sent[0].all + pair.sent[1].all)
        #expect(used.isSuperset(of: claiming ? Self.extendedFamily : Self.legacyFamily))
        #expect(used.isDisjoint(with: claiming ? Self.legacyFamily : Self.extendedFamily), "the families never mix")
        await pair.close()
    }

    @Test("A legacy-PDU set asked to restart after a disconnection advertises again and takes a second connection")
    func restartAfterDisconnection() async throws {
        let pair = try await Pair(claiming: true)
        let events = pair.peripheral.events
        try await pair.peripheral.startAdvertising(GAPAdvertisingParameters(intervalMin: 32, intervalMax: 32, restartAfterDisconnection: true))
        let first = try await pair.connect(events)
        #expect(await !pair.peripheral.gap.isAdvertising, "the connection ended the set")
        try await pair.central.disconnect(first.central.handle)
        try await waitUntil(within: patience) { await pair.peripheral.gap.isAdvertising }
        let second = try await pair.connect(events)
        #expect(second.central.peer == pair.running.addresses[0])
        let enables = pair.sent[0].all.filter { $0 == HCI.LESetExtendedAdvertisingEnable.opcode }
        #expect(enables.count == 2, "enabled at the start and again after the first link ended")
        #expect(Set(pair.sent[0].all).isDisjoint(with: Self.legacyFamily))
        try await pair.central.disconnect(second.central.handle)
        await pair.close()
    }

    @Test("A bonded peer follows our rotating private address from a legacy-PDU set and connects to the identity, with the controller's resolving list and without",
          arguments: [true, false])
    func privateAddressResolvedByBondedPeer(controllerPrivacy: Bool) async throws {
        let trio = try await HostResolvingListTests.Trio(controllerPrivacy: controllerPrivacy, claimsExtendedAdvertising: true)
        #expect(await trio.peripheral.gap.commandFamily == .extended)
        #expect(await trio.central.gap.commandFamily == .extended)
        try await HostResolvingListTests().seenThroughRotation(trio)
        await trio.stop()
    }

    @Test("A representative channel test on claiming controllers: an LE credit-based channel echoes SDUs byte for byte")
    func creditBasedEchoOnClaimingControllers() async throws {
        let hosts = try await ConnectedHosts.make(speed: 20, timing: "ideal", claimsExtendedAdvertising: true)
        #expect(await hosts.central.gap.commandFamily == .extended)
        let incoming = await hosts.peripheral.listen(psm: 0x0080, parameters: HostChannelParameters(mtu: 512, mps: 247, initialCredits: 8))
        let echo = Task {
            for await channel in incoming {
                while let sdu = try await hosts.peripheral.receive(on: channel.id) { try await hosts.peripheral.send(sdu, on: channel.id) }
            }
        }
        let channel = try await hosts.central.openChannel(psm: 0x0080, on: hosts.centralHandle)
        for size in [1, 247, 248, 512] {
            let sdu = (0 ..< size).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            try await hosts.central.send(sdu, on: channel.id)
            #expect(try await hosts.central.receive(on: channel.id) == sdu)
        }
        echo.cancel()
        await hosts.close()
    }
}
