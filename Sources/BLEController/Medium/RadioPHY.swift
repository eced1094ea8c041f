/// The LE physical layers a simulated radio can use (Core 5.4, Vol 6, Part A, §3).
public enum RadioPHY: UInt8, Hashable, Sendable, CaseIterable {
    /// LE 1M: 1 Msym/s, 8 µs per octet, 1-octet preamble.
    case le1M = 1
    /// LE 2M: 2 Msym/s, 4 µs per octet, 2-octet preamble.
    case le2M = 2
}
