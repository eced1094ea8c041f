import Foundation

/// Wireshark's command-line decoder, when installed (`apt-get install -y tshark`; `.ci/run`
/// installs it), as the independent judge of our HCI traffic: every capture of the interop
/// run must decode with no malformed packet.
enum Tshark {
    /// The executable found on `PATH`, or `nil`.
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/tshark" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Why the capture checks cannot run here, or `nil` when they can.
    static var unavailableReason: String? {
        executable == nil ? "tshark is not installed (apt-get install -y tshark; .ci/run installs it), so captures are not decoded" : nil
    }

    /// One frame tshark found fault with.
    struct Finding: CustomStringConvertible {
        var frame: Int
        /// Host to controller (our host sent it), else controller to host.
        var sent: Bool
        /// Marked `_ws.malformed`: the dissector ran past the data or found it inconsistent.
        var malformed: Bool
        /// The Info column.
        var info: String
        var description: String { "frame \(frame) (\(sent ? "sent" : "received"))\(malformed ? " malformed" : ""): \(info)" }
    }

    /// What tshark made of a capture.
    struct Decode {
        /// Whether tshark read the capture's last frame (`frames` of them).
        var readAll: Bool
        /// Malformed frames and frames with expert errors, in order.
        var findings: [Finding]
        /// Malformed frames sent by our host.
        var malformedSent: Int { findings.filter { $0.sent && $0.malformed }.count }
        /// Malformed frames the controller handed our host (e.g. a Bumble peer's deliberately broken ones).
        var malformedReceived: Int { findings.filter { !$0.sent && $0.malformed }.count }
    }

    /// Decodes the capture at `path`, which holds `frames` packets, with
    /// `tshark -Y "_ws.malformed || _ws.expert.severity >= error"`. Runs off the cooperative
    /// threads (a big capture takes seconds).
    static func decode(_ path: String, frames: Int) async throws -> Decode {
        guard let executable else { throw InteropError(message: unavailableReason ?? "no tshark") }
        // 0x00800000 is PI_ERROR, the "Error" expert severity; the last frame's number proves
        // tshark read the whole file.
        let filter = "_ws.malformed || _ws.expert.severity >= 8388608 || frame.number == \(frames)"
        let output = try await run(executable, ["-r", path, "-n", "-Y", filter, "-T", "fields", "-E", "separator=/t",
                                                "-e", "frame.number", "-e", "hci_h4.direction", "-e", "_ws.malformed",
                                                "-e", "_ws.expert.severity", "-e", "_ws.col.Info"])
        var decode = Decode(readAll: false, findings: [])
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 5, let number = Int(fields[0]) else { continue }
            let malformed = !fields[2].isEmpty
            let error = (Int(fields[3].split(separator: ",").first ?? "") ?? 0) >= 0x0080_0000
            if number == frames { decode.readAll = true }
            if malformed || error {
                decode.findings.append(Finding(frame: number, sent: fields[1] == "0x00", malformed: malformed,
                                               info: fields[4...].joined(separator: " ")))
            }
        }
        return decode
    }

    /// How many frames of the capture at `path` match the display filter `filter`.
    static func count(_ path: String, matching filter: String) async throws -> Int {
        guard let executable else { throw InteropError(message: unavailableReason ?? "no tshark") }
        let output = try await run(executable, ["-r", path, "-n", "-Y", filter, "-T", "fields", "-e", "frame.number"])
        return output.split(separator: "\n").count
    }

    /// Runs a program to its end and returns its standard output (written to a temporary
    /// file, so a large output cannot fill a pipe while nobody reads it).
    private static func run(_ executable: String, _ arguments: [String]) async throws -> String {
        let outputPath = FileManager.default.temporaryDirectory.path + "/swiftble-tshark-\(UUID().uuidString).txt"
        guard FileManager.default.createFile(atPath: outputPath, contents: nil),
              let output = FileHandle(forWritingAtPath: outputPath) else {
            throw InteropError(message: "cannot create \(outputPath)")
        }
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { process in continuation.resume(returning: process.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        try? output.close()
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard status == 0 else { throw InteropError(message: "tshark exited with status \(status) on \(arguments)") }
        return text
    }
}
