import BLEHost
import BLEWire
import BLEWorld
import SimulatedTesting
import Synchronization
import Testing

/// A transport whose controller hides LL Privacy (bit 6 of LE Read Local Supported
/// Features, Core 5.4, Vol 6, Part B, §4.6): the host must resolve addresses itself.
struct WithoutLinkLayerPrivacy: HostTransport {
    let inner: any HostTransport
    let packets: AsyncThrowingStream<H4.Packet, any Error>

    init(_ inner: any HostTransport) {
        self.inner = inner
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: H4.Packet.self)
        packets = stream
        let source = inner.packets
        Task {
            do {
                for try await packet in source { continuation.yield(Self.hidingPrivacy(packet)) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
    }

    func send(_ packet: H4.Packet) async throws { try await inner.send(packet) }
    func close() async { await inner.close() }

    /// The packet with the LL Privacy bit cleared if it answers LE Read Local Supported Features.
    static func hidingPrivacy(_ packet: H4.Packet) -> H4.Packet {
        guard case let .event(event) = packet, let decoded = try? HCI.Event(decoding: event),
              case let .commandComplete(complete) = decoded, complete.opcode == HCI.LEReadLocalSupportedFeatures.opcode,
              var answer = try? complete.returnParameters(for: HCI.LEReadLocalSupportedFeatures.self)
        else { return packet }
        answer.leFeatures.remove(.llPrivacy)
        let changed = HCI.CommandComplete(numHCICommandPackets: complete.numHCICommandPackets, opcode: complete.opcode,
                                          returnParameters: answer.encoded()[...])
        return .event(HCI.Event.commandComplete(changed).packet)
    }
}

/// A transport into which a test slips controller packets (a Hardware Error, say).
final class InjectingTransport: HostTransport {
    let inner: any HostTransport
    let packets: AsyncThrowingStream<H4.Packet, any Error>
    private let continuation: AsyncThrowingStream<H4.Packet, any Error>.Continuation

    init(_ inner: any HostTransport) {
        self.inner = inner
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: H4.Packet.self)
        packets = stream
        self.continuation = continuation
        let source = inner.packets
        Task {
            do {
                for try await packet in source { continuation.yield(packet) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
    }

    func send(_ packet: H4.Packet) async throws { try await inner.send(packet) }
    func close() async { await inner.close() }
    /// `event` reaches the host as if the controller had sent it.
    func inject(_ event: HCI.Event) { continuation.yield(.event(event.packet)) }
}

@Suite("Host privacy: resolving bonded peers", .simulated, .serialized)
struct HostResolvingListTests {
    static let peripheralIRK: UInt128 = 0x0A0B_0C0D_0E0F_1011_1213_1415_1617_1819
    static let centralIRK: UInt128 = 0x2021_2223_2425_2627_2829_2A2B_2C2D_2E2F

    /// Peripheral, central (each holding the other's IRK, as after bonding) and a stranger.
    struct Trio {
        let running: RunningWorld
        let peripheral: Host
        let central: Host
        let stranger: Host

        /// - Parameter claimsExtendedAdvertising: the controllers claim the extended family, so
        ///   that the hosts advertise, scan and connect with it (ExtendedFamilyHostTests).
        init(controllerPrivacy: Bool, claimsExtendedAdvertising: Bool = false) async throws {
            let world = try RunningWorld(Scenario(name: "empty").addingExternalDevices(3), claimsExtendedAdvertising: claimsExtendedAdvertising)
            let transports: [any HostTransport] = controllerPrivacy
                ? [world.transports[0], world.transports[1]]
                : [WithoutLinkLayerPrivacy(world.transports[0]), WithoutLinkLayerPrivacy(world.transports[1])]
            running = world
            peripheral = Host(transport: transports[0], configuration: .patient)
            central = Host(transport: transports[1], configuration: .patient)
            stranger = Host(transport: world.transports[2], configuration: .patient)
            for host in [peripheral, central, stranger] { _ = try await host.start() }
            try await peripheral.enablePrivacy(irk: HostResolvingListTests.peripheralIRK, rotation: .seconds(2))
            try await central.enablePrivacy(irk: HostResolvingListTests.centralIRK, rotation: .seconds(2))
            await peripheral.setResolvingList([ResolvingListEntry(
                identityAddress: running.addresses[1], identityResolvingKey: HostResolvingListTests.centralIRK)])
            await central.setResolvingList([ResolvingListEntry(
                identityAddress: running.addresses[0], identityResolvingKey: HostResolvingListTests.peripheralIRK)])
        }

        func stop() async {
            for host in [peripheral, central, stranger] { await host.close() }
            await running.stop()
        }
    }

    /// The peripheral advertises "Private"; the stranger sees two of its private addresses
    /// (a rotation), and the central sees its identity before and after.
    func seenThroughRotation(_ trio: Trio) async throws {
        let name = "Private"
        let events = trio.peripheral.events
        try await trio.peripheral.startAdvertising(GAPAdvertisingParameters(
            data: AdvertisingData([.flags([.leGeneralDiscoverable]), .completeLocalName(name)])))
        let identity = trio.running.addresses[0]
        let bonded = try await trio.central.startScanning(GAPScanParameters(active: false, allowDuplicates: true))
        let before = try await firstElement(of: bonded, within: patience) { $0.data.localName == name }
        #expect(before.address == identity, "the bonded central sees the identity")
        #expect(before.addressType == .publicIdentity)

        let strangers = try await trio.stranger.startScanning(GAPScanParameters(active: false, allowDuplicates: true))
        let seen = Mutex<[BluetoothAddress]>([])
        _ = try await firstElement(of: strangers, within: patience) { report in
            guard report.data.localName == name else { return false }
            return seen.withLock { addresses in
                if !addresses.contains(report.address) { addresses.append(report.address) }
                return addresses.count == 2
            }
        }
        for address in seen.withLock({ $0 }) {
            #expect(try ResolvablePrivateAddress.matches(address, irk: Self.peripheralIRK), "the stranger sees private addresses")
        }
        try await trio.stranger.stopScanning()
        let after = try await firstElement(of: bonded, within: patience) { $0.data.localName == name }
        #expect(after.address == identity, "still the identity after the rotation")
        try await trio.central.stopScanning()

        // A connection to the identity.
        let link = try await trio.central.connect(GAPConnectRequest(peer: identity, timeout: 60_000_000))
        let up = try await firstElement(of: events, within: patience) {
            if case .connected = $0 { return true } else { return false }
        }
        guard case let .connected(peripheralLink) = up else { throw TimedOut() }
        #expect(await trio.central.identity(of: link.peer) == identity)
        #expect(await trio.peripheral.identity(of: peripheralLink.peer) == trio.running.addresses[1])
        try await trio.central.disconnect(link.handle)
    }

    @Test("with the controller's resolving list: identities in reports and connections, private addresses on the air, still after rotation")
    func throughController() async throws {
        let trio = try await Trio(controllerPrivacy: true)
        #expect(await trio.peripheral.resolvesAddressesInController)
        #expect(await trio.central.resolvesAddressesInController)
        try await seenThroughRotation(trio)
        await trio.stop()
    }

    @Test("without LL Privacy the host resolves: identities in reports, a connection to the identity through its private address")
    func inHost() async throws {
        let trio = try await Trio(controllerPrivacy: false)
        #expect(await !trio.peripheral.resolvesAddressesInController)
        #expect(await !trio.central.resolvesAddressesInController)
        try await seenThroughRotation(trio)
        await trio.stop()
    }

    @Test("after a Hardware Error resets the controller, the host makes a new private address and loads the resolving list again")
    func reloadsAfterReset() async throws {
        let running = try RunningWorld(Scenario(name: "empty").addingExternalDevices(2))
        let transport = InjectingTransport(running.transports[0])
        let host = Host(transport: transport, configuration: .patient)
        let stranger = Host(transport: running.transports[1], configuration: .patient)
        _ = try await host.start()
        _ = try await stranger.start()
        try await host.enablePrivacy(irk: Self.peripheralIRK, rotation: .seconds(900))
        await host.setResolvingList([ResolvingListEntry(identityAddress: running.addresses[1], identityResolvingKey: Self.centralIRK)])
        #expect(await host.resolvesAddressesInController)
        let before = try #require(await host.currentPrivateAddress)
        transport.inject(.hardwareError(HCI.HardwareError(hardwareCode: 0x42)))
        // Nothing announces the end of the reload: wait for its visible state.
        try await waitUntil(within: patience) {
            let address = await host.currentPrivateAddress
            let resolving = await host.resolvesAddressesInController
            return address != nil && address != before && resolving
        }
        try await host.startAdvertising(GAPAdvertisingParameters(
            data: AdvertisingData([.flags([.leGeneralDiscoverable]), .completeLocalName("Reset")])))
        let reports = try await stranger.startScanning(GAPScanParameters(active: false))
        let seen = try await firstElement(of: reports, within: patience) { $0.data.localName == "Reset" }
        #expect(try ResolvablePrivateAddress.matches(seen.address, irk: Self.peripheralIRK), "private again after the reset")
        try await stranger.stopScanning()
        await host.close()
        await stranger.close()
        await running.stop()
    }

    @Test("a connection's peer is the identity when the controller resolved it")
    func connectionCarriesIdentity() async throws {
        let trio = try await Trio(controllerPrivacy: true)
        let events = trio.peripheral.events
        try await trio.peripheral.startAdvertising(GAPAdvertisingParameters(
            data: AdvertisingData([.flags([.leGeneralDiscoverable])])))
        let link = try await trio.central.connect(GAPConnectRequest(peer: trio.running.addresses[0], timeout: 60_000_000))
        #expect(link.peer == trio.running.addresses[0])
        let up = try await firstElement(of: events, within: patience) {
            if case .connected = $0 { return true } else { return false }
        }
        guard case let .connected(peripheralLink) = up else { throw TimedOut() }
        #expect(peripheralLink.peer == trio.running.addresses[1])
        try await trio.central.disconnect(link.handle)
        await trio.stop()
    }
}
