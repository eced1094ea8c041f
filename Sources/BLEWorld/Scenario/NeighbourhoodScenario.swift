/// The built-in scenarios: compiled into the module so `ble sim run neighbourhood` and
/// `--hci sim` need no file.
extension Scenario {
    /// Names accepted by `builtIn(named:)`.
    public static let builtInNames = ["neighbourhood", "empty"]

    /// The YAML of the built-in "neighbourhood" (also shipped as Scenarios/neighbourhood.yaml):
    /// about ten everyday devices within 2–25 m of a "local" device at the origin, whose host
    /// attaches from outside.
    public static let neighbourhoodYAML = #"""
# The built-in "neighbourhood": what a phone in a front garden hears. Positions are metres
# east, north and up from "local" at the origin, where the user's own host attaches.
name: neighbourhood
seed: 2026
timing: realistic
# Where "local" is on Earth: the location a phone's host reads (OpenCoreLocation's updates).
origin: {latitude: 51.4769, longitude: -0.0005}
radio:
  referenceLossDB: 40
  pathLossExponent: 2.5
  shadowingSigmaDB: 2
  captureMarginDB: 6
devices:
  - name: local
    address: "F0:5B:1E:00:00:00"
    addressType: public
    position: [0, 0, 1.2]
    host: external
  - name: Polar H10 A1B2C3D4
    address: "C4:7A:1B:2C:3D:4E"
    addressType: random
    position: [3, 2, 1.2]
    txPower: 0
    # Served by a real host (BLEProfiles) on --hci sim and in `ble sim run`, as is every
    # device here that advertises connectably: a central that connects finds a GATT server.
    gatt: [heart-rate, battery, device-information]
    advertise:
      type: ind
      interval: 100
      services: ["180D"]
      appearance: 0x0341
      name: Polar H10 A1B2C3D4
  - name: Thermometer
    address: "D1:09:00:00:18:09"
    addressType: random
    position: [-4, 6, 1.0]
    txPower: -4
    gatt: [health-thermometer, current-time, battery, device-information]
    advertise:
      type: ind
      interval: 1000
      services: ["1809"]
      appearance: 0x0300
      name: HT Thermometer
  - name: iBeacon Door
    address: "E2:C5:6D:00:01:01"
    addressType: random
    position: [2, -3, 2.2]
    txPower: -4
    advertise:
      type: nonconn_ind
      interval: 100
      iBeacon: {uuid: E2C56DB5-DFFB-48D2-B060-D0F5A71096E0, major: 1, minor: 1, measuredPower: -59}
  - name: iBeacon Shop
    address: "E2:C5:6D:00:01:02"
    addressType: random
    position: [-10, -6, 3.0]
    txPower: 0
    advertise:
      type: nonconn_ind
      interval: 100
      iBeacon: {uuid: E2C56DB5-DFFB-48D2-B060-D0F5A71096E0, major: 1, minor: 2, measuredPower: -56}
  - name: iBeacon Backyard
    address: "E2:C5:6D:00:02:01"
    addressType: random
    position: [12, -8, 2.5]
    txPower: -8
    advertise:
      type: nonconn_ind
      interval: 100
      iBeacon: {uuid: E2C56DB5-DFFB-48D2-B060-D0F5A71096E0, major: 2, minor: 7, measuredPower: -63}
  - name: Eddystone URL
    address: "ED:D1:57:0E:00:01"
    addressType: random
    position: [-6, -12, 2.0]
    txPower: -4
    advertise:
      type: nonconn_ind
      interval: 100
      # Flags, 16-bit UUIDs [FEAA], Service Data FEAA: URL frame, TX power -21 dBm at 0 m,
      # "https://" + "example" + ".com".
      raw: "020106 0303aafe 0e16aafe10eb036578616d706c6507"
  - name: Phone
    address: "DA:1C:44:90:3B:7E"
    addressType: random
    position: [5, 5, 1.2]
    txPower: 4
    gatt: [current-time, battery, device-information]
    route:
      waypoints: [[5, 5, 1.2], [15, 5, 1.2], [15, 15, 1.2], [5, 15, 1.2]]
      speed: 1.4
      loop: true
    advertise:
      type: ind
      interval: 211.25
      services: ["D0611E78-BBB4-4591-A5F8-487910AE4366"]
      txPowerLevel: 4
      scanResponse:
        name: Alex's Phone
  - name: Tag
    address: "C7:A9:00:7A:60:01"
    addressType: random
    position: [1.5, -1.5, 0.3]
    txPower: -8
    advertise:
      type: nonconn_ind
      interval: 1000
      manufacturer: {company: 0x0059, data: "0201a1b2c3d4"}
  - name: Smart Bulb
    address: "CB:01:B0:1B:00:01"
    addressType: random
    position: [-2, 8, 2.4]
    txPower: 0
    gatt: [device-information]
    advertise:
      type: ind
      interval: 500
      services: ["FE0F"]
      scanResponse:
        name: Hue Lamp Kitchen
  - name: Battery Sensor
    address: "F0:0F:18:0F:00:42"
    addressType: random
    position: [20, 10, 0.5]
    txPower: -4
    gatt: [battery]
    advertise:
      type: ind
      interval: 1000
      services: ["180F"]
      serviceData: {"180F": "5a"}
      name: Sensor 42
obstacles:
  - name: garden wall
    box: {min: [8, -9, 0], max: [8.3, -3, 3]}
    lossDB: 12
  - name: parked car
    box: {min: [-9, 2, 0], max: [-5, 4, 1.5]}
    lossDB: 20
  - name: neighbour
    cylinder: {base: [4, -1, 0], radius: 0.25, height: 1.8}
    lossDB: 3
"""#

    /// A built-in scenario: "neighbourhood" (or "neighborhood"), or "empty" (no devices).
    public static func builtIn(named name: String) throws(ScenarioError) -> Scenario {
        switch name {
        case "neighbourhood", "neighborhood":
            return try ScenarioLoader.parse(yaml: neighbourhoodYAML, file: "neighbourhood")
        case "empty":
            return Scenario(name: "empty")
        default:
            throw ScenarioError(.unknownBuiltIn, message: "no built-in scenario is called \"\(name)\"; "
                                + "use one of \(builtInNames.joined(separator: ", ")) or a path to a .yaml file")
        }
    }
}
