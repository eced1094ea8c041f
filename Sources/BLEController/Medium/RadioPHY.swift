import BLEWire

/// The LE physical layers a simulated radio can use (Core 5.4, Vol 6, Part A, §3).
public enum RadioPHY: Hashable, Sendable, CaseIterable {
    /// LE 1M: 1 Msym/s, 8 µs per octet, 1-octet preamble.
    case le1M
    /// LE 2M: 2 Msym/s, 4 µs per octet, 2-octet preamble.
    case le2M
    /// LE Coded: 1 Msym/s with forward error correction, the PDU and CRC spread by
    /// `coding` (Vol 6, Part B, §2.2 and §3.3): slower than 1M, heard further.
    case leCoded(LECoding)

    /// Every PHY, each coding of LE Coded apart.
    public static let allCases: [RadioPHY] = [.le1M, .le2M, .leCoded(.s2), .leCoded(.s8)]

    /// Whether a receiver listening on this PHY decodes a packet sent on `other`: the same
    /// modulation, whatever the coding of an LE Coded packet (its Coding Indicator, sent at
    /// S=8 in FEC block 1, tells the receiver how block 2 is coded; Vol 6, Part B, §2.2).
    /// A 1M receiver gets nothing from a Coded or 2M packet, and the other way round.
    public func decodes(_ other: RadioPHY) -> Bool {
        switch (self, other) {
        case (.le1M, .le1M), (.le2M, .le2M), (.leCoded, .leCoded): true
        default: false
        }
    }

    /// The radio PHY for one HCI PHY value (an AuxPtr's PHY field, Vol 6, Part B, §2.3.4.5, or
    /// a command's): LE Coded with `coding`, which HCI v1 commands and the AuxPtr do not name
    /// (a receiver takes either coding; a transmitter without a host preference uses S=8).
    public init(_ phy: HCI.PHY, coding: LECoding = .s8) {
        switch phy {
        case .le1M: self = .le1M
        case .le2M: self = .le2M
        case .leCoded: self = .leCoded(coding)
        }
    }

    /// The PHY as HCI events name it (Vol 4, Part E, §7.7.65.13): LE Coded whatever its coding.
    public var hciPHY: HCI.PHY {
        switch self {
        case .le1M: .le1M
        case .le2M: .le2M
        case .leCoded: .leCoded
        }
    }
}

/// The coding of an LE Coded packet's FEC block 2, the PDU, CRC and TERM2 (Core 5.4,
/// Vol 6, Part B, §2.2 and §3.3.2): each bit becomes S symbols. FEC block 1 (access
/// address, Coding Indicator, TERM1) is always coded with S=8.
public enum LECoding: Int, Hashable, Sendable, CaseIterable {
    /// S=2: 500 kb/s, 2 µs per bit.
    case s2 = 2
    /// S=8: 125 kb/s, 8 µs per bit; the longest reach.
    case s8 = 8

    /// Microseconds per bit of FEC block 2 (one symbol per microsecond).
    public var microsecondsPerBit: Microseconds { Microseconds(rawValue) }

    /// The coding a controller that has both sends for a host's PHY options (LE Set Extended
    /// Advertising Parameters [v2], Core 5.4, Vol 4, Part E, §7.8.53): the one preferred or
    /// required, S=8 (the longest reach) when the host has no preference.
    public init(_ options: HCI.AdvertisingPHYOptions) {
        switch options {
        case .preferS2, .requireS2: self = .s2
        case .noPreference, .preferS8, .requireS8: self = .s8
        }
    }
}
