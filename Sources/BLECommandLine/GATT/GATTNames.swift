import BLEHost
import BLEWire

/// Names of the commonly met 16-bit UUIDs (Bluetooth SIG Assigned Numbers, §3.4 services,
/// §3.7 descriptors, §3.8 characteristics) for `ble gatt dump`'s tree, and the sentences
/// GATT errors become.
enum GATTNames {
    private static let names: [UInt16: String] = [
        0x1800: "Generic Access", 0x1801: "Generic Attribute", 0x1802: "Immediate Alert", 0x1803: "Link Loss",
        0x1804: "Tx Power", 0x1805: "Current Time", 0x1809: "Health Thermometer", 0x180A: "Device Information",
        0x180D: "Heart Rate", 0x180F: "Battery", 0x1812: "Human Interface Device",
        0x2900: "Characteristic Extended Properties", 0x2901: "Characteristic User Description",
        0x2902: "Client Characteristic Configuration", 0x2903: "Server Characteristic Configuration",
        0x2904: "Characteristic Presentation Format", 0x2905: "Characteristic Aggregate Format",
        0x2A00: "Device Name", 0x2A01: "Appearance", 0x2A04: "Peripheral Preferred Connection Parameters",
        0x2A05: "Service Changed", 0x2A06: "Alert Level", 0x2A07: "Tx Power Level", 0x2A19: "Battery Level",
        0x2A1C: "Temperature Measurement", 0x2A1D: "Temperature Type", 0x2A1E: "Intermediate Temperature",
        0x2A21: "Measurement Interval", 0x2A23: "System ID", 0x2A24: "Model Number String",
        0x2A25: "Serial Number String", 0x2A26: "Firmware Revision String", 0x2A27: "Hardware Revision String",
        0x2A28: "Software Revision String", 0x2A29: "Manufacturer Name String", 0x2A2B: "Current Time",
        0x2A37: "Heart Rate Measurement", 0x2A38: "Body Sensor Location", 0x2A39: "Heart Rate Control Point",
        0x2A50: "PnP ID", 0x2AA6: "Central Address Resolution", 0x2B29: "Client Supported Features",
        0x2B2A: "Database Hash", 0x2B3A: "Server Supported Features",
    ]

    /// The well-known name of a 16-bit UUID, if this table has it.
    static func name(of uuid: BluetoothUUID) -> String? {
        uuid.uuid16.flatMap { names[$0] }
    }

    /// `Write Not Permitted (0x03)`; a name that holds the code already is not followed by it
    /// again (`Application Error 0x80`, not `Application Error 0x80 (0x80)`).
    static func describe(_ code: ATT.ErrorCode) -> String {
        let raw = String(code.rawValue, radix: 16, uppercase: true)
        return code.name.contains("0x") ? code.name : "\(code.name) (0x\(raw.count < 2 ? "0" + raw : raw))"
    }

    /// One sentence for a failed GATT procedure, naming what was being done.
    static func sentence(_ error: any Error, doing what: String) -> String {
        switch error {
        case let GATTClientError.att(code, handle):
            return "The server answered \(describe(code)) to \(what) (handle \(handleText(handle)))."
        case GATTClientError.timedOut:
            return "The server did not answer \(what) within 30 seconds (the ATT transaction timeout)."
        case GATTClientError.disconnected:
            return "The connection was lost during \(what)."
        case let GATTClientError.valueTooLong(length, maximum):
            return "A \(length)-octet value does not fit one PDU for \(what) (at most \(maximum) octets at this MTU)."
        default:
            return "\(what.prefix(1).uppercased() + what.dropFirst()) failed: \(error)."
        }
    }
}
