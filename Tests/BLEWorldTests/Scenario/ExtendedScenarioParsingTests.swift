import BLEController
import BLEWire
import BLEWorld
import Testing

/// The scenario keys of Bluetooth 5: `advertise` with an extended set on LE 1M, 2M or Coded,
/// and `scan` extended on LE 1M and Coded, and the HCI commands their scripted hosts send.
@Suite("Extended advertising and scanning in scenario files")
struct ExtendedScenarioParsingTests {
    /// The error parsing `yaml` throws, if any.
    static func failure(_ yaml: String) -> ScenarioError? {
        do {
            _ = try ScenarioLoader.parse(yaml: yaml, file: "bad.yaml")
            return nil
        } catch {
            return error
        }
    }

    /// A file with one device advertising `advertise`.
    static func advertiser(_ advertise: String) -> String {
        "devices:\n  - name: b\n    advertise: \(advertise)\n    address: \"00:1B:DC:00:00:01\"\n"
    }

    /// A file with one device scanning `scan`.
    static func scanner(_ scan: String) -> String {
        "devices:\n  - name: g\n    scan: \(scan)\n    address: \"00:1B:DC:00:00:02\"\n"
    }

    /// The parameters of the first command of `type` among `commands`.
    static func command<Command: HCICommand>(_ type: Command.Type, in commands: [HCI.CommandPacket]) throws -> Command {
        try Command(decoding: Array(try #require(commands.first { $0.opcode == Command.opcode }).parameters))
    }

    @Test("phy, secondaryPHY and codedS decode to an extended set; extended: true alone is LE 1M")
    func decodesSets() throws {
        let coded = try ScenarioLoader.parse(yaml: Self.advertiser("{type: nonconn_ind, phy: coded, codedS: 2, name: B}"), file: "a.yaml")
        #expect(coded.devices[0].advertising?.extended == ScenarioAdvertising.Extended(primaryPHY: .leCoded, secondaryPHY: .leCoded, coding: .s2))
        let twoMegabit = try ScenarioLoader.parse(yaml: Self.advertiser("{extended: true, secondaryPHY: 2m, name: B}"), file: "a.yaml")
        #expect(twoMegabit.devices[0].advertising?.extended == ScenarioAdvertising.Extended(primaryPHY: .le1M, secondaryPHY: .le2M))
        let plain = try ScenarioLoader.parse(yaml: Self.advertiser("{extended: true, name: B}"), file: "a.yaml")
        #expect(plain.devices[0].advertising?.extended == ScenarioAdvertising.Extended())
        let legacy = try ScenarioLoader.parse(yaml: Self.advertiser("{name: B}"), file: "a.yaml")
        #expect(legacy.devices[0].advertising?.extended == nil)
    }

    @Test("Bad extended advertising values are refused with the key and line")
    func refusesBadAdvertising() throws {
        let cases: [(String, String, String)] = [
            ("{phy: 2m, name: B}", "devices[0].advertise.phy", "ADV_EXT_IND"),
            ("{phy: fast, name: B}", "devices[0].advertise.phy", "1m or coded"),
            ("{phy: coded, codedS: 4, name: B}", "devices[0].advertise.codedS", "2 (500 kb/s) or 8"),
            ("{extended: true, codedS: 8, name: B}", "devices[0].advertise.codedS", "applies to LE Coded"),
            ("{extended: false, phy: coded, name: B}", "devices[0].advertise.phy", "drop extended: false"),
            ("{type: scan_ind, phy: coded, name: B}", "devices[0].advertise.name", "AUX_SCAN_RSP"),
            ("{type: ind, phy: coded, name: B, scanResponse: {name: C}}", "devices[0].advertise.scanResponse", "not scannable"),
            ("{phy: coded, secondaryPHY: 3m, name: B}", "devices[0].advertise.secondaryPHY", "1m or 2m or coded"),
        ]
        for (advertise, path, words) in cases {
            let error = try #require(Self.failure(Self.advertiser(advertise)), "\(advertise)")
            #expect(error.kind == .invalidField, "\(advertise)")
            #expect(error.path == path, "\(advertise): \(error)")
            #expect(error.line == 3, "\(advertise): \(error)")
            #expect(error.file == "bad.yaml")
            #expect(error.message.contains(words), "\(advertise): \(error.message)")
        }
    }

    @Test("phy or phys make a scan extended; bad values are refused with the key and line")
    func scans() throws {
        let coded = try ScenarioLoader.parse(yaml: Self.scanner("{interval: 100, window: 50, phy: coded}"), file: "s.yaml")
        #expect(coded.devices[0].scanning?.extendedPHYs == [.leCoded])
        let both = try ScenarioLoader.parse(yaml: Self.scanner("{phys: [coded, 1m]}"), file: "s.yaml")
        #expect(both.devices[0].scanning?.extendedPHYs == [.le1M, .leCoded])
        let oneMegabit = try ScenarioLoader.parse(yaml: Self.scanner("{extended: true}"), file: "s.yaml")
        #expect(oneMegabit.devices[0].scanning?.extendedPHYs == [.le1M])
        #expect(try ScenarioLoader.parse(yaml: Self.scanner("{interval: 100}"), file: "s.yaml").devices[0].scanning?.extendedPHYs == nil)
        let cases: [(String, String, String)] = [
            ("{phy: 2m}", "devices[0].scan.phy", "LE 2M carries no advertising"),
            ("{phy: coded, phys: [1m]}", "devices[0].scan.phys", "not both"),
            ("{phys: [coded, coded]}", "devices[0].scan.phys", "listed twice"),
            ("{phys: []}", "devices[0].scan.phys", "at least one PHY"),
            ("{extended: false, phys: [coded]}", "devices[0].scan.phys", "drop extended: false"),
        ]
        for (scan, path, words) in cases {
            let error = try #require(Self.failure(Self.scanner(scan)), "\(scan)")
            #expect(error.path == path, "\(scan): \(error)")
            #expect(error.line == 3, "\(scan): \(error)")
            #expect(error.message.contains(words), "\(scan): \(error.message)")
        }
    }

    @Test("A GATT device advertises the legacy way, and a copier scans it")
    func refusedCompanions() throws {
        let gatt = try #require(Self.failure("devices:\n  - name: s\n    gatt: [battery]\n    advertise: {type: ind, phy: coded, name: S}\n"))
        #expect(gatt.path == "devices[0].advertise" && gatt.message.contains("legacy commands"), "\(gatt)")
        let copier = try #require(Self.failure("""
            devices:
              - name: b
                advertise: {type: nonconn_ind, name: B}
              - name: c
                scan: {phy: coded}
                copies: {device: b, captureUntil: 1, replayFrom: 2}
            """))
        #expect(copier.path == "devices[1].scan" && copier.message.contains("copies legacy advertising"), "\(copier)")
    }

    @Test("An extended set's scripted host sends the extended commands, its data in fragments of 251 octets")
    func extendedCommands() throws {
        let data = String(repeating: "ab", count: 1_000)
        let scenario = try ScenarioLoader.parse(yaml: """
            devices:
              - name: b
                address: "C0:00:00:00:00:01"
                addressType: random
                advertise: {type: nonconn_ind, phy: coded, codedS: 8, raw: "\(data)"}
            """, file: "a.yaml")
        let plan = try #require(try scenario.devices[0].advertisingPlan())
        let commands = ScriptedHost(plan: plan).setupCommands()
        #expect(commands.map(\.opcode) == [HCI.Reset.opcode, HCI.SetEventMask.opcode, HCI.LESetEventMask.opcode,
                                           HCI.LESetExtendedAdvertisingParametersV2.opcode, HCI.LESetAdvertisingSetRandomAddress.opcode]
                + Array(repeating: HCI.LESetExtendedAdvertisingData.opcode, count: 4) + [HCI.LESetExtendedAdvertisingEnable.opcode])
        let fragments = try commands.filter { $0.opcode == HCI.LESetExtendedAdvertisingData.opcode }
            .map { try HCI.LESetExtendedAdvertisingData(decoding: Array($0.parameters)) }
        #expect(fragments.map(\.operation) == [.firstFragment, .intermediateFragment, .intermediateFragment, .lastFragment])
        #expect(fragments.map(\.advertisingData.count) == [251, 251, 251, 247])
        #expect(fragments.flatMap(\.advertisingData) == Array(repeating: 0xAB, count: 1_000))
        let parameters = try Self.command(HCI.LESetExtendedAdvertisingParametersV2.self, in: commands)
        #expect(parameters.parameters.primaryAdvertisingPHY == .leCoded && parameters.parameters.secondaryAdvertisingPHY == .leCoded)
        #expect(parameters.parameters.advertisingEventProperties == [])
        #expect(parameters.parameters.primaryAdvertisingIntervalMin == 160)
        #expect(parameters.primaryAdvertisingPHYOptions == .requireS8)
    }

    @Test("Extended data over what the set holds names the device; what it holds loads")
    func tooLong() throws {
        for (type, octets, limit) in [("nonconn_ind", 1_651, "1650"), ("ind", 246, "245")] {
            let error = try #require(Self.failure(Self.advertiser("{type: \(type), extended: true, raw: \"\(String(repeating: "00", count: octets))\"}")))
            #expect(error.kind == .advertisingDataTooLong && error.device == "b" && error.message.contains(limit), "\(error)")
            let fits = Self.advertiser("{type: \(type), extended: true, raw: \"\(String(repeating: "00", count: octets - 1))\"}")
            #expect(Self.failure(fits) == nil)
        }
    }

    @Test("A legacy advertiser and scanner send exactly the legacy commands")
    func legacyUnchanged() throws {
        let advertiser = try ScenarioLoader.parse(yaml: Self.advertiser("{type: nonconn_ind, name: B}"), file: "a.yaml")
        let host = ScriptedHost(plan: try #require(try advertiser.devices[0].advertisingPlan()))
        #expect(host.setupCommands().map(\.opcode) == [HCI.Reset.opcode, HCI.SetEventMask.opcode, HCI.LESetAdvertisingParameters.opcode,
                                                       HCI.LESetAdvertisingData.opcode, HCI.LESetAdvertisingEnable.opcode])
        let scanner = try ScenarioLoader.parse(yaml: Self.scanner("{interval: 100}"), file: "s.yaml")
        let scan = ScriptedScanner(plan: try #require(scanner.devices[0].scanningPlan()))
        #expect(scan.setupCommands().map(\.opcode) == [HCI.Reset.opcode, HCI.SetEventMask.opcode, HCI.LESetScanParameters.opcode,
                                                       HCI.LESetScanEnable.opcode])
        #expect(!advertiser.devices[0].usesExtendedCommands && !scanner.devices[0].usesExtendedCommands)
    }

    @Test("An extended scanner asks for LE Extended Advertising Reports and scans each PHY with the file's interval and window")
    func extendedScanCommands() throws {
        let scenario = try ScenarioLoader.parse(yaml: Self.scanner("{interval: 100, window: 50, phys: [1m, coded]}"), file: "s.yaml")
        let commands = ScriptedScanner(plan: try #require(scenario.devices[0].scanningPlan())).setupCommands()
        #expect(commands.map(\.opcode) == [HCI.Reset.opcode, HCI.SetEventMask.opcode, HCI.LESetEventMask.opcode,
                                           HCI.LESetExtendedScanParameters.opcode, HCI.LESetExtendedScanEnable.opcode])
        let mask = try Self.command(HCI.LESetEventMask.self, in: commands)
        #expect(mask.leEventMask.contains(.extendedAdvertisingReport))
        let parameters = try Self.command(HCI.LESetExtendedScanParameters.self, in: commands)
        let each = HCI.LESetExtendedScanParameters.PHYParameters(scanType: .passive, scanInterval: 160, scanWindow: 80)
        #expect(parameters.le1M == each && parameters.leCoded == each)
        #expect(scenario.devices[0].usesExtendedCommands)
    }
}
