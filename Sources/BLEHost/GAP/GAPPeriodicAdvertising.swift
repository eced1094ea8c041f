import BLEWire

/// A periodic train an extended set carries beside its advertising (Core 5.4, Vol 4, Part E,
/// §7.8.61–§7.8.63; Vol 6, Part B, §4.4.2.12): scanners that synchronise to it receive
/// ``data`` every ``interval`` without scanning for it, up to 1,650 octets.
public struct GAPPeriodicAdvertising: Hashable, Sendable {
    /// The periodic interval, in units of 1.25 ms (0x0006, 7.5 ms, and up).
    public var interval: UInt16
    /// The periodic advertising data (the AD structures encoded), up to 1,650 octets.
    public var data: [UInt8]

    /// A train every `interval` × 1.25 ms carrying `data`.
    public init(interval: UInt16, data: [UInt8]) {
        self.interval = interval
        self.data = data
    }

    /// `data` cut into LE Set Periodic Advertising Data's fragments (at most 252 octets each,
    /// §7.8.62), with their operations.
    var fragments: [(HCI.AdvertisingDataOperation, ArraySlice<UInt8>)] {
        let size = HCI.maximumPeriodicAdvertisingDataFragmentLength
        let starts = Array(stride(from: 0, to: max(data.count, 1), by: size))
        return starts.enumerated().map { number, start in
            let operation: HCI.AdvertisingDataOperation = starts.count == 1 ? .complete
                : number == 0 ? .firstFragment : number == starts.count - 1 ? .lastFragment : .intermediateFragment
            return (operation, data[start ..< min(start + size, data.count)])
        }
    }
}
