import BLEHost
import Foundation

/// The user side of pairing on a terminal (Core 5.4, Vol 3, Part H, §2.3.5): prints the
/// passkey to show (`passkey 123456`) and the number to compare (`compare 123456`) on
/// stdout; types `--passkey` when given, else reads the passkey from stdin; accepts the
/// number with `--accept`, else reads y/n from stdin. Among JSON lines (`ble serve`, `--json`)
/// the two are JSON objects too: `{"event": "passkey", "passkey": "123456"}`.
struct ConsoleAgent: PairingAgent {
    /// The passkey to type when the peer displays one.
    let passkey: UInt32?
    /// Whether numbers are accepted without asking.
    let accept: Bool
    /// Whether stdout holds one JSON object per line.
    var json = false

    func displayPasskey(_ passkey: UInt32, on connection: UInt16) async {
        Self.say(Self.line("passkey", passkey, json: json))
    }

    func enterPasskey(on connection: UInt16) async -> UInt32? {
        if let passkey { return passkey }
        printError("Type the passkey the peer shows and press Return:")
        guard let line = await Self.readLine(), let value = UInt32(line.trimmingCharacters(in: .whitespaces)),
              value <= 999_999 else { return nil }
        return value
    }

    func confirmNumber(_ number: UInt32, on connection: UInt16) async -> Bool {
        Self.say(Self.line("compare", number, json: json))
        if accept { return true }
        printError("Does the peer show \(Self.sixDigits(number))? (y/n)")
        guard let line = await Self.readLine() else { return false }
        return ["y", "yes"].contains(line.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// `passkey 000123`, or with `json` `{"event": "passkey", "passkey": "000123"}` (six digits
    /// as a string, leading zeros kept).
    static func line(_ event: String, _ number: UInt32, json: Bool) -> String {
        guard json else { return "\(event) \(sixDigits(number))" }
        return OutputLine(text: "", fields: [("event", .string(event)), (event, .string(sixDigits(number)))]).json
    }

    /// `123` as `000123`: passkeys keep their leading zeros (§2.3.5.3).
    static func sixDigits(_ value: UInt32) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, 6 - text.count)) + text
    }

    /// One line of stdin, read off the cooperative pool's threads so the host keeps running.
    static func readLine() async -> String? {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: Swift.readLine()) }
        }
    }

    /// A line on stdout at once (unbuffered), so a script reading the pipe sees it while pairing waits.
    private static func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
}
