/// One packet a controller puts on the air: the unit of the medium protocol between a
/// simulated controller and the world (see `ControllerOutput.transmit`).
///
/// The world computes who hears it: every other device whose receiver is open on the same
/// channel and access address when the packet starts, above its sensitivity and not lost to
/// a collision (Core 5.4, Vol 6, Part A, §4 for the radio; DESIGN.md for the model).
public struct RadioTransmission: Hashable, Sendable {
    /// The channel index, 0–36 data channels, 37–39 primary advertising channels
    /// (Core 5.4, Vol 6, Part B, §1.4.1).
    public var channel: UInt8
    /// The PHY the packet is sent on.
    public var phy: RadioPHY
    /// The access address: 0x8E89BED6 on advertising channels, the connection's otherwise.
    public var accessAddress: UInt32
    /// The LL PDU: 2-octet header and payload (with the MIC inside when encrypted), as in
    /// Core 5.4, Vol 6, Part B, §2.3 and §2.4; no preamble, access address or CRC.
    public var pdu: [UInt8]
    /// When the first bit leaves the antenna.
    public var start: Microseconds
    /// Transmit power in dBm at the antenna port (before antenna gain).
    public var txPowerDBm: Double

    /// A transmission with every field.
    public init(channel: UInt8, phy: RadioPHY, accessAddress: UInt32, pdu: [UInt8], start: Microseconds, txPowerDBm: Double) {
        self.channel = channel
        self.phy = phy
        self.accessAddress = accessAddress
        self.pdu = pdu
        self.start = start
        self.txPowerDBm = txPowerDBm
    }

    /// The airtime of the packet.
    public var duration: Microseconds { Airtime.duration(pduOctets: pdu.count, phy: phy) }
    /// When the last bit leaves the antenna.
    public var end: Microseconds { start + duration }

    /// The advertising-channel access address (Core 5.4, Vol 6, Part B, §2.1.2).
    public static let advertisingAccessAddress: UInt32 = 0x8E89_BED6
}

/// A packet as one receiver got it, delivered by the world when its last bit arrives.
public struct RadioReception: Hashable, Sendable {
    /// What was sent.
    public var transmission: RadioTransmission
    /// Received signal strength in dBm, rounded to an integer as controllers report it.
    public var rssi: Int8

    /// A reception of `transmission` at `rssi`.
    public init(transmission: RadioTransmission, rssi: Int8) {
        self.transmission = transmission
        self.rssi = rssi
    }
}

/// When and where a controller's receiver listens. A packet whose first bit arrives while
/// the window is open on its channel, PHY and access address is received in full, even if
/// the window closes before its last bit (the receiver has locked on).
public struct ReceiverWindow: Hashable, Sendable {
    /// The channel listened to.
    public var channel: UInt8
    /// The PHY listened on.
    public var phy: RadioPHY
    /// The access address the receiver correlates against.
    public var accessAddress: UInt32
    /// When the receiver opens.
    public var opens: Microseconds
    /// When it closes if nothing has started arriving; `nil` listens until told otherwise.
    public var closes: Microseconds?

    /// A window with every field.
    public init(channel: UInt8, phy: RadioPHY, accessAddress: UInt32, opens: Microseconds, closes: Microseconds?) {
        self.channel = channel
        self.phy = phy
        self.accessAddress = accessAddress
        self.opens = opens
        self.closes = closes
    }
}
