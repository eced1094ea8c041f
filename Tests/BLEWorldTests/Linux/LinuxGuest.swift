import Foundation
import Glibc

/// The Linux guest of Interop/linux (a Debian kernel with hci_vhci, BlueZ and bleak under
/// QEMU), booted once for the whole test run by `vm.sh start` and ended with it: the guest's
/// QEMU watches this process and stops when it exits. Commands run in it through `vm.sh run`.
final class LinuxGuest: Sendable {
    /// Interop/linux/vm.sh.
    static let script = packageRoot().appendingPathComponent("Interop/linux/vm.sh").path
    /// Where the guest sees `Interop/linux` (shared over 9p at the same path).
    static let interopDirectory = packageRoot().appendingPathComponent("Interop/linux").path

    /// Why the guest checks cannot run on this machine, as a sentence; nil when they can.
    static let unavailableReason: String? = {
        let environment = ProcessInfo.processInfo.environment
        if environment["SWIFTBLE_LINUX_GUEST"] == "0" { return "SWIFTBLE_LINUX_GUEST=0 turns them off" }
        let missing = ["qemu-system-x86_64", "socat", "mmdebstrap", "mkfs.ext4", "python3"].filter { tool in
            !["/usr/local/bin", "/usr/bin", "/usr/sbin", "/sbin", "/bin"].contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
        }
        if !missing.isEmpty {
            return "the Linux guest needs \(missing.joined(separator: ", ")): apt-get install qemu-system-x86 socat mmdebstrap e2fsprogs (.ci/run does)"
        }
        if getuid() != 0 {
            return "the Linux guest is built as root (mmdebstrap, chroot); run the tests as root, as .ci/run does"
        }
        if bleExecutable() == nil { return "the ble executable is not built" }
        // Cached after the first build (.ci/run builds it before the tests); a machine that
        // cannot reach Debian's mirror or PyPI cannot build it.
        let build = Result { try runProcess("/bin/bash", [packageRoot().appendingPathComponent("Interop/linux/build-guest.sh").path]) }
        switch build {
        case let .success(result) where result.status == 0:
            return nil
        case let .success(result):
            return "the Linux guest could not be built (Interop/linux/build-guest.sh): "
                + (result.stderr.split(separator: "\n").last.map(String.init) ?? "exit status \(result.status)")
        case let .failure(error):
            return "the Linux guest could not be built: \(error)"
        }
    }()

    /// The booted guest, or why it could not boot: started on first use, once per run.
    static let shared: Result<LinuxGuest, ServeError> = {
        do {
            return .success(try LinuxGuest())
        } catch let error as ServeError {
            return .failure(error)
        } catch {
            return .failure(ServeError(message: "the Linux guest could not start: \(error)"))
        }
    }()

    /// `vm.sh`'s state folder, this run's own.
    let state: String
    /// What `vm.sh start` said: boot and image times.
    let startReport: String

    private init() throws {
        guard let ble = bleExecutable() else { throw ServeError(message: "the ble executable is not built") }
        state = FileManager.default.temporaryDirectory.appendingPathComponent("swiftble-vm-tests-\(getpid())").path
        let started = try runProcess("/usr/bin/env", ["SWIFTBLE_VM_STATE=\(state)", "SWIFTBLE_BLE=\(ble)",
                                                      Self.script, "start", "--parent", "\(getpid())"])
        startReport = started.stderr.split(separator: "\n").last.map(String.init) ?? ""
        guard started.status == 0 else {
            throw ServeError(message: "the Linux guest did not boot (Interop/linux/vm.sh start):\n\(started.stderr)")
        }
        print("Linux guest: \(startReport)")
    }

    private var environment: [String] { ["SWIFTBLE_VM_STATE=\(state)"] }

    /// Runs `command` with bash in the guest and waits for it, at most `timeoutSeconds`.
    func run(_ command: String, timeoutSeconds: Int) throws -> ProcessResult {
        try runProcess("/usr/bin/env", environment + [Self.script, "run", "-t", "\(timeoutSeconds)", command])
    }

    /// Starts `command` in the guest and returns at once; its output is read line by line,
    /// and stopping the returned process stops the command in the guest.
    func start(_ command: String, timeoutSeconds: Int = 600) throws -> LineProcess {
        try LineProcess("/usr/bin/env", environment + [Self.script, "run", "-t", "\(timeoutSeconds)", command])
    }

    /// Makes a guest connection to 10.0.2.100:`guestPort` reach 127.0.0.1:`hostPort` here.
    func forward(guestPort: Int, toHostPort hostPort: Int) throws {
        let result = try runProcess("/usr/bin/env", environment + [Self.script, "forward", "\(guestPort)", "127.0.0.1:\(hostPort)"])
        guard result.status == 0 else { throw ServeError(message: "vm.sh forward failed: \(result.stderr)") }
    }
}
