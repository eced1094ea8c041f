import BLEBeacons
import BLEWire
import Foundation

/// The text forms of `ble beacon range` and `ble beacon monitor`: a readable line, or with
/// `--json` one JSON object per line. Times are seconds since the scan started.
enum BeaconOutput {
    /// The fields that name a beacon: `"format"` and, by format, `uuid`/`major`/`minor`,
    /// `id` (AltBeacon, hex), `namespace`/`instance` (Eddystone-UID, hex), `url` or `eid`.
    static func identityFields(_ identity: BeaconIdentity) -> [String] {
        switch identity {
        case let .iBeacon(beacon):
            return ["\"format\": \"iBeacon\"", "\"uuid\": \(ScanOutput.quoted(beacon.uuid.uuidString))",
                    "\"major\": \(beacon.major)", "\"minor\": \(beacon.minor)"]
        case let .altBeacon(id):
            return ["\"format\": \"AltBeacon\"", "\"id\": \(ScanOutput.quoted(Hex.encode(id)))"]
        case let .eddystoneUID(namespace, instance):
            return ["\"format\": \"Eddystone-UID\"", "\"namespace\": \(ScanOutput.quoted(Hex.encode(namespace)))",
                    "\"instance\": \(ScanOutput.quoted(Hex.encode(instance)))"]
        case let .eddystoneURL(url):
            return ["\"format\": \"Eddystone-URL\"", "\"url\": \(ScanOutput.quoted(url))"]
        case let .eddystoneEID(eid):
            let text = String(eid, radix: 16)
            return ["\"format\": \"Eddystone-EID\"", "\"eid\": \"\(String(repeating: "0", count: max(0, 16 - text.count)) + text)\""]
        }
    }

    /// One ranged beacon: identity, `address`, `measuredPower`, `rssi` (mean since the last
    /// tick, `null` if none), `filteredRSSI`, `distance` (metres, −1 when unknown) and
    /// `proximity`.
    static func json(_ beacon: RangedBeacon<BeaconIdentity>, address: BluetoothAddress?) -> String {
        var fields = ["\"time\": \(ScanOutput.seconds(beacon.timestamp))"]
        fields += identityFields(beacon.identity)
        fields.append("\"address\": \(address.map { ScanOutput.quoted($0.description) } ?? "null")")
        fields.append("\"measuredPower\": \(beacon.measuredPower)")
        fields.append("\"rssi\": \(beacon.rssi.map(String.init) ?? "null")")
        fields.append("\"filteredRSSI\": \(beacon.filteredRSSI.map { decimal($0, places: 1) } ?? "null")")
        fields.append("\"distance\": \(beacon.accuracy < 0 ? "-1" : decimal(beacon.accuracy, places: 2))")
        fields.append("\"proximity\": \"\(beacon.proximity)\"")
        return "{" + fields.joined(separator: ", ") + "}"
    }

    /// A beacon named with its fields labelled: `iBeacon E2C56DB5-… major 1 minor 2`.
    static func label(_ identity: BeaconIdentity) -> String {
        guard case let .iBeacon(beacon) = identity else { return identity.description }
        return "iBeacon \(beacon.uuid.uuidString) major \(beacon.major) minor \(beacon.minor)"
    }

    /// The heading of the table ``row(_:)`` writes: RSSI and measured power in dBm.
    static let heading = "  " + ScanOutput.pad("BEACON", 70) + ScanOutput.pad("RSSI", 6) + ScanOutput.pad("FILTERED", 10)
        + ScanOutput.pad("POWER", 7) + ScanOutput.pad("DISTANCE", 10) + "PROXIMITY"

    /// One ranged beacon as a table row, under ``heading``.
    static func row(_ beacon: RangedBeacon<BeaconIdentity>) -> String {
        let rssi = beacon.rssi.map { "\($0)" } ?? "-"
        let filtered = beacon.filteredRSSI.map { decimal($0, places: 1) } ?? "-"
        let distance = beacon.accuracy < 0 ? "?" : decimal(beacon.accuracy, places: 2) + " m"
        return "  " + ScanOutput.pad(label(beacon.identity), 70) + ScanOutput.pad(rssi, 6) + ScanOutput.pad(filtered, 10)
            + ScanOutput.pad(String(beacon.measuredPower), 7) + ScanOutput.pad(distance, 10) + beacon.proximity.description
    }

    /// A region's constraint as JSON: `{"uuid": …, "major": … | null, "minor": … | null}`.
    static func json(_ constraint: BeaconIdentityConstraint) -> String {
        "{\"uuid\": \(ScanOutput.quoted(constraint.uuid.uuidString)), \"major\": \(constraint.major.map { String($0) } ?? "null"), "
            + "\"minor\": \(constraint.minor.map { String($0) } ?? "null")}"
    }

    /// `value` with at most `places` decimals, trailing zeros dropped (`100`, `1.5`, `-61.3`).
    static func decimal(_ value: Double, places: Int) -> String {
        guard value.isFinite else { return "null" }
        var scale = 1.0
        for _ in 0 ..< places { scale *= 10 }
        let scaled = (value * scale).rounded()
        let negative = scaled < 0
        let magnitude = Int64(abs(scaled))
        let divisor = Int64(scale)
        var text = String(magnitude / divisor)
        var fraction = String(magnitude % divisor)
        fraction = String(repeating: "0", count: places - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        if !fraction.isEmpty { text += "." + fraction }
        return negative ? "-" + text : text
    }
}

/// Writes `line` to stdout at once, unbuffered: a test or a pipe reading the command's
/// lines sees each as it happens.
func writeLine(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
