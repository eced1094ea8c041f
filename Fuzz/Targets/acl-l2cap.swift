// Fuzz target: an ACL data packet carrying an L2CAP B-frame, dispatched by channel to the
// LE signaling, ATT and SMP decoders (Core 5.4, Vol 4, Part E, §5.4.2; Vol 3, Part A).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzACLL2CAP(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    fuzzRoundTrip(bytes, as: HCI.ACLPacket.self)
    guard let acl = try? HCI.ACLPacket(decoding: bytes) else { return 0 }
    _ = try? L2CAP.BasicFrame.Header(decoding: acl.data.prefix(4))
    let payload = Array(acl.data)
    fuzzRoundTrip(payload, as: L2CAP.BasicFrame.self)
    guard let frame = try? L2CAP.BasicFrame(decoding: acl.data) else { return 0 }
    let information = Array(frame.payload)
    switch frame.channelIdentifier {
    case .leSignaling:
        fuzzRoundTrip(information, as: L2CAP.SignalingCommand.self)
        fuzzRoundTrip(information, as: L2CAP.LESignalingCommand.self)
    case .attributeProtocol:
        fuzzRoundTrip(information, as: ATT.PDU.self)
    case .securityManager:
        fuzzRoundTrip(information, as: SMP.PDU.self)
    default:
        _ = try? L2CAP.FirstKFramePayload(decoding: frame.payload)
    }
    return 0
}
