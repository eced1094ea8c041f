import BLEHost
import BLEWire
import BLEWorld
import Foundation
import SimulatedTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Connect, pair, subscribe, notify and disconnect, over and over, between two of our hosts
/// on a simulated world: afterwards every per-connection table of both hosts is empty again
/// and the bounded caches are the size they were after the first cycle (docs/limits.md).
///
/// `SWIFTBLE_CONNECTION_CYCLES` sets the number of cycles (25 by default; the script
/// `scripts/connection-cycles.sh` runs 1,000 and reads the memory figures this prints).
@Suite("Connection cycles leave nothing behind", .simulated, .serialized, .timeLimit(.minutes(30)))
struct ConnectionCycleTests {
    static let serviceUUID = BluetoothUUID(0xFE10)
    static let valueUUID = BluetoothUUID(0xFE11)
    static let services = [GATTServiceDefinition(uuid: serviceUUID, characteristics: [
        GATTCharacteristicDefinition(uuid: valueUUID, properties: [.read, .notify], permissions: .readable, value: .stored([0])),
    ])]

    static var cycleCount: Int {
        ProcessInfo.processInfo.environment["SWIFTBLE_CONNECTION_CYCLES"].flatMap(Int.init).map { max($0, 2) } ?? 25
    }

    /// The process's resident memory in octets (Linux's `/proc/self/statm`, pages × 4,096);
    /// 0 where it cannot be read.
    static var residentMemory: Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * 4_096 : 0
    }

    /// Has glibc print its heap figures to standard error (`malloc_stats(3)`: "in use bytes"
    /// under "Total (incl. mmap)"), after a line naming `moment` after `label`; the scripts
    /// read them. `malloc_stats` is looked up at run time: Swift's Glibc module does not import
    /// malloc.h.
    static func printHeap(_ moment: String, label: String = "connection cycles") {
        #if canImport(Glibc)
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "malloc_stats") else { return }
        FileHandle.standardError.write(Data("\(label): heap \(moment)\n".utf8))
        unsafeBitCast(symbol, to: (@convention(c) () -> Void).self)()
        #endif
    }

    @Test("connect, pair, subscribe, notify, disconnect: every per-connection table is empty again after each cycle")
    func cycles() async throws {
        var scenario = Scenario(name: "empty").addingExternalDevices(2)
        scenario.timing = .ideal
        // Without the world's in-memory btsnoop capture, which grows with every packet by
        // design: what is left to grow is the hosts'.
        let running = try RunningWorld(scenario, speed: 20, capturesHCI: false)
        let peripheral = Host(transport: running.transports[0], configuration: .patient)
        let central = Host(transport: running.transports[1], configuration: .patient)
        _ = try await peripheral.start()
        _ = try await central.start()
        let database = try await peripheral.publishGATT(Self.services)
        let valueHandle = try #require(database.valueHandle(of: Self.valueUUID, inService: Self.serviceUUID))
        let centralGATT = central.gattEvents
        // The peripheral's connections, relayed from its GAP events (read in full, below).
        let (served, servedOutput) = AsyncStream.makeStream(of: GAPConnection.self)
        // Every stream nobody else reads is read, so that what stays is what the hosts keep.
        let drains = [Task { for await _ in peripheral.gattEvents {} }, Task { for await _ in peripheral.securityEvents {} },
                      Task { for await _ in central.securityEvents {} }, Task { for await _ in peripheral.l2capEvents {} },
                      Task { for await _ in central.l2capEvents {} }, Task { for await _ in central.events {} },
                      Task { for await event in peripheral.events { if case let .connected(link) = event { servedOutput.yield(link) } } }]
        defer { for drain in drains { drain.cancel() } }
        let cycles = Self.cycleCount
        var afterFirst: (HostResourceCounts, HostResourceCounts)?
        var memoryAfterFirst = 0

        for cycle in 0 ..< cycles {
            try await peripheral.startAdvertising(GAPAdvertisingParameters(intervalMin: 32, intervalMax: 32))
            let fast = HCI.LEConnectionParameters(connectionIntervalMin: 6, connectionIntervalMax: 6, maxLatency: 0,
                                                  supervisionTimeout: 200, minCELength: 0, maxCELength: 0)
            let link = try await central.connect(GAPConnectRequest(peer: running.addresses[0], parameters: fast, timeout: 60_000_000))
            let peripheralLink = try await firstElement(of: served, within: patience) { _ in true }

            let pairing = try await central.pair(link.handle)
            #expect(pairing.secureConnections)
            let cccd = try await Self.discoverConfiguration(of: Self.valueUUID, on: link.handle, central)
            _ = try await central.gatt(.configure([.notification], descriptor: cccd), on: link.handle)
            let value = [UInt8(truncatingIfNeeded: cycle), UInt8(truncatingIfNeeded: cycle >> 8)]
            try await peripheral.notify(value, valueHandle: valueHandle, on: peripheralLink.handle)
            _ = try await firstElement(of: centralGATT, within: patience) {
                if case .notification(link.handle, valueHandle, value) = $0 { return true } else { return false }
            }
            try await central.disconnect(link.handle)
            do {
                try await waitUntil(within: patience) {
                    let served = await peripheral.resourceCounts, client = await central.resourceCounts
                    return served.perConnection.allSatisfy { $0 == 0 } && client.perConnection.allSatisfy { $0 == 0 }
                }
            } catch {
                let served = await peripheral.resourceCounts, client = await central.resourceCounts
                Issue.record("after cycle \(cycle + 1) a table is not empty: peripheral \(served); central \(client)")
                throw error
            }
            if cycle == 0 {
                afterFirst = (await peripheral.resourceCounts, await central.resourceCounts)
                memoryAfterFirst = Self.residentMemory
                Self.printHeap("after cycle 1")
            }
        }

        let peripheralCounts = await peripheral.resourceCounts, centralCounts = await central.resourceCounts
        #expect(peripheralCounts.perConnection.allSatisfy { $0 == 0 }, "\(peripheralCounts)")
        #expect(centralCounts.perConnection.allSatisfy { $0 == 0 }, "\(centralCounts)")
        #expect(afterFirst?.0 == peripheralCounts, "peripheral after the first cycle: \(afterFirst?.0.description ?? "-")")
        #expect(afterFirst?.1 == centralCounts, "central after the first cycle: \(afterFirst?.1.description ?? "-")")
        let memoryAfterAll = Self.residentMemory
        Self.printHeap("after cycle \(cycles)")
        print("connection cycles: \(cycles); resident memory after cycle 1: \(memoryAfterFirst) B, after cycle \(cycles): "
              + "\(memoryAfterAll) B; growth per cycle: \((memoryAfterAll - memoryAfterFirst) / max(cycles - 1, 1)) B")
        print("connection cycles: peripheral \(peripheralCounts)")
        print("connection cycles: central \(centralCounts)")
        await central.close()
        await peripheral.close()
        await running.stop()
    }

    /// The Client Characteristic Configuration descriptor of `uuid`, found by discovery.
    static func discoverConfiguration(of uuid: BluetoothUUID, on link: UInt16, _ central: BLEHost.Host) async throws -> ATT.Handle {
        guard case let .services(services) = try await central.gatt(.discoverPrimaryServices(serviceUUID), on: link),
              let service = services.first,
              case let .characteristics(characteristics) = try await central.gatt(.discoverAllCharacteristics(in: service.handles), on: link),
              let characteristic = characteristics.first(where: { $0.uuid == uuid }),
              case let .descriptors(descriptors) = try await central.gatt(.discoverAllDescriptors(of: characteristic), on: link),
              let cccd = descriptors.first(where: \.isClientCharacteristicConfiguration)
        else { throw TimedOut() }
        return cccd.handle
    }
}
