import BLEController
import Foundation

extension World {
    /// The mean power in dBm that a receiver described by `receiver`, standing at
    /// `position` and facing its `headingDegrees`, would get from `device` transmitting at
    /// `txPowerDBm` at `time` (default ``now``): the link budget the medium applies to real packets (antenna
    /// patterns and headings, path loss, body shadows, obstacles where they are now),
    /// for a receiver that is not in the world. Coverage maps ask it cell by cell.
    /// Obstacles count in the realistic mode only, as for packets.
    /// - Parameters:
    ///   - device: the transmitter, a device of this world.
    ///   - txPowerDBm: its transmit power at the antenna port.
    ///   - receiver: the receiving front end (antenna, gain, body); its position and route
    ///     are ignored.
    ///   - position: where the receiver's antenna is.
    ///   - time: when; the transmitter is where its route or carrier puts it then, as they
    ///     stand now (as ``position(of:at:)``: a later scripted move is not foreseen).
    public func receivedPowerDBm(from device: DeviceID, txPowerDBm: Double, receiver: DeviceDescription, at position: Vector3,
                                 time: Microseconds? = nil) -> Double {
        let sender = state(device)
        let time = time ?? now
        return meanReceivedPowerDBm(from: sender.description, heading: sender.headingDegrees(at: time), at: sender.position(at: time),
                                    to: receiver, heading: receiver.headingDegrees, at: position, time: time,
                                    txPowerDBm: txPowerDBm, obstacles: configuration.timing == .realistic)
    }

    /// The probability that one packet whose mean received power is `meanPowerDBm` arrives
    /// above `sensitivityDBm`, under this world's model of packet-to-packet variation
    /// (``RadioModel/receptionProbability(meanPowerDBm:sensitivityDBm:)``); 1 in the ideal
    /// mode, which has no sensitivity limit. Collisions and configured packet loss are not
    /// included.
    public func receptionProbability(meanPowerDBm: Double, sensitivityDBm: Double) -> Double {
        guard configuration.timing == .realistic else { return 1 }
        return configuration.radio.receptionProbability(meanPowerDBm: meanPowerDBm, sensitivityDBm: sensitivityDBm)
    }

    /// The heading of `device` at `time` in degrees (0° along +x, counter-clockwise), as
    /// ``heading(of:)`` gives it at ``now``: the way it moves when its heading follows its
    /// route, else the heading it was given or turned to.
    public func heading(of device: DeviceID, at time: Microseconds) -> Double {
        state(device).headingDegrees(at: time)
    }
}
