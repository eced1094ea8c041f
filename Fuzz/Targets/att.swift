// Fuzz target: every ATT PDU through the opcode dispatch (Core 5.4, Vol 3, Part F, §3.4).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzATT(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzRoundTrip(fuzzInput(data, size), as: ATT.PDU.self)
    return 0
}
