import BLEWire

/// The AUX_CONNECT_REQ / AUX_CONNECT_RSP exchange that opens a connection from connectable
/// extended advertising (Core 5.4, Vol 6, Part B, §2.3.3.1, §2.3.3.2, §4.4.2.8 and §4.5.3):
/// the initiator sends AUX_CONNECT_REQ T_IFS after the AUX_ADV_IND, on its channel and PHY;
/// the advertiser answers T_IFS later with AUX_CONNECT_RSP (AdvA and TargetA in the common
/// extended payload format), and the connection starts on that PHY.
public enum AuxiliaryConnectTiming {
    /// The octets of an AUX_CONNECT_REQ: a 2-octet header, InitA, AdvA and the 22 octets of LLData (§2.3.3.1).
    public static let connectRequestOctets = 2 + 6 + 6 + 22
    /// The octets of an AUX_CONNECT_RSP: a 2-octet header, the Extended Header Length and
    /// AdvMode octet, the flags, AdvA and TargetA (§2.3.3.2).
    public static let connectResponseOctets = 2 + 1 + 1 + 6 + 6

    /// How long the exchange holds the radio after the AUX_ADV_IND ends, on `phy`: T_IFS, the
    /// AUX_CONNECT_REQ, T_IFS and the AUX_CONNECT_RSP.
    public static func exchangeDuration(on phy: RadioPHY) -> Microseconds {
        2 * Airtime.interFrameSpace + Airtime.duration(pduOctets: connectRequestOctets, phy: phy)
            + Airtime.duration(pduOctets: connectResponseOctets, phy: phy)
    }

    /// transmitWindowDelay after an AUX_CONNECT_REQ sent on `phy` (§4.5.3): 2.5 ms on LE 1M
    /// and LE 2M, 3.75 ms on LE Coded (1.25 ms after a CONNECT_IND).
    public static func transmitWindowDelay(on phy: RadioPHY) -> Microseconds {
        if case .leCoded = phy { return 3750 }
        return 2500
    }

    /// The AUX_CONNECT_RSP of `advertiser` to `initiator`.
    static func connectResponse(advertiser: BluetoothAddress, initiator: BluetoothAddress) -> LL.AdvertisingPDU {
        let payload = LL.ExtendedAdvertisingPayload(advertiserAddress: advertiser, targetAddress: initiator)
        return LL.AdvertisingPDU(payload: .extended(type: .auxConnectRsp, payload: payload.encoded()[...]), reservedBits: payload.headerBits)
    }
}
