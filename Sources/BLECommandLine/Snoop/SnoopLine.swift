import BLEWire
import Foundation

extension BTSnoop.DecodedPacket {
    /// `    12  0.004512 > ACL 0x0040  ATT  readByGroupTypeRequest(…)`: `>` host to
    /// controller, `<` controller to host.
    var text: String {
        let number = String(repeating: " ", count: max(0, 6 - String(self.number).count)) + String(self.number)
        let timeText = seconds.formatted(decimals: 6)
        let time = String(repeating: " ", count: max(0, 11 - timeText.count)) + timeText
        let place = handle.map { " 0x" + String(String($0, radix: 16, uppercase: true).leftPadded(to: 4)) } ?? ""
        let arrow = direction == .sent ? ">" : "<"
        return "\(number) \(time) \(arrow) \((kind + place).padding(toLength: 11, withPad: " ", startingAt: 0)) \(summary)"
    }

    /// The line as a JSON object, keys in a fixed order.
    var output: OutputLine {
        var fields: [(String, OutputLine.Value)] = [("number", .integer(number)), ("time", .number(seconds)),
                                                   ("direction", .string(direction == .sent ? "sent" : "received")), ("type", .string(kind))]
        if let handle { fields.append(("handle", .integer(Int(handle)))) }
        if let channel { fields.append(("cid", .integer(Int(channel)))) }
        fields.append(("summary", .string(summary)))
        fields.append(("malformed", .bool(isMalformed)))
        return OutputLine(text: text, fields: fields)
    }
}
