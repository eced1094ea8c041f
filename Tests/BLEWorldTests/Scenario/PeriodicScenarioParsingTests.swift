import BLEController
import BLEWire
import BLEWorld
import Testing

/// Periodic advertising in scenario files (Core 5.4, Vol 6, Part B, §4.4.2.12): a device's
/// `advertise: {extended: true, periodic: {interval, ...}}` and a scanner's `scan: {sync: NAME}`,
/// and the commands their scripted hosts send (Vol 4, Part E, §7.8.61–§7.8.63, §7.8.67).
@Suite("Periodic advertising in scenario files")
struct PeriodicScenarioParsingTests {
    /// A file with an advertiser `advertise` and a scanner `scan`.
    static func file(advertise: String, scan: String = "{extended: true}") -> String {
        """
        devices:
          - name: b
            address: "C0:00:00:00:00:01"
            addressType: random
            advertise: \(advertise)
          - name: g
            address: "C0:00:00:00:00:02"
            addressType: random
            scan: \(scan)
        """
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

    @Test("periodic: {interval, data keys} gives the set a train; the scripted host sets it up before enabling the set")
    func periodicTrain() throws {
        let data = String(repeating: "ef", count: 300)
        let scenario = try ScenarioLoader.parse(yaml: Self.file(advertise: "{type: nonconn_ind, extended: true, name: B, periodic: {interval: 100, raw: \"\(data)\"}}",
                                                                scan: "{extended: true, sync: b}"), file: "p.yaml")
        let periodic = try #require(scenario.devices[0].advertising?.extended?.periodic)
        #expect(periodic.intervalMilliseconds == 100 && periodic.intervalUnits == 80)
        let plan = try #require(try scenario.devices[0].advertisingPlan())
        let commands = ScriptedHost(plan: plan).setupCommands()
        #expect(commands.map(\.opcode) == [HCI.Reset.opcode, HCI.SetEventMask.opcode, HCI.LESetEventMask.opcode,
                                           HCI.LESetExtendedAdvertisingParametersV2.opcode, HCI.LESetAdvertisingSetRandomAddress.opcode,
                                           HCI.LESetExtendedAdvertisingData.opcode, HCI.LESetPeriodicAdvertisingParameters.opcode,
                                           HCI.LESetPeriodicAdvertisingData.opcode, HCI.LESetPeriodicAdvertisingData.opcode,
                                           HCI.LESetPeriodicAdvertisingEnable.opcode, HCI.LESetExtendedAdvertisingEnable.opcode])
        let fragments = try commands.filter { $0.opcode == HCI.LESetPeriodicAdvertisingData.opcode }
            .map { try HCI.LESetPeriodicAdvertisingData(decoding: Array($0.parameters)) }
        #expect(fragments.map(\.operation) == [.firstFragment, .lastFragment])
        #expect(fragments.flatMap(\.advertisingData) == Array(repeating: 0xEF, count: 300))
        let parameters = try HCI.LESetPeriodicAdvertisingParameters(
            decoding: Array(try #require(commands.first { $0.opcode == HCI.LESetPeriodicAdvertisingParameters.opcode }).parameters))
        #expect(parameters.periodicAdvertisingIntervalMin == 80 && parameters.periodicAdvertisingIntervalMax == 80)

        #expect(scenario.devices[1].scanning?.periodicSync == "b")
        let scan = try #require(scenario.scanningPlan(of: scenario.devices[1]))
        let scanCommands = ScriptedScanner(plan: scan).setupCommands()
        #expect(scanCommands.last?.opcode == HCI.LEPeriodicAdvertisingCreateSync.opcode)
        let sync = try HCI.LEPeriodicAdvertisingCreateSync(decoding: Array(try #require(scanCommands.last).parameters))
        #expect(sync.advertiserAddress == BluetoothAddress(0xC0_00_00_00_00_01, kind: .random) && sync.advertiserAddressType == .random)
        #expect(sync.advertisingSID == 0 && sync.syncTimeout == 100)
        let mask = try HCI.LESetEventMask(decoding: Array(try #require(scanCommands.first { $0.opcode == HCI.LESetEventMask.opcode }).parameters))
        #expect(mask.leEventMask.isSuperset(of: [.periodicAdvertisingSyncEstablished, .periodicAdvertisingReport, .periodicAdvertisingSyncLost]))
    }

    @Test("Bad periodic advertising and sync values are refused with the key and line")
    func refusals() throws {
        let cases: [(String, String, String, String, Int)] = [
            ("{type: ind, extended: true, name: B, periodic: {interval: 100, name: P}}", "{extended: true}",
             "devices[0].advertise.periodic", "non-connectable", 5),
            ("{type: nonconn_ind, name: B, periodic: {interval: 100, name: P}}", "{extended: true}",
             "devices[0].advertise.periodic", "extended: true", 5),
            ("{type: nonconn_ind, extended: true, name: B, periodic: {interval: 5, name: P}}", "{extended: true}",
             "devices[0].advertise.periodic.interval", "7.5", 5),
            ("{type: nonconn_ind, extended: true, name: B, periodic: {name: P}}", "{extended: true}",
             "devices[0].advertise.periodic", "interval", 5),
            ("{type: nonconn_ind, extended: true, name: B, periodic: {interval: 100, name: P}}", "{interval: 100, sync: b}",
             "devices[1].scan.sync", "extended", 9),
            ("{type: nonconn_ind, extended: true, name: B}", "{extended: true, sync: b}",
             "devices[1].scan.sync", "no periodic", 9),
            ("{type: nonconn_ind, extended: true, name: B, periodic: {interval: 100, name: P}}", "{extended: true, sync: x}",
             "devices[1].scan.sync", "not another device", 9),
        ]
        for (advertise, scan, path, words, line) in cases {
            let error = try #require(Self.failure(Self.file(advertise: advertise, scan: scan)), "\(advertise) \(scan)")
            #expect(error.path == path, "\(advertise) \(scan): \(error)")
            #expect(error.line == line, "\(advertise) \(scan): \(error)")
            #expect(error.message.contains(words), "\(advertise) \(scan): \(error.message)")
        }
        let tooLong = try #require(Self.failure(Self.file(
            advertise: "{type: nonconn_ind, extended: true, name: B, periodic: {interval: 100, raw: \"\(String(repeating: "00", count: 1_651))\"}}")))
        #expect(tooLong.kind == .advertisingDataTooLong && tooLong.device == "b" && tooLong.message.contains("1650"), "\(tooLong)")
    }
}
