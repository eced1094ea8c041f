// The libFuzzer entry of the stateful targets (docs/fuzzing.md). The target is picked by
// SWIFTBLE_FUZZ_TARGET (scripts/fuzz.sh sets it); a broken invariant prints its step and
// message and aborts, which libFuzzer reports as a crash and saves the input.
#if canImport(Glibc)
import Glibc
#endif

/// The stateful targets' names, as scripts/fuzz.sh lists them.
let statefulTargetNames = ["gatt-server", "l2cap", "smp-pairing", "hci-driver"]

/// The target this process runs, from SWIFTBLE_FUZZ_TARGET.
let selectedTargetName: String = {
    let name = getenv("SWIFTBLE_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard statefulTargetNames.contains(name) else {
        fputs("SWIFTBLE_FUZZ_TARGET must name one of: \(statefulTargetNames.joined(separator: ", "))\n", stderr)
        exit(2)
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
    default: break
    }
}

/// libFuzzer's entry point: one input through the selected target.
@_cdecl("LLVMFuzzerTestOneInput")
public func statefulFuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        try runStatefulTarget(selectedTargetName, input)
    } catch {
        fputs("invariant broken at \(error)\n", stderr)
        abort()
    }
    return 0
}
