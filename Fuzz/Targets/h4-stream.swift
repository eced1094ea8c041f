// Fuzz target: the H4 stream deframer fed arbitrary bytes in arbitrary chunks
// (Core 5.4, Vol 4, Part A, §2), with every packet it yields decoded further.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzH4Stream(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    guard let first = bytes.first else { return 0 }
    // The first octet picks the chunk size, so the fuzzer explores split points too.
    let chunk = Int(first % 17) + 1
    var decoder = H4.StreamDecoder()
    var index = 1
    while index < bytes.count {
        let end = min(bytes.count, index + chunk)
        decoder.append(bytes[index ..< end])
        index = end
        while true {
            do {
                guard let packet = try decoder.next() else { break }
                if case let .event(event) = packet { _ = try? HCI.Event(decoding: event) }
                if case let .command(command) = packet { _ = try? HCI.decodeCommand(command) }
            } catch {
                decoder.reset()
                break
            }
        }
    }
    return 0
}
