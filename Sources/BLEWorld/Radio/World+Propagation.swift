import BLEController
import Foundation

extension World {
    /// The mean power in dBm that `to` receives from `from` transmitting at `txPowerDBm`,
    /// both where they are now, or `nil` if the link between them is blocked. Mean means
    /// without shadowing or fading; obstacles count in the realistic mode only.
    public func receivedPowerDBm(from: DeviceID, to: DeviceID, txPowerDBm: Double) -> Double? {
        guard !blockedLinks.contains(LinkKey(from.rawValue, to.rawValue)),
              !blockedDirections.contains(DirectedLinkKey(sender: from.rawValue, receiver: to.rawValue)) else { return nil }
        let sender = state(from)
        let receiver = state(to)
        return meanReceivedPowerDBm(from: sender, at: sender.position(at: now), to: receiver, at: receiver.position(at: now),
                                    time: now, txPowerDBm: txPowerDBm, obstacles: configuration.timing == .realistic)
    }

    /// The sum of the obstacle losses along the line of sight from `a` to `b`, in dB, with
    /// obstacles attached to devices where those devices are at ``now``.
    public func obstacleLossDB(from a: Vector3, to b: Vector3) -> Double {
        obstacleLossDB(from: a, to: b, at: now)
    }

    /// The sum of the obstacle losses along the line of sight from `a` to `b` at `time`, in
    /// dB: an attached obstacle's shape is moved to its device's position at that time.
    public func obstacleLossDB(from a: Vector3, to b: Vector3, at time: Microseconds) -> Double {
        var loss = 0.0
        for (index, obstacle) in obstacles.enumerated() {
            if let carrier = obstacleCarriers[index] {
                // The segment moves into the obstacle's frame instead of the shape into the world's.
                let origin = carrier.position(at: time)
                if obstacle.shape.intersectsSegment(from: a - origin, to: b - origin) { loss += obstacle.lossDB }
            } else if obstacle.shape.intersectsSegment(from: a, to: b) {
                loss += obstacle.lossDB
            }
        }
        return loss
    }

    /// TX power + both antenna gains toward each other − path loss − body shadows −
    /// obstacle losses, with headings and attached obstacles as they are at `time`.
    func meanReceivedPowerDBm(from sender: DeviceState, at senderPosition: Vector3, to receiver: DeviceState,
                              at receiverPosition: Vector3, time: Microseconds, txPowerDBm: Double,
                              obstacles includeObstacles: Bool) -> Double {
        meanReceivedPowerDBm(from: sender.frontEnd, heading: sender.headingDegrees(at: time), at: senderPosition,
                             to: receiver.frontEnd, heading: receiver.headingDegrees(at: time), at: receiverPosition,
                             time: time, txPowerDBm: txPowerDBm, obstacles: includeObstacles)
    }

    /// The link budget itself, for any two front ends: the medium's links between devices
    /// and the coverage probe (``receivedPowerDBm(from:txPowerDBm:receiver:at:time:)``) both use
    /// it, so a coverage map and the packets of a run come from one model. Headings are
    /// evaluated only for front ends that have a direction.
    func meanReceivedPowerDBm(from senderDescription: DeviceDescription, heading senderHeading: @autoclosure () -> Double,
                              at senderPosition: Vector3, to receiverDescription: DeviceDescription,
                              heading receiverHeading: @autoclosure () -> Double, at receiverPosition: Vector3,
                              time: Microseconds, txPowerDBm: Double, obstacles includeObstacles: Bool) -> Double {
        meanReceivedPowerDBm(from: RadioFrontEnd(senderDescription), heading: senderHeading(), at: senderPosition,
                             to: RadioFrontEnd(receiverDescription), heading: receiverHeading(), at: receiverPosition,
                             time: time, txPowerDBm: txPowerDBm, obstacles: includeObstacles)
    }

    /// The link budget between two front ends (``RadioFrontEnd``), which the medium reads
    /// from its devices in place for every receiver of every packet rather than copying their
    /// descriptions (names and routes included).
    func meanReceivedPowerDBm(from sender: RadioFrontEnd, heading senderHeading: @autoclosure () -> Double,
                              at senderPosition: Vector3, to receiver: RadioFrontEnd,
                              heading receiverHeading: @autoclosure () -> Double, at receiverPosition: Vector3,
                              time: Microseconds, txPowerDBm: Double, obstacles includeObstacles: Bool) -> Double {
        let path = receiverPosition - senderPosition
        var power = txPowerDBm + sender.antennaGainDBi + receiver.antennaGainDBi
            - configuration.radio.pathLossDB(distance: path.length)
        if sender.antenna != .isotropic || sender.bodyLossDB > 0 {
            let heading = senderHeading()
            power += sender.antenna.relativeGainDB(headingDegrees: heading, toward: path)
            power -= BodyShadow.lossDB(sender.bodyLossDB, headingDegrees: heading, toward: path)
        }
        if receiver.antenna != .isotropic || receiver.bodyLossDB > 0 {
            let heading = receiverHeading()
            let back = Vector3.zero - path
            power += receiver.antenna.relativeGainDB(headingDegrees: heading, toward: back)
            power -= BodyShadow.lossDB(receiver.bodyLossDB, headingDegrees: heading, toward: back)
        }
        if includeObstacles, !obstacles.isEmpty {
            power -= obstacleLossDB(from: senderPosition, to: receiverPosition, at: time)
        }
        return power
    }

    /// Whether a packet whose mean level at `receiver` is `meanPowerDBm` certainly stays
    /// below `sensitivity` once ``randomVariationDB(serial:receiver:)`` is added, judged
    /// without the logarithm and cosine of the draw: most receivers that lock onto a packet
    /// stand where only the rarest draw could lift it to their sensitivity.
    ///
    /// Shadowing adds σ·√(−2 ln u₁)·cos(2π u₂), which is at most σ·√(2 (1/u₁ − 1)), since
    /// ln x ≤ x − 1 for x = 1/u₁. So a packet whose shortfall (sensitivity − mean) exceeds
    /// that by a millionth of σ (far above a double's rounding of these sums) is lost however
    /// the cosine falls, exactly as the full draw would find. `false` (draw in full) with
    /// fast fading, whose gain this does not bound, or anything that is not a number.
    @inline(__always)
    func isSurelyBelow(_ sensitivity: Double, meanPowerDBm: Double, serial: UInt64, receiver: Int) -> Bool {
        let radio = configuration.radio
        guard !radio.fastFading, radio.shadowingSigmaDB > 0 else { return false }
        let shortfall = (sensitivity - meanPowerDBm) / radio.shadowingSigmaDB
        guard shortfall > 0 else { return false }
        let unit = WorldRandom.unit(WorldRandom.hash(seed: configuration.seed, serial, UInt64(receiver), 1))
        return shortfall > ShadowingFactors.firstDrawBound(unit)
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
