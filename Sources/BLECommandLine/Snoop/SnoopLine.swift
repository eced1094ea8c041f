import BLEWire
import Foundation

extension BTSnoop.DecodedPacket {
    /// `   127   1.677938 > ACL 0x0001  ATT Read By Group Type Request`: `>` host to
    /// controller, `<` controller to host.
    var text: String {
        let number = String(repeating: " ", count: max(0, 6 - String(self.number).count)) + String(self.number)
        let timeText = seconds.formatted(decimals: 6)
        let time = String(repeating: " ", count: max(0, 11 - timeText.count)) + timeText
        let place = handle.map { " 0x" + String(String($0, radix: 16, uppercase: true).leftPadded(to: 4)) } ?? ""
        let arrow = direction == .sent ? ">" : "<"
        return "\(number) \(time) \(arrow) \((kind + place).padding(toLength: 11, withPad: " ", startingAt: 0)) \(summary)"
    }

    /// The line and, when `verbose`, the packet's fields indented below it as `btmon -r`
    /// prints them; as a JSON object, keys in a fixed order, the fields under `fields`.
    func output(verbose: Bool) -> OutputLine {
        var fields: [(String, OutputLine.Value)] = [("number", .integer(number)), ("time", .number(seconds)),
                                                   ("direction", .string(direction == .sent ? "sent" : "received")), ("type", .string(kind))]
        if let handle { fields.append(("handle", .integer(Int(handle)))) }
        if let channel { fields.append(("cid", .integer(Int(channel)))) }
        fields.append(("summary", .string(summary)))
        fields.append(("malformed", .bool(isMalformed)))
        fields.append(("fields", .array(self.fields.map(Self.json))))
        let lines = verbose ? [text] + fieldLines(indent: 8) : [text]
        return OutputLine(text: lines.joined(separator: "\n"), fields: fields)
    }

    /// `{"name": "RSSI", "value": "-50 dBm (0xce)"}`, with `fields` when it has fields below it.
    private static func json(_ field: BTSnoop.PacketDescription.Field) -> OutputLine.Value {
        var object: [(String, OutputLine.Value)] = [("name", .string(field.name)), ("value", .string(field.value))]
        if !field.children.isEmpty { object.append(("fields", .array(field.children.map(json)))) }
        return .object(object)
    }
}
