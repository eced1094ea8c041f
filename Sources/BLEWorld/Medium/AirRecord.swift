import BLEController

/// One receiver locked onto a transmission, with the device's epoch at the time.
struct ReceiverLock {
    var device: Int
    var epoch: UInt64
}

/// A transmission on its channel's traffic (``World/onAir``), whether anyone locked onto it
/// (only such a packet collects its interferers), and what it is to the packets it overlaps,
/// kept here so that a packet joining the traffic copies it from this list instead of reading
/// every other packet's record (at 100,000 beacons some 37 share a channel at any moment).
struct OnAir {
    var slot: Int
    var heard: Bool
    /// The packet as an interferer: the fields of its record that never change while it is
    /// on the air (its sender, serial number, position, power and front end).
    var interferer: Interferer
}

/// Another transmission overlapping one on the same channel: what a receiver needs to
/// work out its interference.
struct Interferer {
    var sender: Int
    var serial: UInt64
    var position: Vector3
    var txPowerDBm: Double
    /// The sender's front end, which never changes, so the link budget at each receiver
    /// reads the sender only for a heading its antenna or body makes matter.
    var frontEnd: RadioFrontEnd
}

/// A transmission the world has scheduled or has on the air. Pooled and reused. Release
/// builds skip the run-time exclusivity checks on its fields, read for every receiver of
/// every packet (docs/decisions/0046-release-builds-skip-runtime-exclusivity-checks.md).
final class AirRecord {
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var transmission: RadioTransmission
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var sender = 0
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var senderEpoch: UInt64 = 0
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var serial: UInt64 = 0
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var started = false
    /// The sequence number the packet's end event has, or would have had had anyone locked
    /// onto it (``UnheardEnds``).
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var endSequence: UInt64 = 0
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var senderPosition = Vector3.zero
    /// The sender's front end, read when the packet starts.
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var senderFrontEnd = RadioFrontEnd(antenna: .isotropic, antennaGainDBi: 0, bodyLossDB: 0)
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var receivers: [ReceiverLock] = []
    #if !DEBUG
    @exclusivity(unchecked)
    #endif
    var interferers: [Interferer] = []

    init(transmission: RadioTransmission) {
        self.transmission = transmission
    }
}
