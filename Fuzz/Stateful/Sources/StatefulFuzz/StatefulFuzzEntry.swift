// The libFuzzer entry of the stateful targets (docs/fuzzing.md). The target is picked by
// SWIFTBLE_FUZZ_TARGET (scripts/fuzz.sh sets it); a broken invariant prints its step and
// message and traps, which libFuzzer reports as a crash and saves the input.
#if canImport(Glibc)
import Glibc
#endif
import LibFuzzerDriver

/// The stateful targets' names, as scripts/fuzz.sh lists them.
let statefulTargetNames = ["gatt-server", "l2cap", "smp-pairing", "hci-driver", "att-client", "controller"]

/// The target this process runs, from SWIFTBLE_FUZZ_TARGET.
let selectedTargetName: String = {
    let name = getenv("SWIFTBLE_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard statefulTargetNames.contains(name) else {
        fatalError("SWIFTBLE_FUZZ_TARGET must name one of: \(statefulTargetNames.joined(separator: ", "))")
    }
    return name
}()

/// Runs `input` through the driver of target `name`.
func runStatefulTarget(_ name: String, _ input: [UInt8]) throws(StatefulFuzzViolation) {
    switch name {
    case "gatt-server": try GATTServerFuzzDriver.run(input)
    case "l2cap": try L2CAPFuzzDriver.run(input)
    case "smp-pairing": try SMPFuzzDriver.run(input)
    case "hci-driver": try HCIDriverFuzzDriver.run(input)
    case "att-client": try ATTClientFuzzDriver.run(input)
    case "controller": try ControllerFuzzDriver.run(input)
    default: break
    }
}

/// The executable's main: SwiftPM links `main` to `StatefulFuzz_main`, which hands
/// the command line to libFuzzer's driver with the callback below.
@_cdecl("StatefulFuzz_main")
public func statefulFuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, statefulFuzzOne)
}

/// libFuzzer's callback: one input through the selected target.
func statefulFuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do {
        try runStatefulTarget(selectedTargetName, input)
    } catch {
        fatalError("invariant broken at \(error)")
    }
    return 0
}
