// Fuzz target: btsnoop files (header, records), each record's packet decoded as H4.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBTSnoop(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard var reader = try? BTSnoop.Reader(fuzzInput(data, size)) else { return 0 }
    while let record = try? reader.next() {
        _ = try? record.hciPacket(datalink: reader.header.datalink)
        _ = try? H4.Packet(decoding: record.data)
    }
    return 0
}
