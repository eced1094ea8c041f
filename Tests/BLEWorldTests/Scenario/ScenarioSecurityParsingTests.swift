import BLEWorld
import Testing

/// `security:` on a scenario's GATT device: the IO capability of its Security Manager.
@Suite("Scenario files: a GATT device's Security Manager")
struct ScenarioSecurityParsingTests {
    /// A heart-rate strap with `extra` (its `security:` line, on line 6) and a phone.
    static func yaml(_ extra: String, gatt: Bool = true) -> String {
        """
        devices:
          - name: Strap
            position: [1, 0, 1]
            addressType: random
            address: "C0:11:22:33:44:55"
            \(extra)
        """ + (gatt ? """

            gatt: [heart-rate]
            advertise: {type: ind, interval: 100, name: Strap}
        """ : """

            advertise: {type: nonconn_ind, interval: 100, name: Strap}
        """) + """

          - name: iPhone
            position: [0, 0, 1]
            host: external
        """
    }

    @Test("Each IO capability decodes; without the key the device has none", arguments: ScenarioSecurity.IO.allCases)
    func decodes(io: ScenarioSecurity.IO) throws {
        let scenario = try ScenarioLoader.parse(yaml: Self.yaml("security: {io: \(io.rawValue)}"), file: "strap.yaml")
        #expect(scenario.device(named: "Strap")?.security == ScenarioSecurity(io: io))
        #expect(try ScenarioLoader.parse(yaml: Self.yaml("txPower: 0")).device(named: "Strap")?.security == nil)
        #expect(ScenarioSecurity.IO.displayOnly.displays && !ScenarioSecurity.IO.noInputNoOutput.displays)
    }

    @Test("A bad value, or security on a device that serves no GATT, is refused at its line, naming the file, the device and the key",
          arguments: [
              ("security: {io: keyboardOnly}", true, "security.io",
               "\"keyboardOnly\" is not an IO capability; use noInputNoOutput, displayOnly, displayYesNo"),
              ("security: {io: displayOnly, pin: 1234}", true, "security.pin", "unknown key \"pin\""),
              ("security: {}", true, "security", "io"),
              ("security: {io: displayOnly}", false, "security", "only a GATT device"),
          ])
    func refused(extra: String, gatt: Bool, key: String, words: String) throws {
        let error = try #require(throws: ScenarioError.self) {
            try ScenarioLoader.parse(yaml: Self.yaml(extra, gatt: gatt), file: "strap.yaml")
        }
        #expect(error.line == 6, "\(error)")
        #expect(error.file == "strap.yaml" && error.device == "Strap", "\(error)")
        #expect(error.path.hasSuffix(key), "\(error)")
        #expect(error.description.contains(words), "\(error)")
    }
}
