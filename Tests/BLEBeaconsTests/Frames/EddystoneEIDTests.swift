import BLEBeacons
import Testing

@Suite("Eddystone-EID computation and resolution")
struct EddystoneEIDTests {
    /// The identity key of the published vectors (github.com/RadiusNetworks/ephemeral_calc,
    /// spec/encryptor_spec.rb). The Eddystone specification (google/eddystone,
    /// eddystone-eid/eid-computation.md) gives the procedure but no vectors.
    static let identityKey: UInt128 = 0x0102_0304_0506_0708_090A_1112_1314_1516

    @Test("ephemeral_calc's vectors: K = 10 gives A9B76A71C5F89290 at counter 0 and 4144413E45FEFA58 at 2000")
    func publishedVectors() throws {
        let key = try EddystoneEIDKey(identityKey: Self.identityKey, rotationExponent: 10)
        #expect(try key.ephemeralIdentifier(timeCounter: 0) == 0xA9B7_6A71_C5F8_9290)
        // 2000 s lies in the second 1024-s period, which starts at 1024.
        #expect(try key.ephemeralIdentifier(timeCounter: 2000) == 0x4144_413E_45FE_FA58)
        #expect(try key.ephemeralIdentifier(timeCounter: 1024) == 0x4144_413E_45FE_FA58)
        #expect(try key.ephemeralIdentifier(timeCounter: 1023) == 0xA9B7_6A71_C5F8_9290)
    }

    @Test("The temporary key changes every 65,536 s and the identifier with it")
    func temporaryKeyRollover() throws {
        // Computed with Python's `cryptography` AES-128-ECB following the two steps of
        // eid-computation.md (as eidtools.py's GetAndPrintEid does); the counter 65,280 is
        // the one the document recommends for testing the roll-over.
        let key = try EddystoneEIDKey(identityKey: Self.identityKey, rotationExponent: 10)
        #expect(try key.temporaryKey(timeCounter: 65_535) == 0x6F29_1C5C_4826_4B8A_0B38_A19E_7FED_73CC)
        #expect(try key.temporaryKey(timeCounter: 65_536) == 0x1ED0_B977_C6C3_88FA_494E_C448_2123_AFC7)
        #expect(try key.ephemeralIdentifier(timeCounter: 65_280) == 0xA2A2_BD39_4FF7_6EF2)
        #expect(try key.ephemeralIdentifier(timeCounter: 65_535) == 0xA2A2_BD39_4FF7_6EF2)
        #expect(try key.ephemeralIdentifier(timeCounter: 65_536) == 0x3969_73B4_0660_265B)
        let fastest = try EddystoneEIDKey(identityKey: Self.identityKey, rotationExponent: 0)
        #expect(try fastest.ephemeralIdentifier(timeCounter: 1) == 0x3F62_34E3_95E5_D2E9)
        let slowest = try EddystoneEIDKey(identityKey: Self.identityKey, rotationExponent: 15)
        #expect(try slowest.temporaryKey(timeCounter: .max) == 0x5461_1A98_BAE0_DBDC_A7CA_A9B6_A48B_6859)
        #expect(try slowest.ephemeralIdentifier(timeCounter: .max) == 0xCD58_CBBA_04AA_DCE5)
    }

    @Test("A rotation exponent above 15 is refused")
    func exponentRange() {
        #expect(throws: EddystoneEIDError.rotationExponentOutOfRange(16)) {
            try EddystoneEIDKey(identityKey: 1, rotationExponent: 16)
        }
    }

    @Test("Periods start at multiples of 2^K")
    func periods() throws {
        let key = try EddystoneEIDKey(identityKey: 1, rotationExponent: 4)
        #expect(key.rotationPeriod == 16)
        #expect(key.periodStart(of: 31) == 16 && key.periodStart(of: 32) == 32 && key.periodStart(of: 15) == 0)
    }

    @Test("A resolver names the beacon from its identifier, within one period of drift either side")
    func resolution() throws {
        let key = try EddystoneEIDKey(identityKey: Self.identityKey, rotationExponent: 10)
        let other = try EddystoneEIDKey(identityKey: 0xFFEE, rotationExponent: 10)
        // Registered when the observer's clock read 100 s and the beacon's counter 0.
        let resolver = EddystoneEIDResolver(registrations: [
            .init(identifier: "other", key: other, timeCounter: 5_000, registeredAt: seconds(100)),
            .init(identifier: "lobby", key: key, timeCounter: 0, registeredAt: seconds(100)),
        ])
        // At observer time 2,100 s the beacon's counter should read 2,000: period 1024.
        let current = try resolver.resolve(0x4144_413E_45FE_FA58, at: seconds(2_100))
        #expect(current == .init(identifier: "lobby", periodStart: 1024))
        // The beacon's clock lags a period: still resolved, to period 0.
        #expect(try resolver.resolve(0xA9B7_6A71_C5F8_9290, at: seconds(2_100))?.periodStart == 0)
        // Two periods off is beyond the default tolerance.
        #expect(try resolver.resolve(0xA9B7_6A71_C5F8_9290, at: seconds(2_600)) == nil)
        let wider = EddystoneEIDResolver(registrations: resolver.registrations, tolerancePeriods: 2)
        #expect(try wider.resolve(0xA9B7_6A71_C5F8_9290, at: seconds(2_600))?.identifier == "lobby")
        #expect(try resolver.resolve(0x0123_4567_89AB_CDEF, at: seconds(2_100)) == nil)
        let frame = try key.frame(timeCounter: 2_000, txPower: -20)
        #expect(try resolver.resolve(frame.ephemeralIdentifier, at: seconds(2_100))?.identifier == "lobby")
    }
}
