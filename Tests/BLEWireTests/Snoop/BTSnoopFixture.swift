import BLEWire
import Testing

@Suite("btsnoop")
struct BTSnoopTests {
    /// Unix time of the first packet of the fixture: 2023-11-14T22:13:20Z.
    static let start: Int64 = 1_700_000_000_000_000

    /// The H4 packets of the fixture and their directions: HCI_Reset, its Command Complete,
    /// LE Set Scan Enable, Bumble's scan response report (from NOTES.md §5.2), an LE
    /// Connection Complete for handle 0x0040, then SMP Pairing Request / Response in ACL
    /// using the §2.2.3 c1 example's preq and pres.
    static let packets: [(hex: String, direction: BTSnoop.Direction)] = [
        ("01030c00", .sent),
        ("040e0401030c00", .received),
        ("010c20020100", .sent),
        ("043e1b0201040101000000adc00f0b0942756d626c6550656572020a00ce", .received),
        ("043e1301004000000101000000adc038000000f40100", .received),
        ("0240200b000700060001010000100707", .sent),
        ("0240200b000700060002030000080005", .received),
    ]

    /// The capture, one packet per millisecond from ``start``. Written independently of
    /// this library (a Python script following the btsnoop format description) and checked
    /// with tshark 4.0.17: `tshark -r fixture.btsnoop` shows Reset, Command Complete, LE Set
    /// Scan Enable, LE Advertising Report, LE Connection Complete and SMP Pairing Request /
    /// Response with the right directions; `-Y _ws.malformed` finds nothing and
    /// `-q -z expert` reports no errors or warnings.
    static let fixture = """
        6274736e6f6f700000000001000003ea
        0000000400000004000000020000000000e2e7d7274dc00001030c00
        0000000700000007000000030000000000e2e7d7274dc3e8040e0401030c00
        0000000600000006000000020000000000e2e7d7274dc7d0010c20020100
        0000001e0000001e000000030000000000e2e7d7274dcbb8043e1b0201040101000000adc00f0b0942756d626c6550656572020a00ce
        0000001600000016000000030000000000e2e7d7274dcfa0043e1301004000000101000000adc038000000f40100
        0000001000000010000000000000000000e2e7d7274dd3880240200b000700060001010000100707
        0000001000000010000000010000000000e2e7d7274dd7700240200b000700060002030000080005
        """

    static func bytes(_ hex: String) throws -> [UInt8] { try #require(Hex.decode(hex)) }
}
