import Benchmark
import BLEWire

// Decode and encode of the three PDUs a busy host sees most: a GATT discovery response,
// an advertising report event, and a notification inside an ACL packet. Each iteration
// is one PDU; package-benchmark reports time and allocations per iteration.

/// ATT Read By Type Response as characteristic discovery returns it: three declarations
/// (handle, properties, value handle, 16-bit UUID), 7 octets each.
let readByTypeResponse: [UInt8] = [
    0x09, 0x07,
    0x02, 0x00, 0x02, 0x03, 0x00, 0x00, 0x2A,
    0x04, 0x00, 0x02, 0x05, 0x00, 0x01, 0x2A,
    0x06, 0x00, 0x12, 0x07, 0x00, 0x37, 0x2A,
]

/// HCI LE Advertising Report event (H4 type octet excluded) with three reports: an
/// iBeacon, a connectable advertiser with a name, and a scan response.
let advertisingReportEvent: [UInt8] = {
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
let notificationACL: [UInt8] = {
    let att: [UInt8] = [0x1B, 0x10, 0x00] + (0 ..< 20).map { UInt8($0) }
    let l2cap: [UInt8] = [UInt8(att.count), 0x00, 0x04, 0x00] + att
    return [0x40, 0x20, UInt8(l2cap.count), 0x00] + l2cap
}()

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput, .instructions],
        scalingFactor: .mega,
        maxDuration: .seconds(3)
    )

    Benchmark("decode ATT Read By Type Response", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try ATT.PDU(decoding: readByTypeResponse))
        }
    }

    Benchmark("encode ATT Read By Type Response", configuration: configuration) { benchmark in
        let pdu = try ATT.PDU(decoding: readByTypeResponse)
        for _ in benchmark.scaledIterations {
            blackHole(pdu.encoded())
        }
    }

    Benchmark("decode LE Advertising Report event, 3 reports", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try HCI.Event(decoding: advertisingReportEvent))
        }
    }

    Benchmark("encode LE Advertising Report event, 3 reports", configuration: configuration) { benchmark in
        let event = try HCI.Event(decoding: advertisingReportEvent)
        for _ in benchmark.scaledIterations {
            blackHole(event.encoded())
        }
    }

    Benchmark("decode ACL + L2CAP + ATT notification", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let acl = try HCI.ACLPacket(decoding: notificationACL)
            let frame = try L2CAP.BasicFrame(decoding: acl.data)
            blackHole(try ATT.PDU(decoding: frame.payload))
        }
    }

    Benchmark("encode ACL + L2CAP + ATT notification", configuration: configuration) { benchmark in
        let notification = ATT.PDU.handleValueNotification(ATT.HandleValueNotification(
            attributeHandle: 0x0010, attributeValue: (0 ..< 20).map { UInt8($0) }[...]))
        for _ in benchmark.scaledIterations {
            let att = notification.encoded()
            let frame = L2CAP.BasicFrame(channelIdentifier: .attributeProtocol, payload: att[...]).encoded()
            let acl = HCI.ACLPacket(connectionHandle: 0x0040, packetBoundary: .firstAutomaticallyFlushable, data: frame[...])
            blackHole(acl.encoded())
        }
    }
}
