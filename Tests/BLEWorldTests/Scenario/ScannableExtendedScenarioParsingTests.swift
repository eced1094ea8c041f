import BLEController
import BLEWire
import BLEWorld
import Testing

/// A scannable extended set in a scenario file (Core 5.4, Vol 6, Part B, §4.4.2.7):
/// `advertise: {type: scan_ind, extended: true, scanResponse: …}`, its data sent only in
/// AUX_SCAN_RSP, and the commands its scripted host sends.
@Suite("Scannable extended sets in scenario files")
struct ScannableExtendedScenarioParsingTests {
    /// A file with one device advertising `advertise`.
    static func advertiser(_ advertise: String) -> String {
        "devices:\n  - name: b\n    advertise: \(advertise)\n    address: \"C0:00:00:00:00:01\"\n    addressType: random\n"
    }

    /// The error parsing `yaml` throws, if any.
    static func failure(_ yaml: String) -> ScenarioError? {
        do {
            _ = try ScenarioLoader.parse(yaml: yaml, file: "bad.yaml")
            return nil
        } catch {
            return error
        }
    }

    @Test("type: scan_ind with extended: true is a scannable set: parameters scannable, its scan response in fragments, no advertising data")
    func scannableSet() throws {
        let response = String(repeating: "cd", count: 600)
        let scenario = try ScenarioLoader.parse(yaml: Self.advertiser("{type: scan_ind, extended: true, secondaryPHY: 2m, scanResponse: {raw: \"\(response)\"}}"),
                                                file: "a.yaml")
        let advertising = try #require(scenario.devices[0].advertising)
        #expect(advertising.kind == .scanInd && advertising.extended == ScenarioAdvertising.Extended(primaryPHY: .le1M, secondaryPHY: .le2M))
        let plan = try #require(try scenario.devices[0].advertisingPlan())
        #expect(plan.advertisingData.isEmpty && plan.scanResponseData == Array(repeating: 0xCD, count: 600))
        let commands = ScriptedHost(plan: plan).setupCommands()
        #expect(commands.map(\.opcode) == [HCI.Reset.opcode, HCI.SetEventMask.opcode, HCI.LESetEventMask.opcode,
                                           HCI.LESetExtendedAdvertisingParametersV2.opcode, HCI.LESetAdvertisingSetRandomAddress.opcode]
                + Array(repeating: HCI.LESetExtendedScanResponseData.opcode, count: 3) + [HCI.LESetExtendedAdvertisingEnable.opcode])
        let fragments = try commands.filter { $0.opcode == HCI.LESetExtendedScanResponseData.opcode }
            .map { try HCI.LESetExtendedScanResponseData(decoding: Array($0.parameters)) }
        #expect(fragments.map(\.operation) == [.firstFragment, .intermediateFragment, .lastFragment])
        #expect(fragments.flatMap(\.scanResponseData) == Array(repeating: 0xCD, count: 600))
        let parameters = try HCI.LESetExtendedAdvertisingParametersV2(
            decoding: Array(try #require(commands.first { $0.opcode == HCI.LESetExtendedAdvertisingParametersV2.opcode }).parameters))
        #expect(parameters.parameters.advertisingEventProperties == [.scannable])
        #expect(scenario.devices[0].usesExtendedCommands)
    }

    @Test("Bad scannable extended sets are refused with the key and line")
    func refusals() throws {
        let cases: [(String, String, String)] = [
            ("{type: scan_ind, extended: true, name: B, scanResponse: {name: C}}", "devices[0].advertise.name", "move name into scanResponse"),
            ("{type: scan_ind, extended: true}", "devices[0].advertise.scanResponse", "needs a scanResponse"),
            ("{type: nonconn_ind, extended: true, scanResponse: {name: C}}", "devices[0].advertise.scanResponse", "not scannable"),
        ]
        for (advertise, path, words) in cases {
            let error = try #require(Self.failure(Self.advertiser(advertise)), "\(advertise)")
            #expect(error.path == path, "\(advertise): \(error)")
            #expect(error.line == 3, "\(advertise): \(error)")
            #expect(error.file == "bad.yaml")
            #expect(error.message.contains(words), "\(advertise): \(error.message)")
        }
        let tooLong = try #require(Self.failure(Self.advertiser("{type: scan_ind, extended: true, scanResponse: {raw: \"\(String(repeating: "00", count: 1_651))\"}}")))
        #expect(tooLong.kind == .advertisingDataTooLong && tooLong.device == "b" && tooLong.message.contains("1650"), "\(tooLong)")
    }
}
