/// How long a PDU occupies the air (Core 5.4, Vol 6, Part B, §2.1 and §2.2): preamble,
/// access address, PDU (header and payload, MIC included when encrypted) and CRC.
public enum Airtime {
    /// The inter frame space between consecutive packets on a channel (Vol 6, Part B, §4.1.1).
    public static let interFrameSpace: Microseconds = 150

    /// Octets of the access address.
    public static let accessAddressOctets = 4
    /// Octets of the CRC.
    public static let crcOctets = 3

    /// The airtime of a PDU of `pduOctets` (2-octet header plus payload) on `phy`.
    ///
    /// On LE 1M a 27-octet data PDU (29 octets with its header) takes 296 µs and an empty
    /// PDU 80 µs; on LE 2M each octet takes 4 µs and the preamble is 2 octets.
    public static func duration(pduOctets: Int, phy: RadioPHY) -> Microseconds {
        switch phy {
        case .le1M:
            return Microseconds(1 + accessAddressOctets + pduOctets + crcOctets) * 8
        case .le2M:
            return Microseconds(2 + accessAddressOctets + pduOctets + crcOctets) * 4
        }
    }
}
