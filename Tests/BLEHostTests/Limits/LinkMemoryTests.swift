import BLEHost
import BLEWire
import BLEWorld
import Foundation
import SimulatedTesting
import Testing

/// Many links open at once, each between its own pair of our hosts in one simulated world:
/// every link shows in both hosts' tables while it is up and in none once it is closed, and
/// glibc's heap in use before, with and after the links gives the cost of one link (both
/// hosts' state and both controllers' connection state).
///
/// `SWIFTBLE_LINK_PAIRS` sets the number of pairs (10 by default); `scripts/link-memory.sh`
/// runs 100 and prints the figures ("Memory per link" in docs/limits.md). The figures are
/// printed, not asserted: the test runner's other suites share the process's memory. Resident
/// memory is printed too, but it is the allocator's high-water mark, which starting the hosts
/// reaches before the first link.
@Suite("Memory per link", .simulated, .serialized, .timeLimit(.minutes(30)))
struct LinkMemoryTests {
    static let serviceUUID = BluetoothUUID(0xFE20)
    static let valueUUID = BluetoothUUID(0xFE21)
    static let services = [GATTServiceDefinition(uuid: serviceUUID, characteristics: [
        GATTCharacteristicDefinition(uuid: valueUUID, properties: [.read], permissions: .readable, value: .stored([1, 2, 3])),
    ])]

    static var pairCount: Int {
        ProcessInfo.processInfo.environment["SWIFTBLE_LINK_PAIRS"].flatMap(Int.init).map { max($0, 1) } ?? 10
    }

    @Test("links open at once: each in both hosts' tables while up, none after; memory per link printed")
    func linksAtOnce() async throws {
        let pairs = Self.pairCount
        var scenario = Scenario(name: "empty").addingExternalDevices(2 * pairs)
        scenario.timing = .ideal
        // Without the world's in-memory btsnoop capture, which grows with every packet by design.
        let running = try RunningWorld(scenario, speed: 20, capturesHCI: false)
        var peripherals: [BLEHost.Host] = [], centrals: [BLEHost.Host] = []
        var drains: [Task<Void, Never>] = []
        defer { for drain in drains { drain.cancel() } }
        for pair in 0 ..< pairs {
            let peripheral = Host(transport: running.transports[2 * pair], configuration: .patient)
            let central = Host(transport: running.transports[2 * pair + 1], configuration: .patient)
            _ = try await peripheral.start()
            _ = try await central.start()
            _ = try await peripheral.publishGATT(Self.services)
            // Every stream is read, so that what stays is what the hosts keep for their links.
            for host in [peripheral, central] {
                drains += [Task { for await _ in host.gattEvents {} }, Task { for await _ in host.securityEvents {} },
                           Task { for await _ in host.l2capEvents {} }, Task { for await _ in host.events {} }]
            }
            try await peripheral.startAdvertising(GAPAdvertisingParameters(intervalMin: 32, intervalMax: 32))
            peripherals.append(peripheral)
            centrals.append(central)
        }
        let hosts = peripherals + centrals
        let before = ConnectionCycleTests.residentMemory
        ConnectionCycleTests.printHeap("before the links", label: "link memory")
        var resident: [Int] = []
        // Two rounds: what the first leaves after closing is capacity kept for the next links,
        // which the second round reuses instead of adding to.
        for round in 1 ... 2 {
            if round > 1 {
                for peripheral in peripherals {
                    try await peripheral.startAdvertising(GAPAdvertisingParameters(intervalMin: 32, intervalMax: 32))
                }
            }
            let links = try await Self.connectAll(centrals, to: running.addresses)
            for pair in 0 ..< pairs {
                let served = await peripherals[pair].resourceCounts, client = await centrals[pair].resourceCounts
                #expect(served.gapConnections == 1 && client.gapConnections == 1, "pair \(pair): \(served); \(client)")
                #expect(served.attLinks == 1 && client.attLinks == 1, "pair \(pair): \(served); \(client)")
            }
            resident.append(ConnectionCycleTests.residentMemory)
            ConnectionCycleTests.printHeap("with the links, round \(round)", label: "link memory")
            for pair in 0 ..< pairs { try await centrals[pair].disconnect(links[pair]) }
            try await waitUntil(within: patience) {
                for host in hosts where !(await host.resourceCounts.perConnection.allSatisfy { $0 == 0 }) {
                    return false
                }
                return true
            }
            resident.append(ConnectionCycleTests.residentMemory)
            ConnectionCycleTests.printHeap("after closing them, round \(round)", label: "link memory")
        }
        print("link memory: \(pairs) links; resident before \(before) B, with the links and after closing them, twice: "
              + "\(resident.map { "\($0) B" }.joined(separator: ", "))")
        for host in hosts { await host.close() }
        await running.stop()
    }

    /// Connects each central to its peripheral (the even-numbered address before it) and reads
    /// once on each link, so that each link carries ATT and GATT client and server state too.
    static func connectAll(_ centrals: [BLEHost.Host], to addresses: [BluetoothAddress]) async throws -> [UInt16] {
        let fast = HCI.LEConnectionParameters(connectionIntervalMin: 24, connectionIntervalMax: 24, maxLatency: 0,
                                              supervisionTimeout: 400, minCELength: 0, maxCELength: 0)
        var links: [UInt16] = []
        for (pair, central) in centrals.enumerated() {
            let link = try await central.connect(GAPConnectRequest(peer: addresses[2 * pair], parameters: fast, timeout: 60_000_000))
            let read = try await central.gatt(.discoverPrimaryServices(serviceUUID), on: link.handle)
            guard case let .services(found) = read, found.map(\.uuid) == [serviceUUID] else {
                Issue.record("pair \(pair): discovery answered \(read)")
                throw TimedOut()
            }
            links.append(link.handle)
        }
        return links
    }
}
