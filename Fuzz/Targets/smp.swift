// Fuzz target: every SMP command through the code dispatch (Core 5.4, Vol 3, Part H, §3).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSMP(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzRoundTrip(fuzzInput(data, size), as: SMP.PDU.self)
    return 0
}
