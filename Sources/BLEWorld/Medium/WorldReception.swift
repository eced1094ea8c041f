import BLEController

/// One packet one receiver got: what ``World/onReception`` reports.
///
/// A reception is a packet that survived everything the radio model does to it at that
/// receiver (sensitivity, shadowing and fading, collisions and capture, faults) and is handed
/// to the receiver's controller. Runs are compared by these (a digest of every reception's
/// time, receiver, sender, channel and RSSI) and benchmarks count them as their events.
public struct WorldReception: Hashable, Sendable {
    /// When the packet's last bit arrived, in virtual microseconds.
    public var time: Microseconds
    /// The device that received it.
    public var receiver: DeviceID
    /// The device that sent it.
    public var sender: DeviceID
    /// The RF channel index (0–39) it was sent on.
    public var channel: UInt8
    /// The RSSI the receiver measured, in dBm.
    public var rssi: Int8
    /// The LL PDU as received: header and payload (Core 5.4, Vol 6, Part B, §2.3 and §2.4),
    /// so a watcher can tell what was heard (an advertiser's data on an advertising channel).
    public var pdu: [UInt8]

    /// A reception with every field.
    public init(time: Microseconds, receiver: DeviceID, sender: DeviceID, channel: UInt8, rssi: Int8, pdu: [UInt8] = []) {
        self.time = time
        self.receiver = receiver
        self.sender = sender
        self.channel = channel
        self.rssi = rssi
        self.pdu = pdu
    }
}
