import Benchmark
import BLEWire
import Workloads

// Decode and encode of the three PDUs a busy host sees most: a GATT discovery response,
// an advertising report event, and a notification inside an ACL packet. Each iteration
// is one PDU; package-benchmark reports time and allocations per iteration.

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
