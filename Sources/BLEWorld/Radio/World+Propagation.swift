import BLEController
import Foundation

extension World {
    /// The mean power in dBm that `to` receives from `from` transmitting at `txPowerDBm`,
    /// both where they are now, or `nil` if the link between them is blocked. Mean means
    /// without shadowing or fading; obstacles count in the realistic mode only.
    public func receivedPowerDBm(from: DeviceID, to: DeviceID, txPowerDBm: Double) -> Double? {
        guard !blockedLinks.contains(LinkKey(from.rawValue, to.rawValue)) else { return nil }
        let sender = state(from)
        let receiver = state(to)
        return meanReceivedPowerDBm(from: sender, at: sender.position(at: now), to: receiver, at: receiver.position(at: now),
                                    txPowerDBm: txPowerDBm, obstacles: configuration.timing == .realistic)
    }

    /// The sum of the obstacle losses along the line of sight from `a` to `b`, in dB.
    public func obstacleLossDB(from a: Vector3, to b: Vector3) -> Double {
        var loss = 0.0
        for obstacle in obstacles where obstacle.shape.intersectsSegment(from: a, to: b) {
            loss += obstacle.lossDB
        }
        return loss
    }

    /// TX power + both antenna gains toward each other − path loss − obstacle losses.
    func meanReceivedPowerDBm(from sender: DeviceState, at senderPosition: Vector3, to receiver: DeviceState,
                              at receiverPosition: Vector3, txPowerDBm: Double, obstacles includeObstacles: Bool) -> Double {
        let path = receiverPosition - senderPosition
        let senderDescription = sender.description
        let receiverDescription = receiver.description
        var power = txPowerDBm + senderDescription.antennaGainDBi + receiverDescription.antennaGainDBi
            - configuration.radio.pathLossDB(distance: path.length)
        if senderDescription.antenna != .isotropic {
            power += senderDescription.antenna.relativeGainDB(headingDegrees: senderDescription.headingDegrees, toward: path)
        }
        if receiverDescription.antenna != .isotropic {
            power += receiverDescription.antenna.relativeGainDB(headingDegrees: receiverDescription.headingDegrees,
                                                                toward: Vector3.zero - path)
        }
        if includeObstacles, !obstacles.isEmpty {
            power -= obstacleLossDB(from: senderPosition, to: receiverPosition)
        }
        return power
    }

    /// Shadowing and fast fading for one packet at one receiver: a function of the seed,
    /// the packet's serial number and the receiver only, so the same packet has the same
    /// level at a receiver whether it is the wanted signal or interference.
    func randomVariationDB(serial: UInt64, receiver: Int) -> Double {
        let radio = configuration.radio
        var variation = 0.0
        let seed = configuration.seed
        if radio.shadowingSigmaDB > 0 {
            variation += radio.shadowingSigmaDB * WorldRandom.gaussian(
                WorldRandom.hash(seed: seed, serial, UInt64(receiver), 1),
                WorldRandom.hash(seed: seed, serial, UInt64(receiver), 2))
        }
        if radio.fastFading {
            // Rayleigh fading: the power gain is exponentially distributed with mean 1.
            let unit = WorldRandom.unit(WorldRandom.hash(seed: seed, serial, UInt64(receiver), 4))
            variation += 10 * log10(-log(unit))
        }
        return variation
    }
}
