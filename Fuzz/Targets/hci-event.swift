// Fuzz target: HCI event packets through the typed event decoder, LE Meta subevents
// included (Core 5.4, Vol 4, Part E, §5.4.4 and §7.7).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHCIEvent(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    fuzzRoundTrip(bytes, as: HCI.EventPacket.self)
    fuzzRoundTrip(bytes, as: HCI.Event.self)
    return 0
}
