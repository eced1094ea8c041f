import BLEHost
import BLEWire
import BLEWorld
import SimulatedTesting
import Synchronization
import Testing

@Suite("Host privacy: our resolvable private address", .simulated)
struct HostPrivacyTests {
    static let irk: UInt128 = 0xEC02_3456_7890_ABCD_EF01_2345_6789_ABCD

    @Test("after enablePrivacy a scanner sees the advertiser at a resolvable private address of its IRK, and a new one after the rotation interval")
    func advertisesRotatingPrivateAddress() async throws {
        let running = try RunningWorld(Scenario(name: "empty").addingExternalDevices(2))
        let advertiser = Host(transport: running.transports[0], configuration: .patient)
        let scanner = Host(transport: running.transports[1], configuration: .patient)
        _ = try await advertiser.start()
        _ = try await scanner.start()
        try await advertiser.enablePrivacy(irk: Self.irk, rotation: .seconds(2))
        let first = try #require(await advertiser.currentPrivateAddress)
        #expect(try ResolvablePrivateAddress.matches(first, irk: Self.irk))
        // useRandomAddress left false: privacy forces the random address on.
        try await advertiser.startAdvertising(GAPAdvertisingParameters(
            data: AdvertisingData([.flags([.leGeneralDiscoverable]), .completeLocalName("Private")])))
        let advertisements = try await scanner.startScanning(GAPScanParameters(active: false))
        // The first two addresses the advertiser is seen at (on a loaded machine the first
        // may already be a rotated one), in one pass over the stream.
        let seen = Mutex<[BluetoothAddress]>([])
        _ = try await firstElement(of: advertisements, within: patience) { report in
            guard report.data.localName == "Private" else { return false }
            return seen.withLock { addresses in
                if !addresses.contains(report.address) { addresses.append(report.address) }
                return addresses.count == 2
            }
        }
        let addresses = seen.withLock { $0 }
        #expect(addresses.count == 2)
        for address in addresses {
            #expect(address.kind == .random && address.value >> 46 == 0b01, "a resolvable private address")
            #expect(try ResolvablePrivateAddress.matches(address, irk: Self.irk))
            #expect(try !ResolvablePrivateAddress.matches(address, irk: Self.irk ^ 1), "another IRK does not resolve it")
            #expect(address != running.addresses[0], "not the public address")
        }
        #expect(addresses.first != addresses.last, "rotated")
        let current = try #require(await advertiser.currentPrivateAddress)
        #expect(try ResolvablePrivateAddress.matches(current, irk: Self.irk))
        try await scanner.stopScanning()
        try await advertiser.stopAdvertising()
        await advertiser.close()
        await scanner.close()
        await running.stop()
    }
}
