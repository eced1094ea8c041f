import Foundation
import SimulatedTesting
import Testing

/// `ble bonds list|remove` on prepared store files, run as the built executable.
@Suite("ble bonds command line", .serialized, .ownThread)
struct BondsCommandLineTests {
    /// A store with a legacy bond (random identity) and a Secure Connections bond (public).
    static let store = """
    {
      "version": 1,
      "localIdentityAddress": "D0:00:00:00:00:01", "localIdentityAddressType": "random",
      "localIdentityResolvingKey": "000102030405060708090a0b0c0d0e0f",
      "bonds": [
        {"identityAddress": "C0:11:22:33:44:55", "identityAddressType": "random",
         "peerIdentifier": "1B4E28BA-2FA1-41D2-883F-0016D3CCA427", "keySize": 16, "securityLevel": "authenticated",
         "peerKeys": {"longTermKey": {"key": "0102030405060708090a0b0c0d0e0f10", "ediv": 4660, "rand": "fedcba9876543210"},
                      "identityResolvingKey": "ec0234a357c8ad05341010a60a397d9b"},
         "created": 1700000000, "updated": 1700000100},
        {"identityAddress": "00:1B:DC:07:32:EF", "identityAddressType": "public",
         "peerIdentifier": "0F000000-0000-4000-8000-000000000001", "keySize": 16,
         "securityLevel": "authenticatedSecureConnections", "secureConnectionsLongTermKey": "00000000000000000000000000000099",
         "clientConfigurations": {"0x002A": 1}, "databaseHash": "f1e2d3c4b5a6978869504132231405f6",
         "gattServices": [{"uuid": "180D", "primary": true, "startHandle": 16, "endHandle": 20,
                           "characteristics": [{"uuid": "2A37", "declarationHandle": 17, "valueHandle": 18, "endHandle": 20,
                                                "properties": 16, "descriptors": [{"uuid": "2902", "handle": 19}]}]}],
         "created": 1700000000, "updated": 1700000000}
      ]
    }
    """

    private func ble(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
        let path = try #require(bleExecutable(), "the ble executable is not built; run swift build first")
        guard !environment.isEmpty else { return try runProcess(path, arguments) }
        return try runProcess("/usr/bin/env", environment.map { "\($0)=\($1)" } + [path] + arguments)
    }

    private func scratch() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ble-bonds-\(getpid())-\(UInt32.random(in: 0 ... .max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.path
    }

    private func prepared(_ text: String = store) throws -> (directory: String, file: String) {
        let directory = try scratch()
        let file = directory + "/bonds.json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        return (directory, file)
    }

    @Test("list prints one line per bond, sorted by address, without keys")
    func listText() throws {
        let (directory, file) = try prepared()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try ble(["bonds", "list", "--file", file])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines.first == "Bonds in \(file):")
        // Our IRK's presence, last, never the key itself.
        #expect(lines.last == "Our IRK: present (identity D0:00:00:00:00:01, random)")
        #expect(!result.stdout.contains("000102030405060708090a0b0c0d0e0f"))
        #expect(lines[1].hasPrefix("00:1B:DC:07:32:EF  public  0F000000-0000-4000-8000-000000000001  authenticatedSecureConnections"))
        #expect(lines[2].hasPrefix("C0:11:22:33:44:55  random  1B4E28BA-2FA1-41D2-883F-0016D3CCA427  authenticated  key size 16  legacy"))
        #expect(lines[1].contains("  GATT cache 1 service  "), "the bond's GATT cache is shown")
        #expect(lines[2].hasSuffix("peer keys LTK,IRK  GATT cache none  updated 2023-11-14T22:15:00Z"))
        #expect(!result.stdout.contains("0102030405060708090a0b0c0d0e0f10"))
    }

    @Test("list --json prints one object per bond with the documented fields")
    func listJSON() throws {
        let (directory, file) = try prepared()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try ble(["bonds", "list", "--file", file, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try result.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.count == 2)
        #expect(objects.map { $0["address"] as? String } == ["00:1B:DC:07:32:EF", "C0:11:22:33:44:55"])
        #expect(objects[0]["secureConnections"] as? Bool == true)
        #expect(objects[0]["clientConfigurations"] as? Int == 1)
        #expect(objects[0]["hasGATTCache"] as? Bool == true && objects[0]["gattCacheServices"] as? Int == 1)
        #expect(objects[1]["hasGATTCache"] as? Bool == false)
        #expect(objects[1]["peerKeys"] as? [String] == ["LTK", "IRK"])
        #expect(objects[1]["peerIdentifier"] as? String == "1B4E28BA-2FA1-41D2-883F-0016D3CCA427")
        #expect(objects[1]["securityLevel"] as? String == "authenticated")
        #expect(objects[1]["updated"] as? Int == 1_700_000_100)
    }

    @Test("list of a missing --file fails and names the path; SWIFTBLE_BONDS, else the controller's address, names the default file")
    func listMissingAndEnvironment() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let missing = try ble(["bonds", "list", "--file", directory + "/none.json"])
        #expect(missing.status == 1)
        #expect(missing.stdout.isEmpty)
        #expect(missing.stderr.contains("There is no bond store at \(directory)/none.json; check the path"), "\(missing.stderr)")
        try Data(Self.store.utf8).write(to: URL(fileURLWithPath: directory + "/env.json"))
        let fromEnvironment = try ble(["bonds", "list", "--json"], environment: ["SWIFTBLE_BONDS": directory + "/env.json"])
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.stderr)")
        #expect(fromEnvironment.stdout.split(separator: "\n").count == 2)
        // The default store is named after the controller's public address: the bus stop
        // world's phone host is F0:5B:1E:00:00:01.
        let fromHome = try ble(["bonds", "list", "--hci", "sim:bus-stop"],
                               environment: ["SWIFTBLE_BONDS": "", "XDG_DATA_HOME": "", "HOME": directory])
        #expect(fromHome.stdout == "No bonds in \(directory)/.local/share/swiftble/bonds-F0-5B-1E-00-00-01.json.\n", "\(fromHome.stderr)")
        let unreachable = try ble(["bonds", "list", "--hci", "tcp:127.0.0.1:1"],
                                  environment: ["SWIFTBLE_BONDS": "", "XDG_DATA_HOME": "", "HOME": directory])
        #expect(unreachable.status == 1)
        #expect(unreachable.stderr.contains("give --bonds PATH to read a store without it"), "\(unreachable.stderr)")
    }

    @Test("list takes the store file as --bonds, as the commands that pair name it")
    func listWithBondsOption() throws {
        let (directory, file) = try prepared()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try ble(["bonds", "list", "--bonds", file, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").count == 2)
    }

    @Test("list of a corrupt file fails with one sentence and leaves the file where it is")
    func listCorrupt() throws {
        let (directory, file) = try prepared(String(Self.store.prefix(200)))
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try ble(["bonds", "list", "--file", file])
        #expect(result.status == 1)
        #expect(result.stderr.contains("The bond store \(file) is not valid (not valid JSON); it was left as it is."),
                "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["bonds.json"])
    }

    @Test("remove by address or by peer identifier deletes that bond only")
    func remove() throws {
        let (directory, file) = try prepared()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let removed = try ble(["bonds", "remove", "c0:11:22:33:44:55", "--file", file])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(removed.stdout == "Removed the bond with C0:11:22:33:44:55 (random, 1B4E28BA-2FA1-41D2-883F-0016D3CCA427).\n")
        let after = try ble(["bonds", "list", "--file", file, "--json"])
        #expect(after.stdout.split(separator: "\n").count == 1)
        #expect(after.stdout.contains("00:1B:DC:07:32:EF"))
        let byIdentifier = try ble(["bonds", "remove", "0f000000-0000-4000-8000-000000000001", "--file", file])
        #expect(byIdentifier.status == 0, "\(byIdentifier.stderr)")
        // Our own IRK stays: removing bonds does not change who we are.
        #expect(try ble(["bonds", "list", "--file", file]).stdout
            == "No bonds in \(file).\nOur IRK: present (identity D0:00:00:00:00:01, random)\n")
    }

    @Test("remove of an unknown address fails and leaves the file unchanged")
    func removeUnknown() throws {
        let (directory, file) = try prepared()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try ble(["bonds", "remove", "11:22:33:44:55:66", "--file", file])
        #expect(result.status != 0)
        #expect(result.stderr.contains("No bond with 11:22:33:44:55:66 in \(file)"), "\(result.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == Self.store)
        let wrongType = try ble(["bonds", "remove", "C0:11:22:33:44:55", "--type", "public", "--file", file])
        #expect(wrongType.status != 0)
        let nonsense = try ble(["bonds", "remove", "kitchen", "--file", file])
        #expect(nonsense.status != 0)
        #expect(nonsense.stderr.contains("neither an address"), "\(nonsense.stderr)")
    }
    /// Whether the tests can run `ble` as an unprivileged user (root ignores file modes, so
    /// permission errors need a process that is not root).
    static let canDropPrivileges = geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")

    /// `ble` run as user and group 65534 (nobody).
    private func unprivilegedBLE(_ arguments: [String]) throws -> ProcessResult {
        let path = try #require(bleExecutable(), "the ble executable is not built; run swift build first")
        return try runProcess("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", path] + arguments)
    }

    @Test("list of a file the user may not read fails with a permissions sentence and moves nothing",
          .enabled(if: canDropPrivileges))
    func listUnreadable() throws {
        let (directory, file) = try prepared()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        chmod(directory, 0o755)
        chmod(file, 0o600)
        let result = try unprivilegedBLE(["bonds", "list", "--file", file])
        #expect(result.status != 0)
        #expect(result.stderr.contains("The bond store \(file) cannot be read (open: Permission denied); check its permissions."),
                "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["bonds.json"])
    }

    @Test("remove in a directory the user may not write fails and leaves the file unchanged",
          .enabled(if: canDropPrivileges))
    func removeUnwritable() throws {
        let (directory, file) = try prepared()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        chmod(directory, 0o755)
        chmod(file, 0o644)
        let result = try unprivilegedBLE(["bonds", "remove", "C0:11:22:33:44:55", "--file", file])
        #expect(result.status != 0)
        #expect(result.stderr.contains("The bond store \(file) cannot be written (create \(file).tmp-"), "\(result.stderr)")
        #expect(result.stderr.contains("Permission denied"), "\(result.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == Self.store)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["bonds.json"])
    }
}
