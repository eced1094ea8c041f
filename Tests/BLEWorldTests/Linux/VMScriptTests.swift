import Foundation
import Glibc
import SimulatedTesting
import Testing

/// Interop/linux/vm.sh says plainly what is wrong rather than hang: no guest to run a command
/// in, a guest that does not boot in time.
@Suite("vm.sh: a missing or failed guest is one sentence, not a hang", .serialized, .ownThread)
struct VMScriptTests {
    private func vm(_ arguments: [String], state: String, environment: [String] = []) throws -> ProcessResult {
        try runProcess("/usr/bin/env", ["SWIFTBLE_VM_STATE=\(state)"] + environment + [LinuxGuest.script] + arguments)
    }

    private func temporaryState() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("swiftble-vm-script-\(getpid())-\(UInt32.random(in: 0 ... .max))").path
    }

    @Test("Running a command with no guest booted says to start one")
    func runWithoutGuest() throws {
        let state = temporaryState()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let result = try vm(["run", "true"], state: state)
        #expect(result.status == 1)
        #expect(result.stderr == "vm.sh: the guest is not running: vm.sh start\n")
    }

    @Test("A guest port outside the forwarded ones is refused")
    func forwardOutOfRange() throws {
        let state = temporaryState()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let result = try vm(["forward", "22", "127.0.0.1:9100"], state: state)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("vm.sh: guest port 22 is not one of 9000 9001"))
    }

    @Test("A guest that is not ready in time is stopped, with the console's last lines",
          .enabled(if: LinuxGuest.unavailableReason == nil, Comment(rawValue: LinuxGuest.unavailableReason ?? "")))
    func bootTimeout() throws {
        let state = temporaryState()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let ble = try #require(bleExecutable())
        let result = try vm(["start"], state: state, environment: ["SWIFTBLE_VM_BOOT_TIMEOUT=1", "SWIFTBLE_BLE=\(ble)"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("vm.sh: the guest was not ready within 1 s"), "\(result.stderr)")
        // QEMU is gone: nothing answers for the guest.
        let after = try vm(["status"], state: state)
        #expect(after.stdout == "stopped\n")
    }
}
