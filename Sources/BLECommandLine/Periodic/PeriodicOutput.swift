import BLEHost
import BLEWire

/// The text forms of `ble periodic sync`: a line per periodic event, fields named as `btmon`
/// names them (Core 5.4, Vol 4, Part E, §7.7.65.15), and one JSON object per event.
enum PeriodicOutput {
    /// `Synchronized to C0:FF:EE:00:00:01/public SID 3: interval 100.00 ms, LE 1M, sync handle 0x0000`.
    static func established(_ sync: GAPPeriodicSync) -> String {
        "Synchronized to \(PeerAddress(sync.advertiser, type: sync.advertiserAddressType)) SID \(sync.sid): interval "
            + "\((Double(sync.interval) * 1.25).formatted(decimals: 2)) ms, LE \(ScanOutput.phyName(sync.phy)), "
            + "sync handle 0x\(hex4(sync.handle))"
    }

    /// `C0:FF:EE:00:00:01/public SID 3 RSSI -48 dBm TX power -6 dBm 300 octets: Complete Local Name "x"; …`.
    static func text(_ report: GAPPeriodicReport, sync: GAPPeriodicSync) -> String {
        var line = "\(PeerAddress(sync.advertiser, type: sync.advertiserAddressType)) SID \(sync.sid)"
        line += " RSSI " + (report.rssi.map { "\($0) dBm" } ?? "n/a")
        line += " TX power " + (report.txPower.map { "\($0) dBm" } ?? "n/a")
        line += " \(report.data.count) octets"
        if report.truncated { line += " (truncated)" }
        guard !report.data.isEmpty else { return line }
        return line + ": " + structures(report.data)
    }

    /// The data as AD structures (Core Specification Supplement, Part A), each named; hex
    /// when it does not decode as structures.
    static func structures(_ bytes: [UInt8]) -> String {
        guard let data = try? AdvertisingData(decoding: bytes) else { return "data " + ScanOutput.shortHex(bytes) }
        return data.structures.map { structure in
            let name = structure.type.name ?? "AD type 0x" + hex2(structure.type.rawValue)
            let value = Array(structure.data)
            switch structure.type {
            case .completeLocalName, .shortenedLocalName:
                return "\(name) " + ScanOutput.quoted(String(decoding: value, as: UTF8.self))
            case .manufacturerSpecificData where value.count >= 2:
                let company = UInt16(value[0]) | UInt16(value[1]) << 8
                return "\(name) company \(String(format4: company)), \(value.count - 2) octets " + ScanOutput.shortHex(Array(value.dropFirst(2)))
            default:
                return "\(name) " + ScanOutput.shortHex(value)
            }
        }.joined(separator: "; ")
    }

    /// `{"address": …, "addressType": …, "sid": …, "rssi": … | null, "txPower": … | null,
    /// "interval": ms, "phy": …, "dataLength": …, "truncated": …, "localName": … | null,
    /// "manufacturerData": {"companyID": …, "data": hex} | null, "raw": hex, "time": seconds}`.
    static func json(_ report: GAPPeriodicReport, sync: GAPPeriodicSync, time: Int64) -> String {
        let peer = PeerAddress(sync.advertiser, type: sync.advertiserAddressType)
        let data = (try? AdvertisingData(decoding: report.data)) ?? AdvertisingData(structures: [])
        var fields = [
            "\"address\": \(ScanOutput.quoted(peer.address.description))", "\"addressType\": \(ScanOutput.quoted(peer.typeName))",
            "\"sid\": \(sync.sid)", "\"rssi\": \(report.rssi.map { String($0) } ?? "null")",
            "\"txPower\": \(report.txPower.map { String($0) } ?? "null")",
            "\"interval\": \((Double(sync.interval) * 1.25).formatted(decimals: 2))", "\"phy\": \(ScanOutput.quoted(ScanOutput.phyName(sync.phy)))",
            "\"dataLength\": \(report.data.count)", "\"truncated\": \(report.truncated)",
            "\"localName\": \(data.localName.map(ScanOutput.quoted) ?? "null")",
        ]
        if let manufacturer = data.manufacturerData {
            fields.append("\"manufacturerData\": {\"companyID\": \(manufacturer.companyIdentifier), \"data\": \(ScanOutput.quoted(Hex.encode(manufacturer.data)))}")
        } else {
            fields.append("\"manufacturerData\": null")
        }
        fields.append("\"raw\": \(ScanOutput.quoted(Hex.encode(report.data)))")
        fields.append("\"time\": \(ScanOutput.seconds(time))")
        return "{" + fields.joined(separator: ", ") + "}"
    }

    private static func hex4(_ value: UInt16) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - text.count) + text
    }

    private static func hex2(_ value: UInt8) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return value < 0x10 ? "0" + text : text
    }
}
