import BLEBeacons
import BLEWire
import BLEWorld

/// The text forms of `ble scan`: one JSON object per advertisement (the contract of DESIGN.md,
/// "The command line") and the rows of the live table.
enum ScanOutput {
    /// `{"address": …, "addressType": …, "rssi": …, "connectable": …, "localName": …,
    /// "serviceUUIDs": […], "manufacturerData": {"companyID": …, "data": hex} | null,
    /// "serviceData": {uuid: hex}, "txPower": … | null, "raw": hex, "time": seconds}`.
    static func json(_ record: ScannedDevice, time: Int64) -> String {
        let data = record.merged
        var fields: [String] = []
        fields.append("\"address\": \(quoted(record.address.description))")
        fields.append("\"addressType\": \(quoted(record.address.kind == .public ? "public" : "random"))")
        fields.append("\"rssi\": \(record.rssi)")
        fields.append("\"connectable\": \(record.connectable)")
        fields.append("\"localName\": \(data.localName.map(quoted) ?? "null")")
        fields.append("\"serviceUUIDs\": [\((data.serviceUUIDs ?? []).map { quoted($0.description) }.joined(separator: ", "))]")
        if let manufacturer = data.manufacturerData {
            fields.append("\"manufacturerData\": {\"companyID\": \(manufacturer.companyIdentifier), \"data\": \(quoted(Hex.encode(manufacturer.data)))}")
        } else {
            fields.append("\"manufacturerData\": null")
        }
        let serviceData = (data.serviceData ?? []).map { "\(quoted($0.uuid.description)): \(quoted(Hex.encode($0.data)))" }
        fields.append("\"serviceData\": {\(serviceData.joined(separator: ", "))}")
        fields.append("\"txPower\": \(data.txPowerLevel.map { String($0) } ?? "null")")
        fields.append("\"raw\": \(quoted(Hex.encode(record.advertisingData + record.scanResponse)))")
        if let extended = record.extended {
            // Only an extended scan's lines carry these, so a legacy scan's lines stay as they were.
            fields.append("\"legacyPDU\": \(extended.legacy)")
            fields.append("\"primaryPHY\": \(quoted(phyName(extended.primaryPHY)))")
            fields.append("\"secondaryPHY\": \(extended.secondaryPHY.map { quoted(phyName($0)) } ?? "null")")
            fields.append("\"sid\": \(extended.advertisingSID == 0xFF ? "null" : String(extended.advertisingSID))")
            fields.append("\"dataLength\": \(record.advertisingData.count)")
            fields.append("\"truncated\": \(extended.truncated)")
        }
        fields.append("\"time\": \(seconds(time))")
        return "{" + fields.joined(separator: ", ") + "}"
    }

    /// The live table: one row per device, strongest first.
    static func table(_ records: [ScannedDevice], elapsed: Int64) -> String {
        var lines = ["Scanning… \(seconds(elapsed)) s, \(records.count) device(s)", "",
                     pad("ADDRESS", 26) + pad("RSSI", 6) + pad("CONN", 6) + pad("NAME", 24) + "SERVICES / DATA"]
        for record in records.sorted(by: { ($0.rssi, $0.address.description) > ($1.rssi, $1.address.description) }) {
            let data = record.merged
            var detail = (data.serviceUUIDs ?? []).map(\.description).joined(separator: ",")
            if let beacon = BeaconFrame(decoding: record.advertisingData)?.identity {
                detail += (detail.isEmpty ? "" : " ") + BeaconOutput.label(beacon)
            } else if let manufacturer = data.manufacturerData {
                detail += (detail.isEmpty ? "" : " ") + "mfr \(String(format4: manufacturer.companyIdentifier)) " + shortHex(Array(manufacturer.data))
            }
            lines.append(pad(PeerAddress(record.address, type: record.addressType).description, 26) + pad(String(record.rssi), 6) + pad(record.connectable ? "yes" : "no", 6)
                         + pad(String((data.localName ?? "").prefix(23)), 24) + detail)
        }
        return lines.joined(separator: "\n")
    }

    /// At most 12 octets in hex, with "…" when there are more: a cut that shows.
    static func shortHex(_ bytes: [UInt8]) -> String {
        bytes.count > 12 ? Hex.encode(bytes.prefix(12)) + "…" : Hex.encode(bytes)
    }

    static func seconds(_ microseconds: Int64) -> String {
        let milliseconds = microseconds / 1000
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// `"…"` with JSON escapes: the one quoting the world's JSON log uses too.
    static func quoted(_ text: String) -> String { SimulationLog.quote(text) }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
    /// A PHY as `bluetoothctl` and the specification name it: 1M, 2M, Coded.
    static func phyName(_ phy: HCI.PHY) -> String {
        switch phy {
        case .le1M: "1M"
        case .le2M: "2M"
        case .leCoded: "Coded"
        }
    }
}

extension String {
    /// `0x004C`-style company identifiers.
    init(format4 value: UInt16) {
        let hex = String(value, radix: 16, uppercase: true)
        self = "0x" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}
