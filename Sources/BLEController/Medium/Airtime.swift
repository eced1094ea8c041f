/// How long a PDU occupies the air (Core 5.4, Vol 6, Part B, §2.1 and §2.2): preamble,
/// access address, PDU (header and payload, MIC included when encrypted) and CRC.
public enum Airtime {
    /// The inter frame space between consecutive packets on a channel (Vol 6, Part B, §4.1.1).
    public static let interFrameSpace: Microseconds = 150

    /// Octets of the access address.
    public static let accessAddressOctets = 4
    /// Octets of the CRC.
    public static let crcOctets = 3

    /// LE Coded's preamble, 80 µs: ten repetitions of the 8-symbol pattern 00111100, not
    /// coded, at 1 Msym/s (Vol 6, Part B, §2.1.1 and §2.2).
    public static let codedPreamble: Microseconds = 80
    /// LE Coded's FEC block 1, always at S=8 (§2.2): the 32-bit access address (256 µs),
    /// the 2-bit Coding Indicator (16 µs) and the 3-bit TERM1 (24 µs).
    public static let codedBlock1: Microseconds = 256 + 16 + 24
    /// Bits of TERM2, the tail that closes FEC block 2 (§2.2): 3, coded like the PDU.
    public static let codedTerm2Bits: Microseconds = 3

    /// The airtime of a PDU of `pduOctets` (2-octet header plus payload) on `phy`.
    ///
    /// On LE 1M a 27-octet data PDU (29 octets with its header) takes 296 µs and an empty
    /// PDU 80 µs; on LE 2M each octet takes 4 µs and the preamble is 2 octets. On LE Coded
    /// the preamble and FEC block 1 take 376 µs, then the PDU, CRC and TERM2 take S µs a
    /// bit: an empty PDU lasts 462 µs at S=2 and 720 µs at S=8, and a 27-octet payload
    /// with its MIC 2,704 µs at S=8 (the LE Coded connMaxTxTime of §4.5.10).
    public static func duration(pduOctets: Int, phy: RadioPHY) -> Microseconds {
        switch phy {
        case .le1M:
            return Microseconds(1 + accessAddressOctets + pduOctets + crcOctets) * 8
        case .le2M:
            return Microseconds(2 + accessAddressOctets + pduOctets + crcOctets) * 4
        case let .leCoded(coding):
            let block2Bits = Microseconds(pduOctets + crcOctets) * 8 + codedTerm2Bits
            return codedPreamble + codedBlock1 + block2Bits * coding.microsecondsPerBit
        }
    }
}
