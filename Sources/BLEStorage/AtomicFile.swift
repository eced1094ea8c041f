import Glibc

/// Whole-file reads and crash-safe replacement with POSIX calls, for small state files
/// such as the bond store (DESIGN.md, "Persistence").
enum AtomicFile {
    /// An I/O failure: the operation and `strerror` of its errno.
    struct Failure: Error {
        var reason: String
        init(_ operation: String, errno code: Int32) {
            reason = "\(operation): \(String(cString: strerror(code)))"
        }
    }

    /// The file's contents, or `nil` when it does not exist.
    static func read(path: String) throws(Failure) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { return nil }
            throw Failure("open", errno: code)
        }
        defer { close(descriptor) }
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return contents }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure("read", errno: errno)
            }
            contents.append(contentsOf: chunk[0 ..< count])
        }
    }

    /// Replaces `path` with `contents` so that a crash at any point leaves either the old
    /// file or the new one: write a temporary file in the same directory, fsync it, rename
    /// it over `path` (atomic within a file system), then fsync the directory so the
    /// rename itself is durable. The file gets mode `mode`.
    static func replace(path: String, with contents: [UInt8], temporaryPath: String, mode: mode_t) throws(Failure) {
        let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw Failure("create \(temporaryPath)", errno: errno) }
        var written = 0
        while written < contents.count {
            let count = contents.withUnsafeBytes { buffer in
                Glibc.write(descriptor, buffer.baseAddress.map { $0 + written }, buffer.count - written)
            }
            if count < 0 {
                if errno == EINTR { continue }
                let code = errno
                close(descriptor)
                unlink(temporaryPath)
                throw Failure("write", errno: code)
            }
            written += count
        }
        if fsync(descriptor) != 0 {
            let code = errno
            close(descriptor)
            unlink(temporaryPath)
            throw Failure("fsync", errno: code)
        }
        close(descriptor)
        if rename(temporaryPath, path) != 0 {
            let code = errno
            unlink(temporaryPath)
            throw Failure("rename", errno: code)
        }
        try syncDirectory(of: path)
    }

    /// Renames `path` to `newPath` and makes the rename durable.
    static func move(_ path: String, to newPath: String) throws(Failure) {
        guard rename(path, newPath) == 0 else { throw Failure("rename", errno: errno) }
        try syncDirectory(of: path)
    }

    /// Creates `directory` and its missing parents with `mode`.
    static func makeDirectories(_ directory: String, mode: mode_t) throws(Failure) {
        var status = stat()
        if stat(directory, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR { return }
        var prefix = directory.hasPrefix("/") ? "/" : ""
        for component in directory.split(separator: "/") {
            prefix += component
            if mkdir(prefix, mode) != 0 && errno != EEXIST { throw Failure("mkdir \(prefix)", errno: errno) }
            prefix += "/"
        }
    }

    /// The directory part of `path` (`.` when it has none).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let directory = String(path[..<slash])
        return directory.isEmpty ? "/" : directory
    }

    /// The last component of `path`.
    static func fileName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// The names in `directory`; empty when it cannot be listed.
    static func names(in directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// fsync on the directory holding `path`, so a rename in it survives a power cut.
    private static func syncDirectory(of path: String) throws(Failure) {
        let descriptor = open(directory(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure("open directory", errno: errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw Failure("fsync directory", errno: errno) }
    }
}
