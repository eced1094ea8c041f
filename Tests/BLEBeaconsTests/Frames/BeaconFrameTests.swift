import BLEBeacons
import BLEWire
import Testing

@Suite("Any beacon frame")
struct BeaconFrameTests {
    @Test("Each format is recognised with its identity and its RSSI at 1 m")
    func dispatch() throws {
        let iBeacon = try #require(BeaconFrame(decoding: bytes(IBeaconTests.bumble)))
        #expect(iBeacon.identity == .iBeacon(IBeaconIdentity(uuid: neighbourhoodUUID, major: 1, minor: 2)))
        #expect(iBeacon.measuredPower == -59)
        let altBeacon = try #require(BeaconFrame(decoding: bytes(AltBeaconTests.reference)))
        #expect(altBeacon.identity == .altBeacon([UInt8](repeating: 0, count: 16) + [0, 1, 0, 1]))
        #expect(altBeacon.measuredPower == -59)
        let url = try #require(BeaconFrame(decoding: bytes(EddystoneFrameTests.neighbourhoodURL)))
        #expect(url.identity == .eddystoneURL("https://example.com"))
        #expect(url.measuredPower == -62)
        #expect(url.identity?.description == "Eddystone-URL https://example.com")
        let tlm = try #require(BeaconFrame(decoding: bytes(EddystoneFrameTests.mikrotikTLM)))
        #expect(tlm.identity == nil && tlm.measuredPower == nil)
        let eid = BeaconFrame.eddystone(.eid(EddystoneEIDFrame(txPower: -20, ephemeralIdentifier: 0xAB)))
        #expect(eid.identity?.description == "Eddystone-EID 00000000000000ab")
        for frame in [iBeacon, altBeacon, url, tlm, eid] {
            #expect(BeaconFrame(advertisingData: frame.advertisingData) == frame)
        }
    }

    @Test("Advertising data that is no beacon, or no advertising data at all, gives nil")
    func notBeacons() throws {
        // Bumble's ADV_IND data (BLEWireTests): flags, 180F, a 128-bit UUID, company 0xFFFF.
        let bumble = try bytes("020106 03030f18 1107f0debc9a78563412785634127856341205 ffffff0102")
        #expect(BeaconFrame(decoding: bumble) == nil)
        #expect(BeaconFrame(decoding: [0x05, 0xFF]) == nil)
        #expect(BeaconFrame(decoding: []) == nil)
        // The neighbourhood's "Tag": company 0x0059 with six octets.
        #expect(BeaconFrame(advertisingData: AdvertisingData([.manufacturerData(company: 0x0059, data: [2, 1, 0xA1, 0xB2, 0xC3, 0xD4])])) == nil)
    }

    @Test("Errors read as one sentence naming format, field and reason")
    func errorText() {
        let error = BeaconFrameError(format: "iBeacon", field: "companyIdentifier", reason: .wrongCompany(0x0059))
        #expect(error.description == "iBeacon.companyIdentifier: company 0x0059 is not this format's")
        let length = BeaconFrameError(format: "Eddystone-UID", field: "serviceData", reason: .wrongLength(expected: 18 ... 20, actual: 19))
        #expect(length.description == "Eddystone-UID.serviceData: 19 octet(s) where the format has 18–20")
    }
}
