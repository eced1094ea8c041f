import BLEHost
import BLEStorage
import BLEWire
import Foundation
import Testing

/// A scratch directory removed when the test ends.
struct ScratchDirectory: ~Copyable {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("swiftble-bonds-\(getpid())-\(UInt64.random(in: 0 ... .max))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func names() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }
}

/// The bond store file: atomic saves, loading, corrupt and unreadable files.
@Suite("Bond store file")
struct BondStoreFileTests {
    static func sampleStore() -> BondStore {
        BondStore(
            localIdentityAddress: BluetoothAddress(0xD0_0000_0000_01, kind: .random), localIdentityResolvingKey: 0xABCDEF,
            records: [BondRecord(identityAddress: BluetoothAddress(0x00_1B_DC_07_32_EF), peerIdentifier: "0F000000-0000-4000-8000-000000000001",
                                 secureConnectionsLongTermKey: 0x99, keySize: 16, securityLevel: .authenticatedSecureConnections,
                                 peerKeys: BondKeys(identityResolvingKey: 0x1234, signingKey: BondSigningKey(key: 5, signCounter: 9)),
                                 clientConfigurations: [0x2A: 1], databaseHash: Array(repeating: 0xA5, count: 16),
                                 created: 1_700_000_000)]
        )
    }

    @Test("a missing file loads as an empty store and nothing is created")
    func missingFile() throws {
        let scratch = try ScratchDirectory()
        let store = try BondStoreFile(path: scratch.path + "/bonds.json").load()
        #expect(store == BondStore())
        #expect(scratch.names().isEmpty)
    }

    @Test("save then load gives the same store; the file is mode 0600 and no temporary file remains")
    func roundTrip() throws {
        let scratch = try ScratchDirectory()
        let file = BondStoreFile(path: scratch.path + "/bonds.json")
        try file.save(Self.sampleStore())
        #expect(try file.load() == Self.sampleStore())
        #expect(scratch.names() == ["bonds.json"])
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        var changed = Self.sampleStore()
        changed.removeRecord(for: BluetoothAddress(0x00_1B_DC_07_32_EF))
        try file.save(changed)
        #expect(try file.load() == changed)
    }

    @Test("save creates missing directories")
    func createsDirectories() throws {
        let scratch = try ScratchDirectory()
        let file = BondStoreFile(path: scratch.path + "/a/b/bonds.json")
        try file.save(Self.sampleStore())
        #expect(try file.load() == Self.sampleStore())
    }

    @Test("a truncated file, wrong types or bad hex is reported as corrupt and moved aside, never emptied",
          arguments: ["truncated", "wrong type", "bad hex", "not JSON", "empty"])
    func corrupt(kind: String) throws {
        let scratch = try ScratchDirectory()
        let file = BondStoreFile(path: scratch.path + "/bonds.json")
        try file.save(Self.sampleStore())
        let good = try String(contentsOfFile: file.path, encoding: .utf8)
        let bad: String
        switch kind {
        case "truncated": bad = String(good.prefix(good.count / 2))
        case "wrong type": bad = good.replacingOccurrences(of: "\"keySize\" : 16", with: "\"keySize\" : \"sixteen\"")
        case "bad hex": bad = good.replacingOccurrences(of: "00000000000000000000000000001234", with: "0000000000000000000000000000123g")
        case "not JSON": bad = "bonds: none\n"
        default: bad = ""
        }
        #expect(bad != good)
        try Data(bad.utf8).write(to: URL(fileURLWithPath: file.path))
        let now = Date(timeIntervalSince1970: 1_700_000_000) // 2023-11-14T22:13:20Z
        let reasons = [
            "truncated": "not valid JSON", "not JSON": "not valid JSON", "empty": "not valid JSON",
            "wrong type": "at bonds[0].keySize: expected Int",
            "bad hex": "at bonds[0].peerKeys.identityResolvingKey: expected 32 hex digits, found \"0000000000000000000000000000123g\"",
        ]
        let aside = scratch.path + "/bonds.json.corrupt-20231114T221320Z"
        #expect(throws: BondStoreFileError.corrupt(path: file.path, movedTo: aside, reason: reasons[kind] ?? "")) {
            try file.load(now: now)
        }
        // Moved, not emptied: the caller may now start with an empty store.
        #expect(try file.load(now: now) == BondStore())
        #expect(scratch.names() == ["bonds.json.corrupt-20231114T221320Z"])
        #expect(try String(contentsOfFile: aside, encoding: .utf8) == bad)
    }

    @Test("the corrupt error names the file, where it went and what is wrong")
    func corruptDescription() throws {
        let scratch = try ScratchDirectory()
        let file = BondStoreFile(path: scratch.path + "/bonds.json")
        try file.save(Self.sampleStore())
        let good = try String(contentsOfFile: file.path, encoding: .utf8)
        try Data(good.replacingOccurrences(of: "00000000000000000000000000001234", with: "xyz").utf8)
            .write(to: URL(fileURLWithPath: file.path))
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        try Data("older".utf8).write(to: URL(fileURLWithPath: file.path + ".corrupt-20231114T221320Z"))
        do {
            _ = try file.load(now: now)
            Issue.record("a corrupt file loaded")
        } catch let error {
            guard case let .corrupt(path, movedTo, reason) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(path == file.path)
            #expect(movedTo == file.path + ".corrupt-20231114T221320Z-2")
            #expect(reason.contains("bonds[0].peerKeys.identityResolvingKey"), "\(reason)")
            #expect(reason.contains("32 hex digits"), "\(reason)")
            #expect(error.description.hasPrefix("The bond store \(file.path) is corrupt ("))
        }
        #expect(FileManager.default.fileExists(atPath: file.path + ".corrupt-20231114T221320Z-2"))
        #expect(try String(contentsOfFile: file.path + ".corrupt-20231114T221320Z", encoding: .utf8) == "older")
    }

    @Test("read leaves a corrupt file in place and says so; a missing file reads as nil")
    func readChangesNothing() throws {
        let scratch = try ScratchDirectory()
        let file = BondStoreFile(path: scratch.path + "/bonds.json")
        #expect(try file.read() == nil)
        #expect(scratch.names().isEmpty)
        try Data(#"{"version": 1, "bon"#.utf8).write(to: URL(fileURLWithPath: file.path))
        #expect(throws: BondStoreFileError.invalid(path: file.path, reason: "not valid JSON")) { try file.read() }
        #expect(scratch.names() == ["bonds.json"])
        try file.save(Self.sampleStore())
        #expect(try file.read() == Self.sampleStore())
    }

    @Test("a file of a newer format version is refused and left in place")
    func newerVersion() throws {
        let scratch = try ScratchDirectory()
        let file = BondStoreFile(path: scratch.path + "/bonds.json")
        try Data(#"{"version": 7, "bonds": [], "future": true}"#.utf8).write(to: URL(fileURLWithPath: file.path))
        #expect(throws: BondStoreFileError.unsupportedVersion(path: file.path, version: 7)) { try file.load() }
        #expect(scratch.names() == ["bonds.json"])
    }

    @Test("a path that cannot be read gives unreadable, not corrupt, and moves nothing")
    func unreadableDirectory() throws {
        let scratch = try ScratchDirectory()
        let file = BondStoreFile(path: scratch.path + "/bonds.json")
        try FileManager.default.createDirectory(atPath: file.path, withIntermediateDirectories: false)
        do {
            _ = try file.load()
            Issue.record("a directory loaded as a store")
        } catch {
            guard case let .unreadable(path, reason) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(path == file.path)
            #expect(reason.contains("Is a directory"), "\(reason)")
        }
        #expect(scratch.names() == ["bonds.json"])
    }

    @Test("a file without read permission gives unreadable (skipped as root)", .enabled(if: geteuid() != 0))
    func unreadablePermissions() throws {
        let scratch = try ScratchDirectory()
        let file = BondStoreFile(path: scratch.path + "/bonds.json")
        try file.save(Self.sampleStore())
        chmod(file.path, 0)
        #expect(throws: BondStoreFileError.unreadable(path: file.path, reason: "open: Permission denied")) { try file.load() }
    }

    @Test("a directory without write permission gives unwritable and keeps the old file (skipped as root)",
          .enabled(if: geteuid() != 0))
    func unwritablePermissions() throws {
        let scratch = try ScratchDirectory()
        let file = BondStoreFile(path: scratch.path + "/bonds.json")
        try file.save(Self.sampleStore())
        chmod(scratch.path, 0o500)
        defer { chmod(scratch.path, 0o700) }
        #expect(throws: BondStoreFileError.self) { try file.save(BondStore()) }
        #expect(try file.load() == Self.sampleStore())
    }

    @Test("saving where the directory cannot be made, or over a directory, gives unwritable")
    func unwritable() throws {
        let scratch = try ScratchDirectory()
        try Data("x".utf8).write(to: URL(fileURLWithPath: scratch.path + "/plain"))
        let underFile = BondStoreFile(path: scratch.path + "/plain/bonds.json")
        #expect(throws: BondStoreFileError.self) { try underFile.save(Self.sampleStore()) }
        let overDirectory = BondStoreFile(path: scratch.path + "/dir")
        try FileManager.default.createDirectory(atPath: overDirectory.path, withIntermediateDirectories: false)
        do {
            try overDirectory.save(Self.sampleStore())
            Issue.record("a store was saved over a directory")
        } catch {
            guard case let .unwritable(path, reason) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(path == overDirectory.path)
            #expect(reason.hasPrefix("rename"), "\(reason)")
        }
        #expect(scratch.names() == ["dir", "plain"])
    }

    @Test("a temporary file left by a killed writer is removed by the next save")
    func staleTemporaryFile() throws {
        let scratch = try ScratchDirectory()
        let file = BondStoreFile(path: scratch.path + "/bonds.json")
        // A process id that cannot exist (above the kernel's pid_max of 2^22).
        try Data("partial".utf8).write(to: URL(fileURLWithPath: file.path + ".tmp-99999999"))
        try file.save(Self.sampleStore())
        #expect(scratch.names() == ["bonds.json"])
    }
}
