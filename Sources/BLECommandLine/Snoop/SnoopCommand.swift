import ArgumentParser
import BLEWire
import Foundation
import Glibc

/// `ble snoop FILE`: decodes a btsnoop capture (ours, BlueZ's `btmon -w`, Android's HCI
/// snoop log) into one line per packet, like `btmon -r`, from SwiftBLE's own decoders.
struct SnoopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snoop",
        abstract: "Decode a btsnoop capture: one line per HCI packet, with the L2CAP, ATT, SMP or signaling PDU inside.",
        discussion: """
            Each line: the packet's number, seconds since the first packet, > (host to controller) or < \
            (controller to host), the HCI packet type, and what it is by name ("LE Advertising Report", "ATT Read \
            By Group Type Request"). With --verbose, its fields follow, indented and named as btmon -r prints them: \
            addresses with their type, RSSI in dBm, handles and opcodes in hex, advertising data decoded. ACL data is \
            reassembled into L2CAP frames per connection handle and direction. A packet our decoders refuse is \
            shown as malformed and decoding goes on. Reads the H4 (1002) and H1 (1001) datalinks. With \
            --follow, keeps printing the packets written to the file afterwards (as `ble … --snoop` writes \
            them), until interrupted, and waits for a file not created yet, as tail -F does.
            """
    )

    @Argument(help: "The btsnoop file.")
    var file: String

    @Flag(help: "One JSON object per packet instead of lines.")
    var json = false

    @Flag(help: "Print each packet's fields below it, as btmon -r does.")
    var verbose = false

    @Flag(help: "Keep printing packets as they are written to the file, until interrupted; wait for the file if it does not exist yet.")
    var follow = false

    @OptionGroup(title: "Logging") var logging: LoggingOptions

    /// Why `file` cannot be read, in the system's words (`No such file or directory`,
    /// `Permission denied`), so that a mistyped path or a capture owned by root says so.
    static func unreadable(_ file: String) -> CommandFailure {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), isDirectory.boolValue {
            return CommandFailure("Cannot read \(file): it is a directory; give a btsnoop file.")
        }
        let descriptor = open(file, O_RDONLY)
        guard descriptor < 0 else {
            close(descriptor)
            return CommandFailure("Cannot read \(file).")
        }
        return CommandFailure("Cannot read \(file): \(String(cString: strerror(errno))).")
    }

    func run() throws {
        if follow { try waitUntilCreated() }
        guard let data = FileManager.default.contents(atPath: file) else { throw Self.unreadable(file) }
        var records = BTSnoop.RecordBuffer()
        records.append(Array(data))
        // Read once the header's 16 octets are there: at once for a whole file, later for a
        // capture --follow found empty, whose writer has not written the header yet.
        var decoder: BTSnoop.PacketDecoder?
        var number = 0
        func printAvailable() throws -> Bool {
            if decoder == nil {
                guard let header = try header(&records) else { return true }
                decoder = BTSnoop.PacketDecoder(datalink: header.datalink)
            }
            guard var current = decoder else { return true }
            defer { decoder = current }
            do {
                for record in try records.completeRecords() {
                    number += 1
                    current.decode(record, number: number).output(verbose: verbose).print(json: json)
                }
                return true
            } catch {
                OutputLine(text: "      (record \(number + 1) cannot be read: \(error))",
                           fields: [("number", .integer(number + 1)), ("malformed", .bool(true)), ("summary", .string("\(error)"))])
                    .print(json: json)
                return false
            }
        }
        guard try printAvailable() else { return }
        if !follow {
            guard decoder != nil else { throw CommandFailure("\(file) is shorter than a btsnoop header.") }
            if records.pendingCount > 0 {
                OutputLine(text: "      (the file ends inside record \(number + 1))",
                           fields: [("number", .integer(number + 1)), ("malformed", .bool(true)), ("summary", .string("truncated"))])
                    .print(json: json)
            }
            return
        }
        try followGrowth(from: data.count) { bytes in
            records.append(bytes)
            return try printAvailable()
        }
    }

    /// The file's header once its 16 octets are in `records`, else `nil`; a header that is
    /// not btsnoop's, or a datalink we do not read, is the command's one-sentence failure.
    private func header(_ records: inout BTSnoop.RecordBuffer) throws -> BTSnoop.Header? {
        let header: BTSnoop.Header
        do {
            guard let read = try records.header() else { return nil }
            header = read
        } catch {
            throw CommandFailure(Self.notSnoop(file, error))
        }
        guard header.datalink.isSupported else {
            throw CommandFailure("\(file) uses the \(header.datalink) datalink; only H4 (1002) and H1 (1001) are read.")
        }
        return header
    }

    /// Why the header of `file` is not a btsnoop header, in a user's words rather than the
    /// decoder's field path (`BTSnoop.Header.identification: …`).
    static func notSnoop(_ file: String, _ error: WireError) -> String {
        switch (error.field, error.reason) {
        case let ("BTSnoop.Header.version", .invalidValue(version)):
            return "\(file) is btsnoop version \(version); only version 1 is read."
        case ("BTSnoop.Header.identification", _):
            return "\(file) is not a btsnoop file: it does not begin with \"btsnoop\" and a zero octet."
        default:
            return "\(file) is not a btsnoop file: its 16-octet header cannot be read."
        }
    }

    /// With --follow, waits for `file` to appear as `tail -F` does (a capture that `ble …
    /// --snoop` has not created yet), watching its directory with inotify, no polling.
    private func waitUntilCreated() throws {
        guard !FileManager.default.fileExists(atPath: file) else { return }
        let directory = URL(fileURLWithPath: file).deletingLastPathComponent().path
        let watch = inotify_init1(Int32(IN_CLOEXEC))
        guard watch >= 0, inotify_add_watch(watch, directory, UInt32(IN_CREATE | IN_MOVED_TO)) >= 0 else {
            throw CommandFailure("Cannot wait for \(file): its directory \(directory) cannot be watched (\(String(cString: strerror(errno)))).")
        }
        defer { close(watch) }
        printError("Waiting for \(file) to be created…")
        var events = [UInt8](repeating: 0, count: 4096)
        while !FileManager.default.fileExists(atPath: file) {
            guard read(watch, &events, events.count) > 0 else { throw Self.unreadable(file) }
        }
    }

    /// Hands `body` what is appended to the file from `offset` on, each time the kernel says
    /// it was modified (inotify, no polling), until `body` returns `false`. What was appended
    /// after the caller's read and before the watch existed raises no event, so the file is
    /// read once as soon as the watch is in place.
    private func followGrowth(from offset: Int, _ body: ([UInt8]) throws -> Bool) throws {
        let watch = inotify_init1(Int32(IN_CLOEXEC))
        guard watch >= 0, inotify_add_watch(watch, file, UInt32(IN_MODIFY)) >= 0 else {
            throw CommandFailure("Cannot follow \(file): inotify is not available (\(String(cString: strerror(errno)))).")
        }
        defer { close(watch) }
        guard let handle = FileHandle(forReadingAtPath: file) else { throw Self.unreadable(file) }
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(offset))
        var events = [UInt8](repeating: 0, count: 4096)
        while true {
            let bytes = handle.readDataToEndOfFile()
            if !bytes.isEmpty, try !body(Array(bytes)) { return }
            guard read(watch, &events, events.count) > 0 else { return }
        }
    }
}
