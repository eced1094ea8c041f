import BLEController
import BLEWire

/// One device's HCI traffic as a btsnoop file in memory (datalink 1002, H4), stamped with
/// virtual time counted from a fixed epoch so two runs produce identical files.
struct HCISnoopCapture {
    /// 2026-01-01T00:00:00Z in microseconds since the Unix epoch.
    static let epochUnixMicroseconds: Int64 = 1_767_225_600 * 1_000_000

    private var writer = BTSnoop.Writer()
    private(set) var bytes: [UInt8] = []

    mutating func record(_ packet: H4.Packet, direction: BTSnoop.Direction, at time: Microseconds) {
        let octets = packet.encoded()
        // An encoded H4 packet always has a known type octet; a failure would leave it out.
        guard let record = try? writer.bytes(forH4Packet: octets, direction: direction,
                                             unixMicroseconds: Self.epochUnixMicroseconds + time) else { return }
        bytes.append(contentsOf: record)
    }

    /// The file: the header alone when nothing was captured.
    var file: [UInt8] { bytes.isEmpty ? BTSnoop.Writer.headerBytes : bytes }
}
