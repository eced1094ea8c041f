import BLECrypto
import BLEHost
import BLEWire
import Testing

/// Resolvable private addresses (Core 5.4, Vol 6, Part B, §1.3.2.2–§1.3.2.3) against the
/// sample data of Vol 3, Part H, Appendix D.7 (ah): IRK ec0234a3 57c8ad05 341010a6 0a397d9b,
/// prand 708194, hash 0dfbaa.
@Suite("Resolvable private addresses")
struct ResolvablePrivateAddressTests {
    static let irk: UInt128 = 0xEC02_34A3_57C8_AD05_3410_10A6_0A39_7D9B
    static let sampleAddress = BluetoothAddress(0x70_8194_0D_FBAA, kind: .random)

    @Test("prand 708194 under the sample IRK gives address 70:81:94:0D:FB:AA (Appendix D.7)")
    func sampleData() throws {
        let address = try ResolvablePrivateAddress.make(irk: Self.irk, prand: 0x70_8194)
        #expect(address == Self.sampleAddress)
        #expect(address.description == "70:81:94:0D:FB:AA")
        #expect(address.randomSubtype == .resolvablePrivate)
    }

    @Test("the sample address resolves to its identity with the sample IRK and not with another")
    func resolveSample() throws {
        let identity = BluetoothAddress(0xC0_1122_3344_55, kind: .random)
        let other = ResolvingListEntry(identityAddress: BluetoothAddress(0x00_1B_DC_00_00_01), identityResolvingKey: 1)
        let entry = ResolvingListEntry(identityAddress: identity, identityResolvingKey: Self.irk)
        #expect(try ResolvablePrivateAddress.resolve(Self.sampleAddress, in: [other, entry]) == identity)
        #expect(try ResolvablePrivateAddress.resolve(Self.sampleAddress, in: [other]) == nil)
        #expect(try ResolvablePrivateAddress.matches(Self.sampleAddress, irk: Self.irk))
        #expect(try !ResolvablePrivateAddress.matches(Self.sampleAddress, irk: Self.irk ^ 1))
    }

    @Test("a changed hash bit, a public address or a non-resolvable sub-type does not resolve")
    func nonMatching() throws {
        let entry = ResolvingListEntry(identityAddress: BluetoothAddress(0x1), identityResolvingKey: Self.irk)
        let flipped = BluetoothAddress(Self.sampleAddress.value ^ 1, kind: .random)
        #expect(try ResolvablePrivateAddress.resolve(flipped, in: [entry]) == nil)
        #expect(try ResolvablePrivateAddress.resolve(BluetoothAddress(Self.sampleAddress.value, kind: .public), in: [entry]) == nil)
        // The same 24-bit hash under a static-address prefix (top bits 11) is not an RPA.
        let staticForm = BluetoothAddress(Self.sampleAddress.value | 0xC000_0000_0000, kind: .random)
        #expect(try !ResolvablePrivateAddress.matches(staticForm, irk: Self.irk))
    }

    @Test("generated addresses have top bits 01, a valid prand, and resolve with their IRK")
    func generated() throws {
        var generator = GAPRandom(seed: 42)
        var seen = Set<BluetoothAddress>()
        for _ in 0 ..< 200 {
            let address = try ResolvablePrivateAddress.generate(irk: Self.irk, using: &generator)
            #expect(address.kind == .random)
            #expect(address.value >> 46 == 0b01)
            #expect(ResolvablePrivateAddress.isValidPrand(UInt32(address.value >> 24)))
            #expect(try ResolvablePrivateAddress.matches(address, irk: Self.irk))
            seen.insert(address)
        }
        #expect(seen.count > 190)
    }

    @Test("a generator giving all-zero or all-one random parts is drawn again")
    func rejectsDegeneratePrand() throws {
        var generator = ScriptedRandomGenerator(values: [0, 0x3F_FFFF, 0x12_3456])
        let address = try ResolvablePrivateAddress.generate(irk: Self.irk, using: &generator)
        #expect(address.value >> 24 == 0x52_3456)
        #expect(!ResolvablePrivateAddress.isValidPrand(0x40_0000))
        #expect(!ResolvablePrivateAddress.isValidPrand(0x7F_FFFF))
        #expect(!ResolvablePrivateAddress.isValidPrand(0xD2_3456))
        #expect(ResolvablePrivateAddress.isValidPrand(0x52_3456))
    }
}

/// A generator that returns the given values in turn, then repeats the last.
struct ScriptedRandomGenerator: RandomNumberGenerator {
    var values: [UInt64]
    private var index = 0

    init(values: [UInt64]) { self.values = values }

    mutating func next() -> UInt64 {
        defer { index = min(index + 1, values.count - 1) }
        return values[index]
    }
}
