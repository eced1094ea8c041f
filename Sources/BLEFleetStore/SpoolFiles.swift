#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The POSIX file operations the spool needs, with the one step a test replaces (`write`) to
/// play a full disk. Every failure is an `errno`, never a trap.
struct SpoolFiles: Sendable {
    /// `write(2)`: returns the bytes written or -1 with `errno` set.
    var write: @Sendable (Int32, UnsafeRawBufferPointer) -> Int = { descriptor, buffer in
        #if canImport(Glibc)
        Glibc.write(descriptor, buffer.baseAddress, buffer.count)
        #else
        Darwin.write(descriptor, buffer.baseAddress, buffer.count)
        #endif
    }

    /// A failed system call: its name and `errno`.
    struct Failure: Error, Sendable {
        let call: String
        let code: Int32

        var isDiskFull: Bool { code == ENOSPC || code == EDQUOT }
        var reason: String { "\(call) failed: \(String(cString: strerror(code)))" }
    }

    /// Creates `path` with `bytes` durably: written to a temporary name, synced, renamed over
    /// `path`, and the directory synced, so that after a crash the file either is whole or is
    /// not there (the temporary may remain; the spool sets it aside at the next open).
    func writeDurably(_ bytes: [UInt8], to path: String, temporary: String, directory: String) throws(Failure) {
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(call: "open", code: errno) }
        var failure: Failure?
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, UnsafeRawBufferPointer(rebasing: buffer[offset...]))
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = Failure(call: "write", code: errno)
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = Failure(call: "fsync", code: errno) }
        if close(descriptor) != 0, failure == nil { failure = Failure(call: "close", code: errno) }
        if failure == nil, rename(temporary, path) != 0 { failure = Failure(call: "rename", code: errno) }
        if let failure {
            unlink(temporary)
            throw failure
        }
        try syncDirectory(directory)
    }

    /// `fsync` on a directory, so that a rename or unlink in it is durable.
    func syncDirectory(_ directory: String) throws(Failure) {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(call: "open", code: errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw Failure(call: "fsync", code: errno) }
    }

    /// The whole file at `path`.
    func read(_ path: String) throws(Failure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(call: "open", code: errno) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(call: "read", code: errno)
            }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
        }
    }

    /// The names in `directory`, without `.` and `..`.
    func list(_ directory: String) throws(Failure) -> [String] {
        guard let handle = opendir(directory) else { throw Failure(call: "opendir", code: errno) }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Creates `directory` (and its parents) when missing.
    func makeDirectory(_ directory: String) throws(Failure) {
        var path = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            path += "/" + component
            if mkdir(path, 0o755) != 0, errno != EEXIST { throw Failure(call: "mkdir", code: errno) }
        }
    }

    func rename(_ from: String, _ to: String) -> Int32 {
        #if canImport(Glibc)
        Glibc.rename(from, to)
        #else
        Darwin.rename(from, to)
        #endif
    }
}
