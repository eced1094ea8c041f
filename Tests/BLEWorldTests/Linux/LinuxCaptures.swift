import Foundation
import Glibc

/// The two HCI captures of one check, side by side in a folder of the temporary directory:
/// btmon's (`btmon -w` in the guest: the kernel's view of every adapter) and ours (`--snoop`
/// of the `ble` under test). Both are decoded by the guest's `btmon -r` through
/// Interop/linux/btmon_check.py, which fails a capture btmon cannot read whole or marks
/// malformed. The folder stays after the run, so a failed check's message can name it.
struct LinuxCaptures {
    /// Where btmon writes in the guest while ``monitored(_:)`` runs.
    static let guestMonitorPath = "/tmp/swiftble-btmon.snoop"

    let guest: LinuxGuest
    /// The folder on this machine: `btmon.snoop`, `ours.snoop` and their `btmon -r` text.
    let folder: String

    init(guest: LinuxGuest, check: String) throws {
        self.guest = guest
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("swiftble-linux-captures-\(getpid())/\(check)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    /// `command` for the guest, run under `btmon -w` into ``guestMonitorPath``; its exit
    /// status is the command's.
    static func monitored(_ command: String) -> String {
        """
        rm -f \(guestMonitorPath)
        btmon -w \(guestMonitorPath) >/dev/null 2>&1 & monitor=$!
        # btmon writes the file's header once it listens (at most 5 s).
        for _ in $(seq 1 100); do [ -s \(guestMonitorPath) ] && break; sleep 0.05; done
        { \(command)
        } ; status=$?
        kill -INT $monitor; wait $monitor
        exit $status
        """
    }

    /// The outcome of btmon_check.py on both captures: one JSON object per capture, and
    /// whether all were read whole and clean.
    struct Decoding {
        var results: [[String: Any]]
        var clean: Bool
        var summary: String
        /// The folder that keeps both captures and their decoded text.
        var folder: String
    }

    /// Keeps btmon's capture and ours (at `oursInGuest` in the guest, or `oursOnHost` here:
    /// it is copied in) in ``folder`` with their decoded text, and checks both with btmon.
    func decode(oursInGuest: String? = nil, oursOnHost: String? = nil) throws -> Decoding {
        let ours = oursInGuest ?? "/tmp/swiftble-ours.snoop"
        if let oursOnHost {
            try upload(oursOnHost, to: ours)
            try? FileManager.default.removeItem(atPath: folder + "/ours.snoop")
            try FileManager.default.copyItem(atPath: oursOnHost, toPath: folder + "/ours.snoop")
        } else {
            try download(ours, to: folder + "/ours.snoop")
        }
        try download(Self.guestMonitorPath, to: folder + "/btmon.snoop")
        let checked = try guest.run("python3 \(LinuxGuest.interopDirectory)/btmon_check.py \(Self.guestMonitorPath) \(ours)",
                                    timeoutSeconds: 120)
        for (path, name) in [(Self.guestMonitorPath, "btmon"), (ours, "ours")] {
            let text = try guest.run("btmon -r \(path)", timeoutSeconds: 120)
            try text.stdout.write(toFile: "\(folder)/\(name).txt", atomically: true, encoding: .utf8)
        }
        let results = jsonLines(checked.stdout)
        return Decoding(results: results, clean: checked.status == 0 && results.count == 2,
                        summary: "btmon_check.py: \(checked.stdout)\(checked.stderr); both captures and their btmon -r text are in \(folder)",
                        folder: folder)
    }

    /// Copies a guest file here, through base64 on the agent's output.
    private func download(_ guestPath: String, to path: String) throws {
        let result = try guest.run("base64 -w0 \(guestPath)", timeoutSeconds: 120)
        guard result.status == 0, let data = Data(base64Encoded: result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ServeError(message: "could not copy \(guestPath) out of the guest: \(result.stderr)")
        }
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// Copies a file here into the guest, in pieces that fit one command line.
    private func upload(_ path: String, to guestPath: String) throws {
        let text = try Data(contentsOf: URL(fileURLWithPath: path)).base64EncodedString()
        _ = try guest.run("rm -f \(guestPath).b64", timeoutSeconds: 30)
        var start = text.startIndex
        repeat {
            let end = text.index(start, offsetBy: 60_000, limitedBy: text.endIndex) ?? text.endIndex
            _ = try guest.run("printf %s '\(text[start ..< end])' >> \(guestPath).b64", timeoutSeconds: 30)
            start = end
        } while start < text.endIndex
        let decoded = try guest.run("base64 -d \(guestPath).b64 > \(guestPath)", timeoutSeconds: 30)
        guard decoded.status == 0 else { throw ServeError(message: "could not copy \(path) into the guest: \(decoded.stderr)") }
    }
}
