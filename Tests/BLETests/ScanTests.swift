import BLE
import BLEWorld
import SimulatedTesting
import Testing

@Suite("Central scans of the simulated neighbourhood", .simulated, .timeLimit(.minutes(3)))
struct ScanTests {
    static func neighbourhood() async throws -> SharedWorld {
        try await SharedWorld.make(Scenario.builtIn(named: "neighbourhood"))
    }

    @Test("a service filter finds the heart-rate strap, with its name, address type and signal")
    func serviceFilterFindsStrap() async throws {
        let world = try await Self.neighbourhood()
        let central = world.devices[0].central
        let scan = try await central.scan(filter: ScanFilter(serviceUUIDs: [0x180D]))
        let found = try await within {
            var others: [Advertisement] = []
            for await advertisement in scan {
                guard advertisement.address == strapAddress else {
                    others.append(advertisement)
                    continue
                }
                if advertisement.localName != nil { return (advertisement, others) }
            }
            throw TimedOut()
        }
        let (strap, others) = found
        #expect(others.isEmpty, "only the strap lists 180D, yet \(others.map(\.address)) were reported")
        #expect(strap.address.kind == .random)
        #expect(strap.localName == "Polar H10 A1B2C3D4")
        #expect(strap.serviceUUIDs.contains(BluetoothUUID(0x180D)))
        #expect(strap.connectable)
        #expect(strap.data.appearance == 0x0341)
        let rssi = try #require(strap.rssi)
        #expect(rssi < -30 && rssi > -90)
        #expect(strap.time >= .zero && strap.time < .seconds(patience))
        await world.close()
    }

    @Test("a name prefix filter reports only a device whose name starts with it, merged with its scan response")
    func namePrefixFilter() async throws {
        let world = try await Self.neighbourhood()
        let scan = try await world.devices[0].central.scan(filter: ScanFilter(namePrefix: "Hue"))
        // The first report that passes must already be the bulb: any other device fails.
        let bulb = try await first(of: scan) { _ in true }
        #expect(bulb.address == BluetoothAddress(0xCB_01_B0_1B_00_01, kind: .random))
        #expect(bulb.localName == "Hue Lamp Kitchen")
        // The name comes from the scan response, the service from the advertisement.
        #expect(bulb.serviceUUIDs == [BluetoothUUID(0xFE0F)])
        #expect(!bulb.scanResponseBytes.isEmpty)
        await scan.stop()
        await world.close()
    }

    @Test("a minimum RSSI filter reports only reports at least that strong")
    func minimumRSSIFilter() async throws {
        let world = try await Self.neighbourhood()
        let scan = try await world.devices[0].central.scan(filter: ScanFilter(minimumRSSI: -65))
        // The strap, 3.6 m away at 0 dBm, is heard near -54 dBm; the battery sensor, 22 m
        // away at -4 dBm, near -78 dBm.
        let seen = try await within {
            var seen: [Advertisement] = []
            for await advertisement in scan {
                seen.append(advertisement)
                if advertisement.address == strapAddress { return seen }
            }
            throw TimedOut()
        }
        for advertisement in seen {
            #expect((advertisement.rssi ?? -127) >= -65, "\(advertisement.address) reported at \(advertisement.rssi ?? -127) dBm")
        }
        #expect(!seen.contains { $0.address.value == 0xF0_0F_18_0F_00_42 })
        await world.close()
    }

    @Test("allowing duplicates reports the same unchanged device again and again")
    func duplicates() async throws {
        let world = try await Self.neighbourhood()
        let scan = try await world.devices[0].central.scan(
            filter: ScanFilter(addresses: [strapAddress]), options: ScanOptions(allowDuplicates: true))
        let times = try await within {
            var times: [Duration] = []
            for await advertisement in scan where advertisement.address == strapAddress {
                times.append(advertisement.time)
                if times.count == 5 { return times }
            }
            throw TimedOut()
        }
        #expect(times.count == 5)
        // Each report is timed from the scan's start, in the order received.
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        await world.close()
    }

    @Test("a passive scan asks for no scan response, so the bulb's name is not heard")
    func passiveScan() async throws {
        let world = try await Self.neighbourhood()
        let bulbAddress = BluetoothAddress(0xCB_01_B0_1B_00_01, kind: .random)
        let scan = try await world.devices[0].central.scan(
            filter: ScanFilter(addresses: [bulbAddress]), options: ScanOptions(active: false, allowDuplicates: true))
        let reports = try await within {
            var reports: [Advertisement] = []
            for await advertisement in scan {
                reports.append(advertisement)
                if reports.count == 3 { return reports }
            }
            throw TimedOut()
        }
        for report in reports {
            #expect(report.scanResponseBytes.isEmpty)
            #expect(report.localName == nil)
            #expect(report.serviceUUIDs == [BluetoothUUID(0xFE0F)])
        }
        await world.close()
    }

    @Test("leaving the loop ends the scan, and a second scan then starts at once")
    func breakEndsScan() async throws {
        let world = try await Self.neighbourhood()
        let central = world.devices[0].central
        let firstScan = try await central.scan()
        _ = try await first(of: firstScan) { _ in true }
        // No wait: the loop ended, so the new scan replaces the stopped one.
        let secondScan = try await central.scan(filter: ScanFilter(serviceUUIDs: [0x180D]))
        let strap = try await first(of: secondScan) { $0.address == strapAddress }
        #expect(strap.serviceUUIDs.contains(BluetoothUUID(0x180D)))
        await world.close()
    }

    @Test("a second scan while the first one runs throws scanInProgress; after stop a new one runs")
    func oneScanAtATime() async throws {
        let world = try await Self.neighbourhood()
        let central = world.devices[0].central
        let running = try await central.scan()
        await #expect(throws: BLEError.scanInProgress) {
            _ = try await central.scan()
        }
        await running.stop()
        // The stopped scan's loop ends (within() throws if it does not).
        _ = try await within {
            for await _ in running {}
            return true
        }
        let next = try await central.scan()
        _ = try await first(of: next) { _ in true }
        await world.close()
    }

    @Test("cancelling the task that reads a scan ends the scan")
    func cancellationEndsScan() async throws {
        let world = try await Self.neighbourhood()
        let central = world.devices[0].central
        let scan = try await central.scan()
        let reader = Task {
            var count = 0
            for await _ in scan { count += 1 }
            return count
        }
        reader.cancel()
        _ = await reader.value
        let next = try await central.scan()
        _ = try await first(of: next) { _ in true }
        await world.close()
    }
}
