import ArgumentParser
import BLEWire
import Foundation

/// `ble snoop FILE`: decodes a btsnoop capture (ours, BlueZ's `btmon -w`, Android's HCI
/// snoop log) into one line per packet, like `btmon -r`, from SwiftBLE's own decoders.
struct SnoopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snoop",
        abstract: "Decode a btsnoop capture: one line per HCI packet, with the L2CAP, ATT, SMP or signaling PDU inside.",
        discussion: """
            Each line: the packet's number, seconds since the first packet, > (host to controller) or < \
            (controller to host), the HCI packet type, and what it is by name with its fields. ACL data is \
            reassembled into L2CAP frames per connection handle and direction. A packet our decoders refuse is \
            shown as malformed and decoding goes on. Reads the H4 (1002) and H1 (1001) datalinks.
            """
    )

    @Argument(help: "The btsnoop file.")
    var file: String

    @Flag(help: "One JSON object per packet instead of lines.")
    var json = false

    func run() throws {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw CommandFailure("Cannot read \(file).")
        }
        var reader: BTSnoop.Reader
        do {
            reader = try BTSnoop.Reader(Array(data))
        } catch {
            throw CommandFailure("\(file) is not a btsnoop file: \(error).")
        }
        guard reader.header.datalink.isSupported else {
            throw CommandFailure("\(file) uses the \(reader.header.datalink) datalink; only H4 (1002) and H1 (1001) are read.")
        }
        var decoder = SnoopDecoder(datalink: reader.header.datalink)
        var number = 0
        while true {
            let record: BTSnoop.Record
            do {
                guard let next = try reader.next() else { break }
                record = next
            } catch {
                // A truncated record ends the readable part of the file (a capture cut off
                // while written): say so and stop.
                OutputLine(text: "      (the file ends inside record \(number + 1): \(error))",
                           fields: [("number", .integer(number + 1)), ("malformed", .bool(true)), ("summary", .string("\(error)"))])
                    .print(json: json)
                return
            }
            number += 1
            decoder.describe(record, number: number).output.print(json: json)
        }
    }
}
