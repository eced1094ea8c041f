import BLEBeacons
import BLEWire
import Testing

@Suite("iBeacon frames")
struct IBeaconTests {
    /// Bumble's `peer.py ibeacon` as captured (BLEWireTests' AdvertisingDataTests and
    /// /work/shared/interop/NOTES.md §5.1): UUID E2C56DB5-…, major 1, minor 2, -59 dBm.
    static let bumble = "0201061aff4c000215e2c56db5dffb48d2b060d0f5a71096e000010002c5"
    /// The frame documented in github.com/forforf/multi_beacon, ibeacon_protocol.md
    /// ("Complete data"): flags 0x1A, UUID 83256B74-78D0-43A4-8269-05F9DC8A44BA,
    /// major 16, minor 32, measured power -58 (0xC6).
    static let multiBeacon = "02011A1AFF4C000215 83256B7478D043A4826905F9DC8A44BA 0010 0020 C6"

    @Test("Bumble's iBeacon decodes to its UUID, major, minor and measured power")
    func bumbleFrame() throws {
        let frame = try IBeacon(decoding: bytes(Self.bumble))
        #expect(frame.uuid == neighbourhoodUUID)
        #expect(frame.uuid.uuidString == "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")
        #expect(frame.major == 1 && frame.minor == 2)
        #expect(frame.measuredPower == -59)
        #expect(frame.advertisingData.encoded() == (try bytes(Self.bumble)))
    }

    @Test("A documented real frame with flags 0x1A decodes too")
    func multiBeaconFrame() throws {
        let frame = try IBeacon(decoding: bytes(Self.multiBeacon))
        #expect(frame.uuid == ProximityUUID("83256b74-78d0-43a4-8269-05f9dc8a44ba"))
        #expect(frame.identity == IBeaconIdentity(uuid: frame.uuid, major: 16, minor: 32))
        #expect(frame.measuredPower == -58)
        #expect(frame.structure.encoded() == Array((try bytes(Self.multiBeacon)).dropFirst(3)))
    }

    @Test("The neighbourhood scenario's three iBeacons encode to 02 01 06 1A FF 4C 00 02 15 + UUID + major + minor + power")
    func neighbourhoodBeacons() throws {
        // Scenarios/neighbourhood.yaml: Door (1, 1, -59), Shop (1, 2, -56), Backyard (2, 7, -63).
        let expected = [
            (1, 1, -59, "0201061aff4c000215e2c56db5dffb48d2b060d0f5a71096e000010001c5"),
            (1, 2, -56, "0201061aff4c000215e2c56db5dffb48d2b060d0f5a71096e000010002c8"),
            (2, 7, -63, "0201061aff4c000215e2c56db5dffb48d2b060d0f5a71096e000020007c1"),
        ]
        for (major, minor, power, hex) in expected {
            let frame = IBeacon(uuid: neighbourhoodUUID, major: UInt16(major), minor: UInt16(minor), measuredPower: Int8(power))
            let encoded = try frame.advertisingData.encodedLegacy()
            #expect(Hex.encode(encoded) == hex)
            #expect(encoded.count == 30)
            #expect(try IBeacon(decoding: encoded) == frame)
        }
    }

    @Test("Frames round-trip through their advertisement at the edges of every field")
    func roundTrips() throws {
        let uuids = [ProximityUUID(0), ProximityUUID(UInt128.max), neighbourhoodUUID]
        for uuid in uuids {
            for (major, minor) in [(0, 0), (0xFFFF, 0xFFFF), (0x1234, 0xABCD)] {
                for power: Int8 in [-128, -59, 0, 127] {
                    let frame = IBeacon(uuid: uuid, major: UInt16(major), minor: UInt16(minor), measuredPower: power)
                    #expect(try IBeacon(advertisingData: AdvertisingData(decoding: frame.advertisingData.encoded())) == frame)
                    #expect(IBeacon(identity: frame.identity, measuredPower: power) == frame)
                }
            }
        }
    }

    @Test("Another company's data, type, length or a trailing octet is not an iBeacon")
    func strictness() throws {
        let valid = try bytes(Self.bumble)
        func reason(_ input: [UInt8]) -> BeaconFrameError.Reason? {
            do { _ = try IBeacon(decoding: input); return nil } catch { return error.reason }
        }
        var company = valid
        company[5] = 0x4D
        #expect(reason(company) == .wrongCompany(0x004D))
        var type = valid
        type[7] = 0x03
        #expect(reason(type) == .wrongType(0x03))
        var length = valid
        length[8] = 0x16
        #expect(reason(length) == .wrongLength(expected: 21 ... 21, actual: 0x16))
        var longer = valid
        longer[3] = 0x1B
        longer.append(0x00)
        #expect(reason(longer) == .wrongLength(expected: 23 ... 23, actual: 24))
        #expect(reason(Array(valid.prefix(3))) == .absent)
        #expect(reason([0x1A, 0xFF]) != nil) // the advertising data itself runs short
        if case .malformedAdvertisingData? = reason([0x1A, 0xFF]) {} else { Issue.record("expected malformed advertising data") }
    }

    @Test("A second manufacturer structure that is an iBeacon is found after one that is not")
    func secondStructure() throws {
        let frame = IBeacon(uuid: neighbourhoodUUID, major: 9, minor: 9, measuredPower: -60)
        let data = AdvertisingData([.manufacturerData(company: 0x0059, data: [1, 2, 3]), frame.structure])
        #expect(try IBeacon(advertisingData: data) == frame)
        let onlyOther = AdvertisingData([.manufacturerData(company: 0x0059, data: [1, 2, 3])])
        #expect(throws: BeaconFrameError(format: "iBeacon", field: "companyIdentifier", reason: .wrongCompany(0x0059))) {
            try IBeacon(advertisingData: onlyOther)
        }
    }

    @Test("Every truncation, extension and bit flip of a frame is rejected or decodes to a frame that round-trips")
    func malformedInput() throws {
        let valid = try bytes(Self.bumble)
        let result = MalformedBeaconInput.check(valid, decode: { (input: [UInt8]) throws(BeaconFrameError) -> IBeacon in
            try IBeacon(decoding: input)
        }, reencode: { $0.advertisingData.encoded() })
        // All 30 truncations, two of the three extensions (a zero octet is padding, which
        // advertising data allows), and every flip of the AD length, AD type, company,
        // beacon type and length octets (8 bits × 6 octets) at least.
        #expect(result.rejected >= 30 + 2 + 48)
        #expect(result.total == 30 + 3 + 30 * 8)
    }

    @Test("Proximity UUIDs parse in any case, print uppercase and keep their octet order")
    func proximityUUID() throws {
        let uuid = try #require(ProximityUUID("e2c56db5-dffb-48d2-b060-d0f5a71096e0"))
        #expect(uuid == neighbourhoodUUID)
        #expect(uuid.description == "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")
        #expect(uuid.octets.first == 0xE2 && uuid.octets.last == 0xE0 && uuid.octets.count == 16)
        #expect(ProximityUUID(octets: uuid.octets) == uuid)
        #expect(ProximityUUID(octets: [UInt8](repeating: 0, count: 15)) == nil)
        #expect(ProximityUUID("180D") == nil)
        #expect(ProximityUUID("E2C56DB5DFFB48D2B060D0F5A71096E0") == nil)
        #expect(ProximityUUID("g2c56db5-dffb-48d2-b060-d0f5a71096e0") == nil)
    }
}
