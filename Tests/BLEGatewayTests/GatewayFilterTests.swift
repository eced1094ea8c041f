import BLEBeacons
import BLEFleet
import BLEGateway
import BLEHost
import BLEWire
import Testing

@Suite("Gateway filters and identities")
struct GatewayFilterTests {
    static let stopUUID = "8A6E3C2D-5B1F-4E07-9C44-2F1D0B7A3E51"
    static let busUUID = "3D7F9A10-6C2B-4F8E-A1D3-5E0B7C9F2A64"

    static func iBeaconBytes(_ uuid: String, _ major: UInt16, _ minor: UInt16, power: Int8 = -59) -> [UInt8] {
        guard let proximity = ProximityUUID(uuid) else { return [] }
        return IBeacon(uuid: proximity, major: major, minor: minor, measuredPower: power).advertisingData.encoded()
    }

    static let someAddress = BluetoothAddress(0xC0_57_0B_00_00_01, kind: .random)

    @Test("With no rule every beacon frame is kept under its iBeacon identity and measured power")
    func keepsEveryBeaconByDefault() {
        let filter = GatewayFilter(rules: [])
        let kept = filter.keep(address: Self.someAddress, data: Self.iBeaconBytes(Self.busUUID, 42, 1, power: -60))
        #expect(kept?.identity == "ibeacon:\(Self.busUUID):42:1")
        #expect(kept?.txPower == -60)
    }

    @Test("An iBeacon rule keeps its UUID, major and minor and no other beacon")
    func iBeaconRuleNarrows() throws {
        let filter = try GatewayFilter(parsing: [("ibeacon", "\(Self.busUUID):42")])
        #expect(filter.keep(address: Self.someAddress, data: Self.iBeaconBytes(Self.busUUID, 42, 3)) != nil)
        #expect(filter.keep(address: Self.someAddress, data: Self.iBeaconBytes(Self.busUUID, 43, 3)) == nil)
        #expect(filter.keep(address: Self.someAddress, data: Self.iBeaconBytes(Self.stopUUID, 1, 1)) == nil)
    }

    @Test("A device that is no beacon is kept only by a name, service or address rule")
    func nonBeacons() throws {
        let data = AdvertisingData([.init(type: .flags, data: [0x06]), .init(type: .completeLocalName, data: Array("Tag 7".utf8)),
                                    .init(type: .completeList16BitServiceUUIDs, data: [0x0D, 0x18])]).encoded()
        #expect(GatewayFilter(rules: []).keep(address: Self.someAddress, data: data) == nil)
        #expect(try GatewayFilter(parsing: [("name", "Tag 7")]).keep(address: Self.someAddress, data: data)?.identity == "name:Tag 7")
        #expect(try GatewayFilter(parsing: [("service", "180D")]).keep(address: Self.someAddress, data: data)?.identity
            == "address:C0:57:0B:00:00:01")
        #expect(try GatewayFilter(parsing: [("address", "C0:57:0B:00:00:01")]).keep(address: Self.someAddress, data: data) != nil)
        #expect(try GatewayFilter(parsing: [("address", "C0:57:0B:00:00:02")]).keep(address: Self.someAddress, data: data) == nil)
    }

    /// The ah sample of Core 5.4, Vol 3, Part H, §D.7: IRK ec0234a357c8ad05341010a60a397d9b,
    /// prand 708194, hash 0dfbaa, so the resolvable private address is 70:81:94:0D:FB:AA.
    @Test("A resolvable private address made with a given IRK is stored as that IRK's identity (spec sample)")
    func resolvesTheSpecSample() throws {
        let filter = try GatewayFilter(parsing: [("irk", "rider=ec0234a357c8ad05341010a60a397d9b")])
        let address = try #require(BluetoothAddress("70:81:94:0D:FB:AA", kind: .random))
        let data = AdvertisingData([.init(type: .flags, data: [0x06])]).encoded()
        #expect(filter.keep(address: address, data: data)?.identity == "irk:rider")
        let other = try #require(BluetoothAddress("70:81:94:0D:FB:AB", kind: .random))
        #expect(filter.keep(address: other, data: data) == nil)
    }

    @Test("Every new resolvable private address of one IRK is the same identity; an unnamed IRK is named by its first digits")
    func rotatingAddressesAreOneIdentity() throws {
        let irk: UInt128 = 0x0011_2233_4455_6677_8899_AABB_CCDD_EEFF
        let filter = try GatewayFilter(parsing: [("irk", "00112233445566778899AABBCCDDEEFF")])
        var generator = SystemRandomNumberGenerator()
        for _ in 0 ..< 5 {
            let address = try ResolvablePrivateAddress.generate(irk: irk, using: &generator)
            #expect(filter.keep(address: address, data: [])?.identity == "irk:00112233")
        }
    }

    @Test("Malformed filter options are refused with the option, the value and what is accepted", arguments: [
        ("ibeacon", "not-a-uuid"), ("ibeacon", "\(stopUUID):70000"), ("ibeacon", "\(stopUUID):1:2:3"),
        ("eddystone", "abcd"), ("altbeacon", "zz"), ("service", "18G0"), ("name", ""), ("address", "C0:11"),
        ("irk", "1234"), ("irk", "=00112233445566778899AABBCCDDEEFF"), ("irk", "00112233445566778899AABBCCDDEEFG"), ("colour", "red"),
    ])
    func malformedOptions(kind: String, value: String) {
        #expect(throws: GatewayRuleError.self) { try GatewayRule(kind: kind, value: value) }
        do {
            _ = try GatewayRule(kind: kind, value: value)
        } catch {
            #expect(error.description.hasPrefix("--\(kind) \"\(value)\": "))
        }
    }

    @Test("Malformed advertising data is not kept and does not trap")
    func malformedData() {
        let filter = GatewayFilter(rules: [])
        #expect(filter.keep(address: Self.someAddress, data: [0x1A, 0xFF, 0x4C]) == nil)
        #expect(filter.keep(address: Self.someAddress, data: [0xFF]) == nil)
    }
}
