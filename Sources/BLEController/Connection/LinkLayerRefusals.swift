import BLEWire

/// What an established connection's Link Layer refused from its peer, by kind: the record
/// a world or a test reads to see that a hostile packet was seen and turned away, not
/// silently taken. Each refusal leaves the connection running unless its doc says otherwise.
///
/// These are the faults the SweynTooth family (Garbelini et al., USENIX ATC 2020) sends to
/// crash or deadlock a link layer; docs/security.md lists each attack and its test.
public struct LinkLayerRefusals: Hashable, Sendable {
    /// Data channel PDUs with the reserved LLID 0b00 (Core 5.4, Vol 6, Part B, §2.4): not
    /// acknowledged, as if their CRC had failed, so nothing of them reaches the host.
    public var reservedLLID = 0
    /// Data channel PDUs whose Length field runs past the octets received (§2.4): not
    /// acknowledged, as if their CRC had failed.
    public var lengthBeyondPacket = 0
    /// Data channel PDUs whose payload is longer than connEffectiveMaxRxOctets: the least
    /// of what this side takes and what the peer said it sends, 27 until a data length
    /// update (§4.5.10). Not acknowledged, nothing reaches the host.
    public var payloadOverMaximum = 0
    /// Data channel PDUs that did not decode for another reason (a header cut short, a
    /// CTEInfo out of range): not acknowledged, as if their CRC had failed.
    public var otherMalformed = 0
    /// LL control PDUs whose opcode is known but whose CtrData does not decode (wrong length
    /// or values): not acknowledged.
    public var malformedControl = 0
    /// LL_CHANNEL_MAP_IND with fewer than two used data channels (§5.1.2 requires at least
    /// two): the link is terminated with Invalid LL Parameters (0x1E).
    public var invalidChannelMap = 0

    /// No refusals.
    public init() {}

    /// The number of refusals of every kind.
    public var total: Int { reservedLLID + lengthBeyondPacket + otherMalformed + payloadOverMaximum + malformedControl + invalidChannelMap }

    /// Adds what one link refused between `before` and `after` (two readings of its
    /// ``LinkLayerConnection/refusals``), for a controller's total over all its links.
    mutating func add(_ after: LinkLayerRefusals, since before: LinkLayerRefusals) {
        reservedLLID += after.reservedLLID - before.reservedLLID
        lengthBeyondPacket += after.lengthBeyondPacket - before.lengthBeyondPacket
        otherMalformed += after.otherMalformed - before.otherMalformed
        payloadOverMaximum += after.payloadOverMaximum - before.payloadOverMaximum
        malformedControl += after.malformedControl - before.malformedControl
        invalidChannelMap += after.invalidChannelMap - before.invalidChannelMap
    }

    /// Counts a data channel PDU (header and payload as received) that did not decode, by
    /// the first reason that applies: reserved LLID, Length past the octets, other.
    mutating func countUndecodable(_ pdu: [UInt8]) {
        if let first = pdu.first, first & 0b11 == 0 {
            reservedLLID += 1
        } else if pdu.count >= 2, Int(pdu[1]) > pdu.count - 2 {
            lengthBeyondPacket += 1
        } else {
            otherMalformed += 1
        }
    }
}

extension LL.ConnectionRequestData {
    /// Why a CONNECT_IND with these LLData may not start a connection, or `nil` when every
    /// field is in the range Core 5.4, Vol 6, Part B, §2.3.3.1 gives it: WinSize 1 to
    /// min(8, connInterval − 1) units of 1.25 ms, WinOffset 0 to connInterval, Interval 6 to
    /// 3200 (7.5 ms to 4 s), Latency at most 499 and below connSupervisionTimeout /
    /// (2 × connInterval), Timeout 10 to 3200 (100 ms to 32 s) and over (1 + Latency) ×
    /// connInterval × 2, Hop 5 to 16, and at least two used channels in ChM (§4.5.8.1).
    /// A controller that started a link on anything else would divide by a zero interval or
    /// hop on no channel (the Invalid Connection Request of SweynTooth, CVE-2019-19193).
    public var invalidity: String? {
        guard (6 ... 3200).contains(interval) else { return "connection interval \(interval) outside 6...3200" }
        guard windowSize >= 1, UInt16(windowSize) <= min(8, interval - 1) else { return "transmit window size \(windowSize) outside 1...\(min(8, interval - 1))" }
        guard windowOffset <= interval else { return "transmit window offset \(windowOffset) past the interval \(interval)" }
        guard (10 ... 3200).contains(timeout) else { return "supervision timeout \(timeout) outside 10...3200" }
        guard latency <= 499 else { return "peripheral latency \(latency) over 499" }
        // Timeout in 10 ms units, interval in 1.25 ms units: timeout × 8 > (1 + latency) × interval × 2.
        guard UInt64(timeout) * 8 > (1 + UInt64(latency)) * UInt64(interval) * 2 else {
            return "supervision timeout \(timeout) not over (1 + latency \(latency)) × interval \(interval) × 2"
        }
        guard (5 ... 16).contains(hopIncrement) else { return "hop increment \(hopIncrement) outside 5...16" }
        guard (channelMap & 0x1F_FFFF_FFFF).nonzeroBitCount >= 2 else { return "channel map 0x\(String(channelMap, radix: 16)) uses fewer than two channels" }
        return nil
    }
}
