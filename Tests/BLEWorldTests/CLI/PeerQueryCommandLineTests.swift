import Foundation
import SimulatedTesting
import Testing

/// Peers as users write them: `ble gatt dump` on the embedded neighbourhood with the strap's
/// address without its type, with a name prefix, with a name nobody has and with an
/// ambiguous one.
@Suite("ble gatt dump finds peers by bare address and by name", .serialized, .ownThread)
struct PeerQueryCommandLineTests {
    private func dump(_ peer: String) throws -> ProcessResult {
        let executable = try #require(bleExecutable(), "the ble executable is not built; run swift build first")
        return try runProcess("/usr/bin/timeout", ["-s", "KILL", "120", executable, "gatt", "dump", peer, "--hci", "sim", "--json"])
    }

    @Test("A bare random address is looked up by scanning and connected to")
    func bareAddress() throws {
        let result = try dump("C4:7A:1B:2C:3D:4E")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Found C4:7A:1B:2C:3D:4E/random by scanning."), "\(result.stderr)")
        #expect(result.stdout.contains("\"uuid\": \"180D\""), "the strap's Heart Rate service")
    }

    @Test("A name not heard on sim says that each process has its own world and suggests ble sim serve")
    func ownWorld() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built; run swift build first")
        let result = try runProcess("/usr/bin/timeout", ["-s", "KILL", "120", executable, "l2cap", "connect", "SwiftBLE L2CAP", "--psm", "0x0080", "--hci", "sim"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("No device called \"SwiftBLE L2CAP\" was heard"), "\(result.stderr)")
        #expect(result.stderr.contains("has its own simulated world"), "\(result.stderr)")
        #expect(result.stderr.contains("ble sim serve"), "\(result.stderr)")
    }

    @Test("A name in another letter case finds the strap")
    func nameInAnyCase() throws {
        let found = try dump("polar h10")
        #expect(found.status == 0, "\(found.stderr)")
        #expect(found.stderr.contains("Found \"Polar H10 A1B2C3D4\" at C4:7A:1B:2C:3D:4E/random."), "\(found.stderr)")
    }

    @Test("A unique name prefix finds the strap; no match and several matches are clear errors")
    func names() throws {
        let found = try dump("Polar H10")
        #expect(found.status == 0, "\(found.stderr)")
        #expect(found.stderr.contains("Found \"Polar H10 A1B2C3D4\" at C4:7A:1B:2C:3D:4E/random."), "\(found.stderr)")
        let none = try dump("Nobody Here")
        #expect(none.status != 0)
        #expect(none.stderr.contains("No device called \"Nobody Here\" was heard"), "\(none.stderr)")
        let several = try dump("H")
        #expect(several.status != 0)
        #expect(several.stderr.contains("devices match \"H\""), "\(several.stderr)")
    }
}
