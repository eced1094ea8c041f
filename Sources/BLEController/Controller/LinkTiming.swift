import BLEWire

/// Link-layer timing constants of the advertising physical channel (Core 5.4, Vol 6, Part B).
enum LinkTiming {
    /// T_IFS, the inter frame space (§4.1.1).
    static let interFrameSpace: Microseconds = Airtime.interFrameSpace
    /// How far either side of T_IFS a receiver waiting for an answer keeps its window open
    /// (T_IFS is 150 µs ± 2 µs; the margin also covers the world's rounding).
    static let responseWindowMargin: Microseconds = 8
    /// A 0.625 ms advertising and scanning time unit (Vol 4, Part E, §7.8.5, §7.8.10).
    static let unit625: Microseconds = 625
    /// A 1.25 ms connection time unit (Vol 6, Part B, §4.5.1).
    static let unit1250: Microseconds = 1250
    /// The longest advDelay, 10 ms (§4.4.2.2.1).
    static let maximumAdvertisingDelay: Microseconds = 10_000
    /// The high duty cycle directed advertising timeout, 1.28 s (§4.4.2.4.3).
    static let highDutyCycleTimeout: Microseconds = 1_280_000
    /// Airtime of a CONNECT_IND (34-octet payload), the longest answer to an advertising PDU.
    static let connectIndicationAirtime = Airtime.duration(pduOctets: 2 + 34, phy: .le1M)
    /// Airtime of the longest SCAN_RSP (6-octet AdvA, 31 octets of data).
    static let longestScanResponseAirtime = Airtime.duration(pduOctets: 2 + 37, phy: .le1M)
    /// Pause between the end of one advertising PDU's slot and the next PDU in the event.
    static let channelSwitchGap: Microseconds = 150

    /// The window in which an answer sent T_IFS after a packet that ended at `end` starts
    /// (on a secondary channel, on the PHY of the packet answered).
    static func responseWindow(after end: Microseconds, channel: UInt8, phy: RadioPHY = .le1M) -> ReceiverWindow {
        ReceiverWindow(
            channel: channel, phy: phy, accessAddress: RadioTransmission.advertisingAccessAddress,
            opens: end + interFrameSpace - responseWindowMargin, closes: end + interFrameSpace + responseWindowMargin)
    }

    /// A transmission on an advertising channel at `start` with `pdu`.
    static func advertisingTransmission(
        _ pdu: LL.AdvertisingPDU, channel: UInt8, start: Microseconds, txPowerDBm: Double
    ) -> RadioTransmission {
        RadioTransmission(
            channel: channel, phy: .le1M, accessAddress: RadioTransmission.advertisingAccessAddress,
            pdu: pdu.encoded(), start: start, txPowerDBm: txPowerDBm)
    }
}

/// What the controller's advertising, scanning and initiating activities ask of it besides
/// opening the receiver (which the controller arbitrates from their claims).
enum LinkEffect: Sendable {
    /// Put a packet on the air.
    case transmit(RadioTransmission)
    /// An event for the host, at once.
    case event(HCI.Event)
    /// A connection was made: create its link layer and tell the host.
    case connected(NewConnection)
}

/// A connection an advertiser accepted or an initiator created.
struct NewConnection: Sendable {
    /// Our role in it.
    var role: HCI.Role
    /// The CONNECT_IND's LLData.
    var request: LL.ConnectionRequestData
    /// When the CONNECT_IND's last bit left the initiator.
    var connectIndicationEnd: Microseconds
    /// Our address in the CONNECT_IND.
    var localAddress: BluetoothAddress
    /// The peer's address in the CONNECT_IND.
    var peerAddress: BluetoothAddress
    /// The PHY the connection starts on: LE 1M after CONNECT_IND, the secondary PHY of an
    /// AUX_CONNECT_REQ (Vol 6, Part B, §4.5).
    var phy: RadioPHY = .le1M
    /// Whether the link hops with Channel Selection Algorithm #2 (§4.5.8.3).
    var channelSelectionAlgorithm2 = false
    /// From the end of the connect request to the transmit window (§4.5.3).
    var transmitWindowDelay: Microseconds = LinkTiming.unit1250
    /// The extended advertising set that accepted the connection (peripheral role), if one did.
    var advertisingHandle: UInt8?
}

/// What an activity wants of the one receiver right now.
enum RadioClaim: Equatable, Sendable {
    /// Nothing: lower-priority activities may use the radio.
    case none
    /// The activity is in the middle of an exchange and holds the radio, with its receiver
    /// window (or `nil` while it only transmits).
    case busy(ReceiverWindow?)
    /// The activity would like to listen with this window, if nothing more important does.
    case listen(ReceiverWindow)
}

/// An entry of the filter accept list (Core 5.4, Vol 6, Part B, §4.3.1).
struct FilterAcceptListEntry: Hashable, Sendable {
    /// The Address_Type given by the host (0xFF: anonymous advertisements).
    var addressType: HCI.AddressType
    /// The device address (its kind follows the type).
    var address: BluetoothAddress

    /// Whether a PDU sent from `sender` matches this entry.
    func matches(_ sender: BluetoothAddress) -> Bool {
        addressType != .anonymous && address.value == sender.value && addressType.addressKind == sender.kind
    }
}

extension Array where Element == FilterAcceptListEntry {
    /// Whether a device sending as `address` is on the list.
    func contains(device address: BluetoothAddress) -> Bool {
        contains { $0.matches(address) }
    }
}
