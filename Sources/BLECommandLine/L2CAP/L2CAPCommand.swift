import ArgumentParser
import BLEHost

/// `ble l2cap`: LE credit-based connection-oriented channels (Core 5.4, Vol 3, Part A,
/// §3.4, §4.22–4.24, §10.1) from the command line: an echo server and a client that checks
/// the echoes, over any `--hci` controller.
struct L2CAPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "l2cap",
        abstract: "LE credit-based L2CAP channels: an echo server and a client that checks the echoes.",
        subcommands: [L2CAPListenCommand.self, L2CAPConnectCommand.self]
    )
}

/// Reads an SPSM given as decimal (`128`) or hex (`0x80`); LE SPSMs are 0x0001–0x00FF
/// (Vol 3, Part A, §4.22: 0x0001–0x007F fixed by the SIG, 0x0080–0x00FF dynamic).
func parseSPSM(_ text: String) -> UInt16? {
    let value = text.lowercased().hasPrefix("0x") ? UInt16(text.dropFirst(2), radix: 16) : UInt16(text)
    guard let value, (0x0001 ... 0x00FF).contains(value) else { return nil }
    return value
}

/// The checks every `--psm`, `--mtu` and `--credits` share, as one-sentence errors.
func validateChannelOptions(psm: String, mtu: Int, credits: Int) throws {
    guard parseSPSM(psm) != nil else {
        throw ValidationError("--psm must be an LE SPSM from 1 to 255 (0x01 to 0xFF), e.g. 0x80; dynamic ones start at 0x80.")
    }
    guard (23 ... 65_535).contains(mtu) else { throw ValidationError("--mtu must be from 23 to 65535 octets.") }
    guard (1 ... 65_535).contains(credits) else { throw ValidationError("--credits must be from 1 to 65535.") }
}

extension HostChannel {
    /// `PSM 0x0080`.
    var psmText: String { "PSM 0x" + String(String(psm, radix: 16, uppercase: true).leftPadded(to: 4)) }

    /// The JSON fields that name the channel.
    var jsonFields: [(String, OutputLine.Value)] {
        [("handle", .integer(Int(id.handle))), ("cid", .integer(Int(id.localCID.rawValue))), ("psm", .integer(Int(psm))),
         ("localMTU", .integer(Int(localMTU))), ("peerMTU", .integer(Int(peerMTU))), ("peerMPS", .integer(Int(peerMPS)))]
    }
}
