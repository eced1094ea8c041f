import BLEBeacons
import BLEWire
import Testing

@Suite("Eddystone frames")
struct EddystoneFrameTests {
    /// Scenarios/neighbourhood.yaml, "Eddystone URL": https:// + "example" + .com, -21 dBm at 0 m.
    static let neighbourhoodURL = "020106 0303aafe 0e16aafe10eb036578616d706c6507"
    /// github.com/frawau/aioblescan, tests/test_eddystone.py: https://makecode.com/#about, -10 dBm.
    static let makecodeURL = "020106 0303aafe 1516aafe10f603 6d616b65636f6465 00 2361626f7574"
    /// The same test file's UID frame without the reserved octets (Service Data length 0x15).
    static let shortUID = "020106 0303aafe 1516aafe00f6 00000000000000000063 000000000058"
    /// MikroTik RouterOS manual (Bluetooth, peripheral-devices example): a UID frame with
    /// its reserved octets, -27 dBm at 0 m, namespace b2b98de4c81c47c2b14e, instance 750000000000.
    static let mikrotikUID = "0303aafe 1716aafe00e5 b2b98de4c81c47c2b14e 750000000000 0000"
    /// The same manual's TLM frame: 2.928 V, 21.285 °C, 37,040,856 PDUs, 3,724,474.2 s.
    static let mikrotikTLM = "020106 0303aafe 1116aafe2000 0b70 1549 023532d8 02384f46"

    @Test("The neighbourhood's Eddystone-URL expands to https://example.com at -21 dBm")
    func neighbourhood() throws {
        let frame = try EddystoneFrame(decoding: bytes(Self.neighbourhoodURL))
        guard case let .url(url) = frame else { Issue.record("not a URL frame: \(frame)"); return }
        #expect(url.url == "https://example.com")
        #expect(url.txPower == -21)
        #expect(frame.measuredPowerAt1m == -62)
        #expect(frame.advertisingData.encoded() == (try bytes(Self.neighbourhoodURL)))
        #expect(try EddystoneURL(url: "https://example.com", txPower: -21) == url)
    }

    @Test("A real URL frame with a .com/ expansion in the middle decodes and round-trips")
    func makecode() throws {
        guard case let .url(url) = try EddystoneFrame(decoding: bytes(Self.makecodeURL)) else { Issue.record("not a URL frame"); return }
        #expect(url.url == "https://makecode.com/#about")
        #expect(url.txPower == -10)
        #expect(try EddystoneURL(url: url.url, txPower: -10).serviceData == url.serviceData)
    }

    @Test("UID frames decode with and without their reserved octets and keep the form they came in")
    func uid() throws {
        guard case let .uid(short) = try EddystoneFrame(decoding: bytes(Self.shortUID)) else { Issue.record("not UID"); return }
        #expect(short.txPower == -10)
        #expect(short.namespace == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0x63])
        #expect(short.instance == [0, 0, 0, 0, 0, 0x58])
        #expect(short.reserved == nil)
        #expect(EddystoneFrame.uid(short).advertisingData.encoded() == (try bytes(Self.shortUID)))
        guard case let .uid(full) = try EddystoneFrame(decoding: bytes(Self.mikrotikUID)) else { Issue.record("not UID"); return }
        #expect(Hex.encode(full.namespace) == "b2b98de4c81c47c2b14e" && Hex.encode(full.instance) == "750000000000")
        #expect(full.txPower == -27 && full.reserved == 0)
        #expect(EddystoneFrame.uid(full).measuredPowerAt1m == -68)
        let built = try EddystoneUID(txPower: -27, namespace: full.namespace, instance: full.instance)
        #expect(built == full)
        #expect(try EddystoneFrame.uid(built).advertisingData.encodedLegacy().count == 31)
    }

    @Test("The TLM frame decodes battery, 8.8 temperature, PDU count and tenths of seconds")
    func telemetry() throws {
        guard case let .telemetry(tlm) = try EddystoneFrame(decoding: bytes(Self.mikrotikTLM)) else { Issue.record("not TLM"); return }
        #expect(tlm.batteryMillivolts == 2928 && tlm.batteryVoltage == 2.928)
        #expect(tlm.temperatureFixedPoint == 0x1549 && tlm.temperature == 21 + 73.0 / 256)
        #expect(tlm.advertisingCount == 37_040_856)
        #expect(tlm.uptimeTenths == 37_244_742 && tlm.uptimeSeconds == 3_724_474.2)
        #expect(EddystoneFrame.telemetry(tlm).advertisingData.encoded() == (try bytes(Self.mikrotikTLM)))
        #expect(EddystoneFrame.telemetry(tlm).measuredPowerAt1m == nil)
    }

    @Test("TLM's 'not supported' values and negative temperatures")
    func telemetryEdges() throws {
        let cold = EddystoneTelemetry(batteryMillivolts: 0, temperature: -0.5, advertisingCount: 7, uptimeTenths: 5)
        #expect(cold.temperatureFixedPoint == -128 && cold.temperature == -0.5 && cold.batteryVoltage == nil)
        #expect(Hex.encode(cold.serviceData) == "20000000ff800000000700000005")
        let unknown = EddystoneTelemetry(batteryMillivolts: 2500, temperature: nil, advertisingCount: 0, uptimeTenths: 0)
        #expect(unknown.temperatureFixedPoint == Int16.min && unknown.temperature == nil)
        #expect(EddystoneTelemetry(batteryMillivolts: 1, temperature: 1000, advertisingCount: 0, uptimeTenths: 0).temperatureFixedPoint == Int16.max)
        #expect(try EddystoneTelemetry(serviceData: cold.serviceData[...]) == cold)
    }

    @Test("Encrypted TLM (version 1) is refused with its version, not misread")
    func encryptedTelemetry() throws {
        let etlm = try bytes("2001 000102030405060708090a0b 1234 abcd 00")
        #expect(throws: BeaconFrameError(format: "Eddystone-TLM", field: "version", reason: .unsupportedVersion(1))) {
            try EddystoneFrame(serviceData: etlm[...])
        }
    }

    @Test("EID frames carry TX power and the 8-octet identifier, exactly 10 octets")
    func eidFrame() throws {
        let frame = EddystoneEIDFrame(txPower: -20, ephemeralIdentifier: 0xA9B7_6A71_C5F8_9290)
        #expect(Hex.encode(frame.serviceData) == "30eca9b76a71c5f89290")
        #expect(try EddystoneFrame(decoding: EddystoneFrame.eid(frame).advertisingData.encoded()) == .eid(frame))
        #expect(throws: BeaconFrameError.self) { try EddystoneEIDFrame(serviceData: (frame.serviceData + [0])[...]) }
    }

    @Test("URLs compress with the longest scheme and expansions, and the limits are enforced")
    func urlCompression() throws {
        let cases: [(String, String)] = [
            ("http://www.example.com/", "00 6578616d706c65 00"),
            ("https://www.example.org", "01 6578616d706c65 08"),
            ("http://a.info/b.gov", "02 61 04 62 0d"),
            ("https://goo.gl/S6zT6P", "03 676f6f2e676c2f53367a543650"),
            ("https://x.com.net/", "03 78 07 03"),
        ]
        for (text, hex) in cases {
            let url = try EddystoneURL(url: text, txPower: 0)
            #expect(Hex.encode([url.schemeCode] + url.encodedURL) == hex.filter { !$0.isWhitespace }, "\(text)")
            #expect(url.url == text)
            #expect(try EddystoneURL(serviceData: url.serviceData[...]) == url)
        }
        func reason(_ text: String) -> BeaconFrameError.Reason? {
            do { _ = try EddystoneURL(url: text, txPower: 0); return nil } catch { return error.reason }
        }
        #expect(reason("ftp://example.com") != nil)
        #expect(reason("https://") != nil)
        #expect(reason("https://exa mple.com") != nil)
        #expect(reason("https://é.com") != nil)
        #expect(reason("https://abcdefghijklmnopq") == nil) // 17 characters fit …
        #expect(reason("https://abcdefghijklmnopqr") != nil) // … 18 do not
        #expect(reason("https://abcdefghijklmnopqr.com/") != nil)
        #expect(reason("https://abcdefghijklmnop.com/") == nil) // 16 + one expansion code = 17
    }

    @Test("Reserved scheme codes, reserved URL codes, unknown frame types and foreign UUIDs are not Eddystone")
    func strictness() throws {
        func reason(_ hex: String) throws -> BeaconFrameError.Reason? {
            let input = try bytes(hex)
            do { _ = try EddystoneFrame(decoding: input); return nil } catch { return error.reason }
        }
        #expect(try reason("0716aafe10eb0461") == .reservedValue(4)) // scheme code 4
        #expect(try reason("0716aafe10eb030e") == .reservedValue(0x0E)) // URL code 0x0E
        #expect(try reason("0716aafe10eb0320") == .reservedValue(0x20)) // space
        #expect(try reason("0716aafe10eb037f") == .reservedValue(0x7F))
        #expect(try reason("0616aafe10eb03") == .wrongLength(expected: 4 ... 20, actual: 3)) // empty URL
        #expect(try reason("0416aafe40") == .wrongType(0x40)) // reserved frame type
        #expect(try reason("0416aafe01") == .wrongType(0x01)) // low nibble must be zero
        #expect(try reason("0716aaff10eb0361") == .wrongType(0xFFAA)) // another service
        #expect(try reason("0303aafe") == .absent)
        #expect(try reason("1616aafe00f6" + String(repeating: "00", count: 17)) == .wrongLength(expected: 18 ... 20, actual: 19))
    }

    @Test("Every truncation, extension and bit flip of real frames is rejected or round-trips")
    func malformedInput() throws {
        for hex in [Self.neighbourhoodURL, Self.makecodeURL, Self.mikrotikUID, Self.mikrotikTLM] {
            let valid = try bytes(hex)
            let result = MalformedBeaconInput.check(valid, decode: { (input: [UInt8]) throws(BeaconFrameError) -> EddystoneFrame in
                try EddystoneFrame(decoding: input)
            }, reencode: { $0.advertisingData.encoded() })
            #expect(result.rejected >= valid.count + 2, "\(hex): \(result)")
        }
    }
}
