import BLEWire

/// Channel Selection Algorithm #2 (Core 5.4, Vol 6, Part B, §4.5.8.3): each connection
/// event's channel comes from a 16-bit pseudo-random number built from the event counter
/// and the channel identifier (the access address's two halves XORed, §4.5.8.3.1); an
/// unmapped channel the map does not use is replaced by the used channel at index
/// ⌊numUsedChannels × prn_e / 2¹⁶⌋ in ascending order (§4.5.8.3.2).
///
/// Connections made with AUX_CONNECT_REQ use it always; connections made with CONNECT_IND
/// when both the advertising PDU and the CONNECT_IND set ChSel (§2.3.1.1, §2.3.3.1).
public struct ChannelSelectionAlgorithm2: Hashable, Sendable {
    /// channelIdentifier: the upper and lower 16 bits of the access address XORed (§4.5.8.3.1).
    public let channelIdentifier: UInt16
    /// The used data channels, bit n for channel n (37 bits).
    public private(set) var channelMap: UInt64
    /// The used channels in ascending order (the remapping table).
    public private(set) var usedChannels: [UInt8]

    /// The algorithm for the connection with `accessAddress` over `channelMap`. A map with no
    /// used channel (which a peer must not send) is treated as all 37 channels.
    public init(accessAddress: UInt32, channelMap: UInt64) {
        self.init(channelIdentifier: Self.channelIdentifier(accessAddress: accessAddress), channelMap: channelMap)
    }

    /// The algorithm for a channel identifier over `channelMap`.
    public init(channelIdentifier: UInt16, channelMap: UInt64) {
        self.channelIdentifier = channelIdentifier
        self.channelMap = 0
        usedChannels = []
        setChannelMap(channelMap)
    }

    /// The channel identifier of an access address (§4.5.8.3.1).
    public static func channelIdentifier(accessAddress: UInt32) -> UInt16 {
        UInt16(truncatingIfNeeded: accessAddress >> 16) ^ UInt16(truncatingIfNeeded: accessAddress)
    }

    /// Replaces the channel map (at a channel map update's instant).
    public mutating func setChannelMap(_ map: UInt64) {
        var masked = map & 0x1F_FFFF_FFFF
        if masked == 0 { masked = 0x1F_FFFF_FFFF }
        channelMap = masked
        usedChannels = (0 ..< 37).compactMap { channel in masked >> UInt64(channel) & 1 == 1 ? UInt8(channel) : nil }
    }

    /// prn_e for the event counter `counter` (§4.5.8.3.3, §4.5.8.3.4): the counter XORed with
    /// the channel identifier, then three rounds of the permutation (each octet's bits
    /// reversed) and the multiply, add and modulo step, XORed with the identifier again.
    public static func pseudoRandomNumber(counter: UInt16, channelIdentifier: UInt16) -> UInt16 {
        var value = counter ^ channelIdentifier
        for _ in 0 ..< 3 {
            let high = UInt16(reversedBits(UInt8(value >> 8))), low = UInt16(reversedBits(UInt8(value & 0xFF)))
            value = high << 8 | low
            value = value &* 17 &+ channelIdentifier
        }
        return value ^ channelIdentifier
    }

    /// The unmapped channel of the event with counter `counter`: prn_e modulo 37 (§4.5.8.3.2).
    public func unmappedChannel(counter: UInt16) -> UInt8 {
        UInt8(Self.pseudoRandomNumber(counter: counter, channelIdentifier: channelIdentifier) % 37)
    }

    /// The data channel of the event with counter `counter` (connEventCounter).
    public func channel(counter: UInt16) -> UInt8 {
        let prn = Self.pseudoRandomNumber(counter: counter, channelIdentifier: channelIdentifier)
        let unmapped = UInt8(prn % 37)
        if channelMap >> UInt64(unmapped) & 1 == 1 { return unmapped }
        guard !usedChannels.isEmpty else { return unmapped }
        let index = (usedChannels.count * Int(prn)) >> 16
        return usedChannels[index]
    }

    private static func reversedBits(_ octet: UInt8) -> UInt8 {
        var result: UInt8 = 0
        for bit in 0 ..< 8 where octet >> UInt8(bit) & 1 == 1 { result |= 1 << UInt8(7 - bit) }
        return result
    }
}

/// The channel selection algorithm of one connection: #1 or #2 (Core 5.4, Vol 6, Part B,
/// §4.5.8), chosen when the connection is made and kept for its life.
enum DataChannelSelection: Hashable, Sendable {
    case algorithm1(ChannelSelectionAlgorithm1)
    case algorithm2(ChannelSelectionAlgorithm2)

    /// The data channel of the event with index `eventIndex` (0 for the first, not wrapping);
    /// #2 takes the 16-bit connEventCounter it stands for.
    func channel(eventIndex: Int) -> UInt8 {
        switch self {
        case let .algorithm1(algorithm): algorithm.channel(eventIndex: eventIndex)
        case let .algorithm2(algorithm): algorithm.channel(counter: UInt16(truncatingIfNeeded: eventIndex))
        }
    }

    /// The used data channels.
    var channelMap: UInt64 {
        switch self {
        case let .algorithm1(algorithm): algorithm.channelMap
        case let .algorithm2(algorithm): algorithm.channelMap
        }
    }

    /// Replaces the channel map.
    mutating func setChannelMap(_ map: UInt64) {
        switch self {
        case var .algorithm1(algorithm):
            algorithm.setChannelMap(map)
            self = .algorithm1(algorithm)
        case var .algorithm2(algorithm):
            algorithm.setChannelMap(map)
            self = .algorithm2(algorithm)
        }
    }

    /// The algorithm as the LE Channel Selection Algorithm event names it (Vol 4, Part E, §7.7.65.20).
    var hciAlgorithm: HCI.LEChannelSelectionAlgorithm.Algorithm {
        switch self {
        case .algorithm1: .algorithm1
        case .algorithm2: .algorithm2
        }
    }
}
