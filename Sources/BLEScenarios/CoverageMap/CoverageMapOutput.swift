import Foundation

/// Writes a drawn map to a file: the SVG as it is, or a PNG made from it by `rsvg-convert`
/// (librsvg, Debian's librsvg2-bin) — a real renderer rather than an encoder of our own.
public enum CoverageMapOutput {
    /// The file formats a map is written in, chosen by the output's extension.
    public enum Format: String, Sendable {
        /// Our SVG text.
        case svg
        /// A raster rendered by rsvg-convert.
        case png
    }

    /// The format `path` asks for by its extension (case-insensitive).
    public static func format(of path: String) throws(CoverageMapError) -> Format {
        guard let format = Format(rawValue: (path as NSString).pathExtension.lowercased()) else { throw .unsupportedFormat(path: path) }
        return format
    }

    /// Checks, before any work, that `path` can be written in its format: the extension is
    /// known, the folder exists and is writable, the path is not a folder, and for PNG the
    /// converter is on `searchPath` (a PATH-style list).
    public static func check(_ path: String, searchPath: String? = ProcessInfo.processInfo.environment["PATH"]) throws(CoverageMapError) {
        let format = try format(of: path)
        let manager = FileManager.default
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard manager.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw .unwritableOutput(path: path, reason: "the folder \(folder) does not exist")
        }
        if manager.fileExists(atPath: url.path, isDirectory: &isFolder) {
            guard !isFolder.boolValue else { throw .unwritableOutput(path: path, reason: "it is a folder") }
            guard manager.isWritableFile(atPath: url.path) else { throw .unwritableOutput(path: path, reason: "the file is not writable") }
        } else if !manager.isWritableFile(atPath: folder) {
            throw .unwritableOutput(path: path, reason: "the folder \(folder) is not writable")
        }
        if format == .png, converter(searchPath: searchPath) == nil { throw .pngConverterMissing }
    }

    /// Writes `svg` to `path` in the format its extension asks for.
    public static func write(_ svg: String, to path: String,
                             searchPath: String? = ProcessInfo.processInfo.environment["PATH"]) throws(CoverageMapError) {
        try check(path, searchPath: searchPath)
        switch try format(of: path) {
        case .svg:
            do { try Data(svg.utf8).write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
                throw .unwritableOutput(path: path, reason: error.localizedDescription)
            }
        case .png:
            guard let converter = converter(searchPath: searchPath) else { throw .pngConverterMissing }
            try convert(svg, to: path, with: converter)
        }
    }

    /// Whether `rsvg-convert` is on this process's PATH.
    public static var converterIsInstalled: Bool { converter(searchPath: ProcessInfo.processInfo.environment["PATH"]) != nil }

    /// The `rsvg-convert` executable on `searchPath`, if any.
    static func converter(searchPath: String?) -> String? {
        for folder in (searchPath ?? "").split(separator: ":") where !folder.isEmpty {
            let candidate = String(folder) + "/rsvg-convert"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Renders `svg` into the PNG `path` through a temporary SVG file.
    private static func convert(_ svg: String, to path: String, with converter: String) throws(CoverageMapError) {
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("ble-map-\(UUID().uuidString).svg")
        defer { try? FileManager.default.removeItem(at: temporary) }
        let process = Process()
        let errors = Pipe()
        process.executableURL = URL(fileURLWithPath: converter)
        process.arguments = ["--format", "png", "--output", path, temporary.path]
        process.standardError = errors
        do {
            try Data(svg.utf8).write(to: temporary)
            try process.run()
        } catch {
            throw .pngConversionFailed(status: -1, message: error.localizedDescription)
        }
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw .pngConversionFailed(status: process.terminationStatus, message: message.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }
}
