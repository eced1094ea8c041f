import BLEBeacons
import BLEWire
import Testing

@Suite("AltBeacon frames")
struct AltBeaconTests {
    /// The advertisement of the AltBeacon reference transmit script
    /// (github.com/RadiusNetworks/altbeacon-reference, altbeacon_transmit): flags 0x1A,
    /// company 0x0118, code BE AC, ID 16 × 00 + 00 01 + 00 01, reference RSSI -59 (0xC5),
    /// reserved 0x01.
    static let reference = "02011a 1bff1801beac 00000000000000000000000000000000 0001 0001 c5 01"

    @Test("The reference script's frame decodes to its company, ID, reference RSSI and reserved octet")
    func referenceFrame() throws {
        let frame = try AltBeacon(decoding: bytes(Self.reference))
        #expect(frame.companyIdentifier == 0x0118)
        #expect(frame.beaconID == [UInt8](repeating: 0, count: 16) + [0, 1, 0, 1])
        #expect(frame.id1 == ProximityUUID(0) && frame.id2 == 1 && frame.id3 == 1)
        #expect(frame.referenceRSSI == -59)
        #expect(frame.manufacturerReserved == 0x01)
        #expect(frame.structure.encoded() == Array((try bytes(Self.reference)).dropFirst(3)))
        #expect(frame.structure.encoded().count == 28)
    }

    @Test("An encoded AltBeacon fills the 31 octets and decodes back")
    func roundTrip() throws {
        let frame = AltBeacon(companyIdentifier: 0x004C, uuid: neighbourhoodUUID, group: 0xBEEF, unit: 7, referenceRSSI: -127,
                              manufacturerReserved: 0xFF)
        let encoded = try frame.advertisingData.encodedLegacy()
        #expect(encoded.count == 31)
        #expect(Hex.encode(encoded.prefix(9)) == "0201061bff4c00beac")
        #expect(try AltBeacon(decoding: encoded) == frame)
        #expect(frame.id1 == neighbourhoodUUID && frame.id2 == 0xBEEF && frame.id3 == 7)
        let fromID = try AltBeacon(companyIdentifier: 0x004C, beaconID: frame.beaconID, referenceRSSI: -127, manufacturerReserved: 0xFF)
        #expect(fromID == frame)
    }

    @Test("An ID that is not 20 octets cannot be built")
    func idLength() {
        #expect(throws: BeaconFrameError(format: "AltBeacon", field: "beaconID", reason: .wrongLength(expected: 20 ... 20, actual: 16))) {
            try AltBeacon(beaconID: [UInt8](repeating: 1, count: 16), referenceRSSI: -60)
        }
    }

    @Test("Another beacon code or another length is not an AltBeacon, and an iBeacon is not one")
    func strictness() throws {
        let valid = try bytes(Self.reference)
        func reason(_ input: [UInt8]) -> BeaconFrameError.Reason? {
            do { _ = try AltBeacon(decoding: input); return nil } catch { return error.reason }
        }
        var code = valid
        code[8] = 0xAD
        #expect(reason(code) == .wrongType(0xBEAD))
        var longer = valid
        longer[3] = 0x1C
        longer.insert(0x00, at: 30)
        #expect(reason(longer) == .wrongLength(expected: 24 ... 24, actual: 25))
        #expect(reason(try bytes(IBeaconTests.bumble)) == .wrongType(0x0215))
        #expect(reason(Array(valid.prefix(3))) == .absent)
    }

    @Test("Every truncation, extension and bit flip of a frame is rejected or decodes to a frame that round-trips")
    func malformedInput() throws {
        let valid = try bytes(Self.reference)
        let result = MalformedBeaconInput.check(valid, decode: { (input: [UInt8]) throws(BeaconFrameError) -> AltBeacon in
            try AltBeacon(decoding: input)
        }, reencode: { $0.advertisingData.encoded() })
        // Truncations, two extensions, and every flip of AD length, AD type and beacon code.
        #expect(result.rejected >= 31 + 2 + 32)
    }
}
