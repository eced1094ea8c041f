import BLEWire

// The PDUs every benchmark and the Bumble comparison decode, defined once.

/// ATT Read By Type Response as characteristic discovery returns it: three declarations
/// (handle, properties, value handle, 16-bit UUID), 7 octets each.
public let readByTypeResponse: [UInt8] = [
    0x09, 0x07,
    0x02, 0x00, 0x02, 0x03, 0x00, 0x00, 0x2A,
    0x04, 0x00, 0x02, 0x05, 0x00, 0x01, 0x2A,
    0x06, 0x00, 0x12, 0x07, 0x00, 0x37, 0x2A,
]

/// HCI LE Advertising Report event (H4 type octet excluded) with three reports: an
/// iBeacon, a connectable advertiser with a name, and a scan response.
public let advertisingReportEvent: [UInt8] = {
    var reports: [[UInt8]] = []
    let iBeacon = Hex.decode("0201061aff4c000215e2c56db5dffb48d2b060d0f5a71096e000010002c5") ?? []
    let named = Hex.decode("02010603030d180b0948656172742052617465") ?? []
    let scanResponse = Hex.decode("0b0942756d626c6550656572020a00") ?? []
    for (index, data) in [iBeacon, named, scanResponse].enumerated() {
        var report: [UInt8] = [index == 2 ? 0x04 : 0x00, 0x01, 0x01, 0x00, 0x00, 0x00, 0xAD, 0xC0 + UInt8(index)]
        report.append(UInt8(data.count))
        report += data
        report.append(0xC4)
        reports.append(report)
    }
    let parameters: [UInt8] = [0x02, 0x03] + reports.flatMap { $0 }
    return [0x3E, UInt8(parameters.count)] + parameters
}()

/// ACL packet (H4 type octet excluded) on handle 0x0040 carrying an L2CAP B-frame on the
/// ATT channel with a Handle Value Notification of a 20-octet value.
public let notificationACL: [UInt8] = {
    let att: [UInt8] = [0x1B, 0x10, 0x00] + (0 ..< 20).map { UInt8($0) }
    let l2cap: [UInt8] = [UInt8(att.count), 0x00, 0x04, 0x00] + att
    return [0x40, 0x20, UInt8(l2cap.count), 0x00] + l2cap
}()

/// HCI command parameters (packet header excluded) of commands whose codec is generated from
/// their declared fields (docs/decisions/0060-fixed-shape-codecs-are-generated.md): LE Enable
/// Encryption (handle, Rand, EDIV, LTK), LE Add Device To Resolving List (typed address and
/// two IRKs) and LE Set Scan Parameters (five enumerations and intervals).
public let enableEncryptionParameters: [UInt8] =
    [0x40, 0x00] + (1 ... 8).map { UInt8($0) } + [0x34, 0x12] + (0 ..< 16).map { UInt8(0xA0 + $0) }

/// LE Add Device To Resolving List: a random static identity address, peer and local IRKs.
public let addDeviceToResolvingListParameters: [UInt8] =
    [0x01, 0x06, 0x05, 0x04, 0x03, 0x02, 0xC1] + (0 ..< 16).map { UInt8($0) } + (0 ..< 16).map { UInt8(0xF0 - $0) }

/// LE Set Scan Parameters: active, 10 ms interval and window, public own address, accept all.
public let setScanParametersParameters: [UInt8] = [0x01, 0x10, 0x00, 0x10, 0x00, 0x00, 0x00]

/// LE Read Buffer Size [v2] return parameters: success, 251-octet ACL buffers ×15, no ISO.
public let readBufferSizeV2ReturnParameters: [UInt8] = [0x00, 0xFB, 0x00, 0x0F, 0x00, 0x00, 0x00]
