import BLEController
import BLEWire

/// The most notifications a link can carry one way, worked out from airtimes (Core 5.4,
/// Vol 6, Part B, §2.1, §4.1.1 and §4.5.1) the way our controller schedules a connection
/// event: the central opens each exchange with an empty PDU, the peripheral answers with
/// a data PDU T_IFS later, and the next exchange starts T_IFS after that. A data PDU goes
/// out only when it and the T_IFS after it end before the next anchor, so an event holds
/// ⌊interval ÷ (empty + T_IFS + data + T_IFS)⌋ full-length exchanges; what is left of the
/// interval stays idle.
///
/// A notification of B octets is an L2CAP B-frame of B + 7 octets (4 of L2CAP header,
/// 1 of opcode, 2 of handle; Vol 3, Part A, §3.1 and Part F, §3.4.7.1), cut into data
/// PDUs of at most connMaxTxOctets. At 7.5 ms, 251 octets and LE 2M, a 244-octet
/// notification is exactly one 251-octet PDU: 1048 µs of air, an exchange of 1392 µs,
/// five per event, 666.7 notifications and 1.30 Mbit/s of values per second. (The
/// "about 1.4 Mbit/s" of a stream that never stops at event boundaries, 1952 bits every
/// 1392 µs, is what no connection event can reach.)
public struct ATTCeiling: Sendable {
    /// Notifications per second.
    public var notificationsPerSecond: Double
    /// Value octets per second.
    public var bytesPerSecond: Double
    /// Data PDUs in a connection event that starts with a new value.
    public var pdusPerEvent: Int

    /// The ceiling for `size`-octet notifications over `dataLength`-octet PDUs on `phy`
    /// (both directions), at `intervalMicroseconds`.
    public init(size: Int, dataLength: Int, phy: HCI.PHY, intervalMicroseconds: Int) {
        let radio: RadioPHY = phy == .le2M ? .le2M : .le1M
        let ifs = Int(Airtime.interFrameSpace)
        let empty = Int(Airtime.duration(pduOctets: 2, phy: radio))
        func exchange(_ payload: Int) -> Int { empty + ifs + Int(Airtime.duration(pduOctets: 2 + payload, phy: radio)) + ifs }
        let frame = size + 7
        let length = max(dataLength, 27)
        let fragments = (0 ..< (frame + length - 1) / length).map { min(length, frame - $0 * length) }
        pdusPerEvent = 0
        // Walk events until the fragment pattern lines up with an event start again (or
        // for long enough that the average settles), counting whole notifications.
        var fragment = 0, notifications = 0, events = 0
        repeat {
            var used = 0
            while used + exchange(fragments[fragment]) <= intervalMicroseconds {
                used += exchange(fragments[fragment])
                if events == 0 { pdusPerEvent += 1 }
                fragment += 1
                if fragment == fragments.count { fragment = 0; notifications += 1 }
            }
            events += 1
            if used == 0 { break }  // not one PDU fits an event: nothing gets through
        } while fragment != 0 && events < 10_000
        let seconds = Double(events * intervalMicroseconds) / 1e6
        notificationsPerSecond = Double(notifications) / seconds
        bytesPerSecond = notificationsPerSecond * Double(size)
    }
}
