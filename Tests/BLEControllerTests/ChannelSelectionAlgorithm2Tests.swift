import BLEController
import Testing

/// Channel Selection Algorithm #2 (Core 5.4, Vol 6, Part B, §4.5.8.3) against the
/// specification's sample data (Vol 6, Part C, §3): access address 0x8E89BED6.
@Suite("Channel Selection Algorithm #2")
struct ChannelSelectionAlgorithm2Tests {
    static let accessAddress: UInt32 = 0x8E89_BED6
    /// Channels 9, 10, 21, 22, 23, 33, 34, 35 and 36 (sample data 2).
    static let nineChannels: UInt64 = [9, 10, 21, 22, 23, 33, 34, 35, 36].reduce(0) { $0 | 1 << UInt64($1) }

    @Test("The channel identifier of 0x8E89BED6 is 0x305F")
    func channelIdentifier() {
        #expect(ChannelSelectionAlgorithm2.channelIdentifier(accessAddress: Self.accessAddress) == 0x305F)
    }

    @Test("Sample data 1, all 37 channels used: counters 0 to 3 give channels 25, 20, 6 and 21")
    func allChannels() {
        let algorithm = ChannelSelectionAlgorithm2(accessAddress: Self.accessAddress, channelMap: 0x1F_FFFF_FFFF)
        #expect((0 ... 3).map { algorithm.channel(counter: $0) } == [25, 20, 6, 21])
    }

    @Test("Sample data 2, nine channels used: counters 6 to 8 give channels 23, 9 and 34")
    func nineUsedChannels() {
        let algorithm = ChannelSelectionAlgorithm2(accessAddress: Self.accessAddress, channelMap: Self.nineChannels)
        #expect((6 ... 8).map { algorithm.channel(counter: $0) } == [23, 9, 34])
    }

    @Test("Every counter gives a used channel of a two-channel map")
    func remapsIntoTheMap() {
        let algorithm = ChannelSelectionAlgorithm2(accessAddress: Self.accessAddress, channelMap: 0b110)
        #expect(Set((0 ... UInt16.max).map { algorithm.channel(counter: $0) }) == [1, 2])
    }
}
