import BLEWire
import Workloads

/// Prints one JSON object: for each workload its bytes (hex) and the nanoseconds per decode
/// measured over a fixed number of iterations on one core. `scripts/compare-bumble-decode.py`
/// times Bumble on the same bytes in the same run and prints the ratio.
@main
enum DecodeRate {
    @inline(never)
    static func consume<T>(_ value: T) { withExtendedLifetime(value) {} }

    static func nanosecondsPerDecode(iterations: Int, _ body: () throws(WireError) -> Void) -> Double {
        let clock = ContinuousClock()
        var best = Double.infinity
        for _ in 0 ..< 5 {
            let start = clock.now
            for _ in 0 ..< iterations {
                do { try body() } catch { return .nan }
            }
            let elapsed = clock.now - start
            let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
            best = min(best, nanoseconds / Double(iterations))
        }
        return best
    }

    static func main() {
        let iterations = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 1_000_000
        let rows: [(String, [UInt8], Double)] = [
            ("att-read-by-type-response", readByTypeResponse, nanosecondsPerDecode(iterations: iterations) { () throws(WireError) in
                consume(try ATT.PDU(decoding: readByTypeResponse))
            }),
            ("le-advertising-report-3", advertisingReportEvent, nanosecondsPerDecode(iterations: iterations) { () throws(WireError) in
                consume(try HCI.Event(decoding: advertisingReportEvent))
            }),
            ("acl-l2cap-att-notification", notificationACL, nanosecondsPerDecode(iterations: iterations) { () throws(WireError) in
                let acl = try HCI.ACLPacket(decoding: notificationACL)
                let frame = try L2CAP.BasicFrame(decoding: acl.data)
                consume(try ATT.PDU(decoding: frame.payload))
            }),
            // Commands and return parameters whose codec is generated from their fields.
            ("hci-le-enable-encryption", enableEncryptionParameters, nanosecondsPerDecode(iterations: iterations) { () throws(WireError) in
                consume(try HCI.LEEnableEncryption(decoding: enableEncryptionParameters))
            }),
            ("hci-le-add-device-to-resolving-list", addDeviceToResolvingListParameters, nanosecondsPerDecode(iterations: iterations) { () throws(WireError) in
                consume(try HCI.LEAddDeviceToResolvingList(decoding: addDeviceToResolvingListParameters))
            }),
            ("hci-le-set-scan-parameters", setScanParametersParameters, nanosecondsPerDecode(iterations: iterations) { () throws(WireError) in
                consume(try HCI.LESetScanParameters(decoding: setScanParametersParameters))
            }),
            ("hci-le-read-buffer-size-v2-return", readBufferSizeV2ReturnParameters, nanosecondsPerDecode(iterations: iterations) { () throws(WireError) in
                consume(try HCI.LEReadBufferSizeV2.ReturnParameters(decoding: readBufferSizeV2ReturnParameters))
            }),
        ]
        let entries = rows.map { name, bytes, nanoseconds in
            "\"\(name)\": {\"hex\": \"\(Hex.encode(bytes))\", \"nanosecondsPerDecode\": \(nanoseconds)}"
        }
        print("{" + entries.joined(separator: ", ") + "}")
    }
}
