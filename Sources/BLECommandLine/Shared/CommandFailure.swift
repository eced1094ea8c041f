import Foundation

/// A failure of a `ble` command, printed to stderr as one sentence that says what to do.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Writes a line to stderr.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

extension Error {
    /// The error's description as a clause inside a sentence of ours: Foundation's end
    /// with a period, which read as "already exists.; choose …" in the middle of one.
    var clause: String {
        var text = localizedDescription
        while text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
