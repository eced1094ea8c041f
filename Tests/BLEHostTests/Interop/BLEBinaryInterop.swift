import Foundation
import Testing

/// The built `ble` executable (SwiftPM puts every product of a build beside the test
/// bundle), for interop tests that drive the command line against Bumble.
func interopBLEExecutable() throws -> String {
    let testBinary = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
    var directory = testBinary.deletingLastPathComponent()
    var candidates: [URL] = []
    for _ in 0 ..< 4 {
        candidates.append(directory.appendingPathComponent("ble"))
        directory = directory.deletingLastPathComponent()
    }
    for bundle in Bundle.allBundles {
        candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("ble"))
    }
    candidates.append(interopPackageRoot().appendingPathComponent(".build/debug/ble"))
    guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
        throw InteropError(message: "the ble executable is not built; run swift build")
    }
    return found.path
}

/// The number of packet records in a btsnoop file (Bluetooth Snoop version 1: a 16-octet
/// header, then records with a 24-octet header whose second word is the included length).
func btsnoopRecordCount(_ path: String) -> Int {
    guard let data = FileManager.default.contents(atPath: path), data.count >= 16 else { return 0 }
    let bytes = [UInt8](data)
    var offset = 16, count = 0
    while offset + 24 <= bytes.count {
        let included = Int(bytes[offset + 4]) << 24 | Int(bytes[offset + 5]) << 16 | Int(bytes[offset + 6]) << 8 | Int(bytes[offset + 7])
        offset += 24 + included
        guard offset <= bytes.count else { break }
        count += 1
    }
    return count
}

/// Has tshark decode a capture `ble` wrote (when tshark is installed) and expects every
/// frame read, none malformed; a clean capture is deleted, a faulty one kept.
func expectCleanCapture(_ path: String) async throws {
    guard Tshark.executable != nil else {
        try? FileManager.default.removeItem(atPath: path)
        return
    }
    let frames = btsnoopRecordCount(path)
    #expect(frames > 0, "no frames in \(path)")
    let decode = try await Tshark.decode(path, frames: frames)
    #expect(decode.readAll, "tshark did not read all \(frames) frames of \(path)")
    // tshark calls an empty Read Blob Response malformed, but a Read Blob at an offset equal
    // to the value's length answers an empty part (Core 5.4, Vol 3, Part F, §3.4.4.5/6; a
    // value of exactly ATT_MTU − 1 octets read with Read Long ends so): those are excused,
    // as many as the capture has ATT PDUs of one octet with that opcode.
    let blobFindings = decode.findings.filter { $0.info.contains("Read Blob Response") }
    let emptyBlobs = blobFindings.isEmpty ? 0 : try await Tshark.count(path, matching: "btatt.opcode == 0x0d && btl2cap.length == 1")
    let others = decode.findings.filter { !$0.info.contains("Read Blob Response") }
    let passed = others.isEmpty && blobFindings.count <= emptyBlobs
    #expect(passed, "tshark on \(path): \(decode.findings.prefix(20)) (\(emptyBlobs) empty Read Blob Responses)")
    if decode.readAll, passed { try? FileManager.default.removeItem(atPath: path) }
}

/// A temporary btsnoop path for a `ble` run.
func interopSnoopPath(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("swiftble-interop-\(getpid())-\(name).btsnoop").path
}

/// A JSON object as text with sorted keys, so two parsed documents compare by content
/// (Foundation's NSDictionary equality does not see through nested Swift collections on Linux).
/// `object` with `key` removed from every dictionary in it, at any depth.
func withoutKey(_ key: String, in object: Any) -> Any {
    if let dictionary = object as? [String: Any] {
        return dictionary.filter { $0.key != key }.mapValues { withoutKey(key, in: $0) }
    }
    if let array = object as? [Any] { return array.map { withoutKey(key, in: $0) } }
    return object
}

func canonicalJSON(_ object: Any) -> String {
    guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return "\(object)" }
    return String(decoding: data, as: UTF8.self)
}
