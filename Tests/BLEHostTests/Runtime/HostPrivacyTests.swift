import BLEHost
import BLEWire
import BLEWorld
import Testing

@Suite("Host privacy: our resolvable private address")
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
        // useRandomAddress left false: privacy forces the random address on.
        try await advertiser.startAdvertising(GAPAdvertisingParameters(
            data: AdvertisingData([.flags([.leGeneralDiscoverable]), .completeLocalName("Private")])))
        let advertisements = try await scanner.startScanning(GAPScanParameters(active: false))
        let seen = try await firstElement(of: advertisements, within: patience) { $0.data.localName == "Private" }
        #expect(seen.address == first)
        #expect(seen.address.kind == .random && seen.address.value >> 46 == 0b01, "a resolvable private address")
        #expect(try ResolvablePrivateAddress.matches(seen.address, irk: Self.irk))
        #expect(seen.address != running.addresses[0], "not the public address")

        let next = try await firstElement(of: advertisements, within: patience) {
            $0.data.localName == "Private" && $0.address != first
        }
        #expect(next.address.kind == .random && next.address.value >> 46 == 0b01)
        #expect(try ResolvablePrivateAddress.matches(next.address, irk: Self.irk))
        #expect(try !ResolvablePrivateAddress.matches(next.address, irk: Self.irk ^ 1), "another IRK does not resolve it")
        #expect(await advertiser.currentPrivateAddress == next.address)
        try await scanner.stopScanning()
        try await advertiser.stopAdvertising()
        await advertiser.close()
        await scanner.close()
        await running.stop()
    }
}
