import Glibc

/// Turns errno values into the lower-case phrases our error sentences are built from.
enum SystemError {
    /// The system's description of `code`, starting lower case so it reads inside a
    /// sentence ("connection refused").
    static func phrase(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        let description = String(cString: text)
        guard let first = description.first else { return "error \(code)" }
        return first.lowercased() + description.dropFirst()
    }

    /// The calling thread's current errno.
    static var current: Int32 { errno }
}
