import BLEWorld
import Testing

/// `location:` on a scenario app without a program: the location authorization it has.
@Suite("Scenario files: the location authorization of an app without a program")
struct ScenarioAppLocationParsingTests {
    /// A phone whose one app is `app`, on line 8.
    static func yaml(_ app: String) -> String {
        """
        devices:
          - name: rider
            position: [0, 0, 1]
            scan: {interval: 100, window: 100}
            observe:
              monitor: [{identifier: stop, uuid: 8A6E3C2D-5B1F-4E07-9C44-2F1D0B7A3E51}]
            apps:
              - \(app)
        """
    }

    static func location(_ app: String) throws -> String? {
        try ScenarioLoader.parse(yaml: yaml(app), file: "stop.yaml").device(named: "rider")?.apps.first?.location
    }

    @Test("Each authorization decodes; left out, the app has Always", arguments: ScenarioApp.locationAuthorizations)
    func decodes(location: String) throws {
        #expect(try Self.location("{name: Bus, regions: [stop], location: \(location)}") == location)
        #expect(try Self.location("{name: Bus, regions: [stop]}") == "always")
    }

    @Test("A bad value, or the key on an app that runs a program, is refused at its line, naming the file, the device and the key",
          arguments: [
              ("{name: Bus, location: sometimes}", "\"sometimes\" is not a location authorization; use always, whenInUse, denied, notDetermined"),
              ("{name: Bus, location: [always]}", "the app's location authorization"),
              ("{name: Bus, program: heart-rate-monitor, location: denied}", "runs a program"),
          ])
    func refused(app: String, words: String) throws {
        let error = try #require(throws: ScenarioError.self) { try ScenarioLoader.parse(yaml: Self.yaml(app), file: "stop.yaml") }
        #expect(error.line == 8, "\(error)")
        #expect(error.file == "stop.yaml" && error.device == "rider", "\(error)")
        #expect(error.path.hasSuffix("location"), "\(error)")
        #expect(error.description.contains(words), "\(error)")
        #expect(error.description.hasPrefix("stop.yaml:8: device \"rider\""), "\(error)")
    }
}
