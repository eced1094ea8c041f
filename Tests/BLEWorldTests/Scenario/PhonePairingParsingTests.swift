import BLEWorld
import Testing

/// `pairing:` in a scenario phone's `phone:` settings: how its user answers pairing dialogs.
@Suite("Scenario files: a phone's answers to pairing dialogs")
struct PhonePairingParsingTests {
    /// A phone (the run's `host: external` device) with `phone: SETTINGS` on line 5.
    static func yaml(_ settings: String) -> String {
        """
        devices:
          - name: iPhone
            position: [0, 0, 1]
            host: external
            phone: \(settings)
          - name: Light
            position: [4, 0, 1]
            host: external
            program: notification-light
        """
    }

    static func pairing(_ settings: String) throws -> ScenarioPairing? {
        try ScenarioLoader.parse(yaml: yaml(settings), file: "call.yaml").device(named: "iPhone")?.phone?.pairing
    }

    @Test("Every key decodes; each left out takes its default (Pair, at once, typed right); no pairing: no dialogs")
    func decodes() throws {
        #expect(try Self.pairing("{pairing: {answer: cancel, after: 2.5, mistypes: true}}")
            == ScenarioPairing(answer: .cancel, afterSeconds: 2.5, mistypes: 1))
        #expect(try Self.pairing("{pairing: {mistypes: 3}}") == ScenarioPairing(mistypes: 3))
        #expect(try Self.pairing("{pairing: {mistypes: false}}") == ScenarioPairing(mistypes: 0))
        #expect(try Self.pairing("{pairing: {answer: ignore}}") == ScenarioPairing(answer: .ignore))
        #expect(try Self.pairing("{pairing: {}}") == ScenarioPairing(answer: .pair, afterSeconds: 0, mistypes: 0))
        #expect(try Self.pairing("{profile: today}") == nil)
    }

    @Test("A bad value is refused at its line, naming the file, the device and the key, and what would be accepted", arguments: [
        ("{pairing: {answer: accept}}", "phone.pairing.answer", "\"accept\" is not an answer to a pairing dialog; use pair, cancel, ignore"),
        ("{pairing: {after: -1}}", "phone.pairing.after", "seconds"),
        ("{pairing: {after: soon}}", "phone.pairing.after", "seconds"),
        ("{pairing: {mistypes: sometimes}}", "phone.pairing.mistypes", "true or false"),
        ("{pairing: {mistypes: 11}}", "phone.pairing.mistypes", "11 is not a count of wrong codes from 0 to 10"),
        ("{pairing: {mistypes: -1}}", "phone.pairing.mistypes", "-1 is not a count of wrong codes from 0 to 10"),
        ("{pairing: {answer: pair, typesPasskey: wrong}}", "phone.pairing.typesPasskey", "unknown key \"typesPasskey\"; expected one of answer, after, mistypes"),
        ("{pairing: cancel}", "phone.pairing", "expected a mapping with keys answer, after, mistypes"),
    ])
    func refused(settings: String, key: String, words: String) throws {
        let error = try #require(throws: ScenarioError.self) { try ScenarioLoader.parse(yaml: Self.yaml(settings), file: "call.yaml") }
        #expect(error.line == 5, "\(error)")
        #expect(error.file == "call.yaml" && error.device == "iPhone", "\(error)")
        #expect(error.path.hasSuffix(key), "\(error)")
        #expect(error.description.contains(words), "\(error)")
        #expect(error.description.hasPrefix("call.yaml:5: device \"iPhone\""), "\(error)")
    }

    @Test("Phone settings belong to a phone: a device with apps, or the run's host: external phone; not an accessory")
    func onlyOnAPhone() throws {
        let accessory = Self.yaml("{}").replacingOccurrences(of: "    program: notification-light",
                                                             with: "    program: notification-light\n    phone: {pairing: {}}")
        let error = try #require(throws: ScenarioError.self) { try ScenarioLoader.parse(yaml: accessory) }
        #expect(error.description.contains("only a phone has phone settings"), "\(error)")
        #expect(error.device == "Light")
    }
}
