/// Channel selection algorithm #1 (Core 5.4, Vol 6, Part B, §4.5.8.2): each connection
/// event moves the unmapped channel on by hopIncrement modulo 37; an unmapped channel
/// that the channel map does not use is remapped to the used channel at index
/// `unmapped mod numUsedChannels` in ascending order.
public struct ChannelSelectionAlgorithm1: Hashable, Sendable {
    /// hopIncrement from CONNECT_IND (5 to 16).
    public var hopIncrement: UInt8
    /// The used data channels, bit n for channel n (37 bits).
    public private(set) var channelMap: UInt64
    /// The used channels in ascending order (the remapping table).
    public private(set) var usedChannels: [UInt8]

    /// The algorithm for `hopIncrement` over `channelMap`. A map with no used channel
    /// (which a peer must not send) is treated as all 37 channels, so selection stays total.
    public init(hopIncrement: UInt8, channelMap: UInt64) {
        self.hopIncrement = hopIncrement
        self.channelMap = 0
        self.usedChannels = []
        setChannelMap(channelMap)
    }

    /// Replaces the channel map (at a channel map update's instant).
    public mutating func setChannelMap(_ map: UInt64) {
        var masked = map & 0x1F_FFFF_FFFF
        if masked == 0 { masked = 0x1F_FFFF_FFFF }
        channelMap = masked
        usedChannels = (0 ..< 37).compactMap { channel in masked >> UInt64(channel) & 1 == 1 ? UInt8(channel) : nil }
    }

    /// The unmapped channel of the connection event with index `eventIndex` (0 for the
    /// first event): lastUnmappedChannel starts at 0 and gains hopIncrement per event.
    public func unmappedChannel(eventIndex: Int) -> UInt8 {
        let steps = (eventIndex + 1) % 37
        return UInt8((steps * Int(hopIncrement)) % 37)
    }

    /// The data channel used in the connection event with index `eventIndex`.
    public func channel(eventIndex: Int) -> UInt8 {
        let unmapped = unmappedChannel(eventIndex: eventIndex)
        if channelMap >> UInt64(unmapped) & 1 == 1 { return unmapped }
        let count = usedChannels.count
        guard count > 0 else { return unmapped }
        return usedChannels[Int(unmapped) % count]
    }
}
