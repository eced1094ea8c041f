import BLEWire

/// The timing of extended advertising events (Core 5.4, Vol 6, Part B, §4.4.2): the
/// ADV_EXT_IND on each primary channel points with its AuxPtr to one AUX_ADV_IND on a
/// secondary channel, which points to the AUX_CHAIN_INDs that carry the rest of the data.
public enum ExtendedAdvertisingTiming {
    /// T_MAFS, the minimum time from the end of an auxiliary-pointing packet to the start of
    /// the packet it points to (Vol 6, Part B, §4.1.3): 300 µs.
    public static let minimumAuxiliaryFrameSpace: Microseconds = 300
    /// The AuxPtr offset unit used for offsets below 245,700 µs (§2.3.4.4): 30 µs.
    public static let offsetUnit: Microseconds = 30
    /// The longest extended advertising PDU: a 2-octet header and 255 octets of payload.
    public static let longestPDUOctets = 2 + LL.ExtendedAdvertisingPayload.maximumLength

    /// `time` rounded up to a whole number of AuxPtr offset units.
    public static func roundedUpToOffsetUnit(_ time: Microseconds) -> Microseconds {
        (time + offsetUnit - 1) / offsetUnit * offsetUnit
    }

    /// The shortest AuxPtr offset (start to start) after a packet of `airtime`: its airtime
    /// plus T_MAFS, rounded up to the offset unit so that the pointer is exact.
    public static func minimumAuxiliaryOffset(after airtime: Microseconds) -> Microseconds {
        roundedUpToOffsetUnit(airtime + minimumAuxiliaryFrameSpace)
    }

    /// The AuxPtr for a packet `offset` µs after the start of the one carrying it, on `phy`
    /// (its PHY field names LE Coded without the coding, §2.3.4.5).
    ///
    /// Offsets of 245,700 µs and more must be given in 300 µs units (§2.3.4.5). An event
    /// here puts each auxiliary packet T_MAFS after the one before, so even on LE Coded S=8,
    /// where a 257-octet PDU lasts 17,040 µs, an offset stays far below that: the 30 µs unit
    /// always serves, and the offsets are exact.
    static func pointer(channel: UInt8, offset: Microseconds, phy: RadioPHY) -> LL.ExtendedAdvertisingPayload.AuxiliaryPointer {
        let unit: LL.ExtendedAdvertisingPayload.AuxiliaryPointer.OffsetUnit = offset >= 245_700 ? .threeHundred : .thirty
        return LL.ExtendedAdvertisingPayload.AuxiliaryPointer(
            channelIndex: channel, offsetUnit: unit, offset: UInt16(clamping: offset / unit.microseconds),
            phy: phy.hciPHY)
    }

    /// The AdvData of each auxiliary PDU of an event carrying `dataLength` octets: the
    /// AUX_ADV_IND first (AdvA, ADI and the optional TxPower in its header), then
    /// AUX_CHAIN_INDs (ADI only); each PDU but the last also carries a 3-octet AuxPtr, and
    /// each holds as much as fits in 255 octets of payload. An empty `dataLength` gives one
    /// AUX_ADV_IND without data. A set with a periodic train has SyncInfo (18 octets) in
    /// its AUX_ADV_IND's header too.
    public static func fragmentLengths(dataLength: Int, includesTxPower: Bool, includesSyncInfo: Bool = false) -> [Int] {
        // Extended Header Length octet, flags, ADI (+ AdvA, + TxPower, + SyncInfo on the AUX_ADV_IND).
        let firstHeader = 1 + 1 + 6 + 2 + (includesTxPower ? 1 : 0) + (includesSyncInfo ? LL.SyncInfo.length : 0)
        let chainHeader = 1 + 1 + 2
        var lengths: [Int] = []
        var remaining = dataLength
        repeat {
            let header = lengths.isEmpty ? firstHeader : chainHeader
            let room = LL.ExtendedAdvertisingPayload.maximumLength - header
            let taken = remaining <= room ? remaining : room - 3
            lengths.append(taken)
            remaining -= taken
        } while remaining > 0
        return lengths
    }
}
