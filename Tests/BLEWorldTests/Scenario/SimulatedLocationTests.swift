import BLEController
import BLEWire
import BLEWorld
import Testing

@Suite("A world answers where its devices are")
struct SimulatedLocationTests {
    static let yaml = """
    name: located
    timing: ideal
    origin: {latitude: 51.5107, longitude: -0.1206}
    devices:
      - name: phone
        position: [-3, 4, 1.5]
        heading: 180
        host: external
    """

    @Test("A scenario's origin is read; out of range or half given, it is refused with the field named")
    func origin() throws {
        let scenario = try ScenarioLoader.parse(yaml: Self.yaml)
        #expect(scenario.origin == GeographicOrigin(latitude: 51.5107, longitude: -0.1206))
        #expect(scenario.worldConfiguration.geographicOrigin == scenario.origin)
        #expect(try ScenarioLoader.parse(yaml: "name: nowhere\n").origin == nil)
        #expect(throws: ScenarioError.self) { try ScenarioLoader.parse(yaml: "origin: {latitude: 91, longitude: 0}\n") }
        #expect(throws: ScenarioError.self) { try ScenarioLoader.parse(yaml: "origin: {latitude: 51}\n") }
        #expect(throws: ScenarioError.self) { try ScenarioLoader.parse(yaml: "origin: {lat: 51, longitude: 0}\n") }
    }

    @Test("Read Simulated Location is answered by the world: millimetres east, north, up, a compass heading and the origin")
    func answer() throws {
        let scenario = try ScenarioLoader.parse(yaml: Self.yaml)
        let world = World(configuration: scenario.worldConfiguration)
        let built = try scenario.build(into: world)
        let phone = try #require(built.externalDevices.first)
        var answers: [HCI.CommandComplete] = []
        built.onExternalHostPacket = { _, packet in
            if case let .event(event) = packet, case let .commandComplete(complete)? = try? HCI.Event(decoding: event) {
                answers.append(complete)
            }
        }
        world.sendToController(.command(try HCI.CommandPacket(HCI.ReadSimulatedLocation())), device: phone)
        world.sendToController(.command(HCI.CommandPacket(opcode: .readSimulatedLocation, parameters: [0x00])), device: phone)
        world.run(until: 10_000)
        try #require(answers.count == 2)
        let location = try answers[0].returnParameters(for: HCI.ReadSimulatedLocation.self)
        // Heading 180° in the world's convention (along −x) is west: 270° on a compass.
        #expect(location == HCI.ReadSimulatedLocation.ReturnParameters(
            status: .success, hasOrigin: true, xMillimetres: -3000, yMillimetres: 4000, zMillimetres: 1500,
            headingCentidegrees: 27_000, originLatitude: 515_107_000, originLongitude: -1_206_000))
        #expect(answers[1].returnParameters.first == HCI.StatusCode.invalidHCICommandParameters.rawValue)
    }
}
