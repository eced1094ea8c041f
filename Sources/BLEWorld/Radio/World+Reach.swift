import BLEController
import Foundation

extension World {
    /// The largest random variation, in dB, that ``randomVariationDB(serial:receiver:)`` can
    /// ever add to a packet's mean level under `radio`.
    ///
    /// The draws come from 53-bit uniforms, `WorldRandom.unit(bits)`, whose smallest value is
    /// u₀ = 0.5 / 2⁵³ (`unit(0)`). Box–Muller's normal is √(−2 ln u₁)·cos(2π u₂), so its
    /// magnitude never exceeds √(−2 ln u₀) ≈ 8.65: shadowing adds at most 8.65 σ dB. Rayleigh
    /// fading adds 10·log10(−ln u), at most 10·log10(−ln u₀) ≈ 15.7 dB. These are the
    /// generator's own limits, not a confidence level: no draw goes beyond them.
    static func maximumVariationDB(_ radio: RadioModel) -> Double {
        let smallest = WorldRandom.unit(0)
        var variation = 0.0
        if radio.shadowingSigmaDB > 0 { variation += radio.shadowingSigmaDB * (-2 * log(smallest)).squareRoot() }
        if radio.fastFading { variation += 10 * log10(-log(smallest)) }
        return variation
    }

    /// A margin for the rounding of the link budget's sums, in dB: far above a double's
    /// error on a few additions of figures under a few hundred dB, far below anything a
    /// receiver could tell apart.
    static let reachRoundingDB = 0.001

    /// How far a packet sent at `txPowerDBm` by a front end with `senderGainDBi` on `phy` can be
    /// received, or `nil` when there is no such bound (the ideal mode, where every packet
    /// arrives, or a path loss that does not grow with distance).
    ///
    /// The bound, from the link budget of ``meanReceivedPowerDBm(from:heading:at:to:heading:at:time:txPowerDBm:obstacles:)``:
    /// a receiver gets a packet only if its level P ≥ its sensitivity S − g on the packet's PHY
    /// (g = ``RadioModel/sensitivityGainDB(for:)``, 0 on 1M and 2M), where
    /// P = tx + G_tx + G_rx − L(d) + A + B − O + V, with the antenna patterns' relative gains
    /// A ≤ 0, body shadows B ≤ 0, the obstacle losses O (each obstacle's loss is ≥ 0 unless
    /// a scenario gives a negative one, so O ≥ −``obstacleGainDB``) and the random variation
    /// V ≤ ``maximumVariationDB(_:)``. So reception needs
    /// L(d) ≤ tx + G_tx + g + V_max + obstacleGain + (G_rx − S), the free-path budget: obstacles
    /// only attenuate, so the free path is an upper bound. L(d) = L₀ + 10·n·log10(max(d, 0.1 m))
    /// grows with d for n > 0, hence d² ≤ 10^(2·(budget − L₀) / (10·n)), which splits into a
    /// factor of the packet (``Reach/baseSquared``) and one of the receiver
    /// (``DeviceState/reachScale``, 10^(2·(G_rx − S) / (10·n))). A receiver farther away would
    /// have found the packet below its sensitivity, so not offering it the packet changes no
    /// reception, no collision (interference is summed over every transmission on the channel,
    /// offered or not) and no draw (each draw is a hash of the seed, the packet and the
    /// receiver, not a step of a shared generator). What changes is only the counting of
    /// packets out of reach: they are not offered, so a receiver counts no loss for them
    /// (``DeviceStatistics/belowSensitivity``, ``DeviceStatistics/halfDuplex``,
    /// ``DeviceStatistics/blocked`` count packets within reach). The same holds of the
    /// tighter reach a packet's own draw at a receiver leaves (``DrawReach``), which
    /// ``collectReachableListeners(channel:origin:reach:known:serial:)`` applies.
    func reach(txPowerDBm: Double, senderGainDBi: Double, phy: RadioPHY = .le1M) -> Reach? {
        guard configuration.timing == .realistic else { return nil }
        let radio = configuration.radio
        guard radio.pathLossExponent > 0, radio.pathLossExponent.isFinite, radio.referenceLossDB.isFinite else { return nil }
        let budget = txPowerDBm + senderGainDBi + RadioModel.sensitivityGainDB(for: phy) + maximumVariationDB + obstacleGainDB + Self.reachRoundingDB - radio.referenceLossDB
        let metres = pow(10, (budget + bestReceiverMarginDB) / (10 * radio.pathLossExponent))
        guard metres.isFinite else { return nil }
        return Reach(metres: metres, baseSquared: pow(10, 2 * budget / (10 * radio.pathLossExponent)))
    }

    /// A receiver's factor of the reach bound: 10^(2·(gain − sensitivity) / (10·n)).
    func reachScale(of description: DeviceDescription) -> Double {
        pow(10, 2 * (description.antennaGainDBi - description.sensitivityDBm) / (10 * configuration.radio.pathLossExponent))
    }

    /// Fills ``reachable`` with the devices listening on `channel` that stand within `reach`
    /// of `origin` at ``now``, in the order of `listeners[channel]` (the order in which
    /// they lock on and are then handed the packet, which must not change).
    ///
    /// With the packet's `serial`, a listener must also stand within what of the reach the
    /// packet's own shadowing draw at it leaves (``DrawReach``); one beyond would find the packet
    /// below its sensitivity however the draw fell, so it is not offered the packet, as one
    /// beyond the reach is not. Most listeners in reach are ruled out so, without reading
    /// their device states.
    ///
    /// Stationary listeners are looked up in ``listenerGrid``'s cells around `origin`; moving
    /// ones (on a route or carried) are checked where their route puts them now. When the
    /// cells to visit outnumber the channel's listeners, the listeners are checked one by one
    /// instead: the index never costs more than the list it replaces.
    ///
    /// A stationary sender passes what its packets reach (`known`, ``SenderReach``): its
    /// stationary listeners in reach, of which those filed on `channel` now are the ones the
    /// grid's cells would give.
    func collectReachableListeners(channel: Int, origin: Vector3, reach: Reach, known: SenderReach? = nil, serial: UInt64? = nil) {
        reachable.removeAll(keepingCapacity: true)
        let all = listeners[channel]
        let reachSquared = reach.baseSquared
        let draws = serial != nil && drawReach.applies
        let serial = serial ?? 0
        // The cells around the origin, worked out once (a stationary sender knows their count).
        let cells = known == nil ? listenerGrid.cells(around: origin, reach: reach.metres) : nil
        let cellCount = if let known { known.cellCount } else { cells?.count }
        if let cellCount, cellCount < all.count {
            if let known {
                for listener in known.listeners where listenerGrid.cellChannelOf[listener.device] == channel {
                    if draws, isBeyondDraw(listener.share, serial: serial, device: listener.device) { continue }
                    reachable.append(listener.device)
                }
            } else if let cells {
                for key in cells.keys(channel: channel) {
                    guard let filed = listenerGrid.cells[key] else { continue }
                    // Where a stationary listener stands is filed with it (what its position(at:) gives).
                    for listener in filed {
                        let offset = listener.position - origin
                        let distanceSquared = offset.dot(offset), listenerReach = reachSquared * listener.reachScale
                        guard !(distanceSquared > listenerReach) else { continue }
                        if draws, isBeyondDraw(distanceSquared / listenerReach, serial: serial, device: listener.device) { continue }
                        reachable.append(listener.device)
                    }
                }
            }
            let now = now
            for slot in listenerGrid.moving[channel].indices {
                let listener = listenerGrid.moving[channel][slot]
                if listener.isSurelyBeyond(reachSquared, of: origin, at: now) { continue }
                let position = deviceStates[listener.device].position(at: now)
                if listener.speedLimit != nil {
                    listenerGrid.moving[channel][slot].fixPosition = position
                    listenerGrid.moving[channel][slot].fixTime = now
                    listenerGrid.moving[channel][slot].hasFix = true
                }
                let offset = position - origin
                let distanceSquared = offset.dot(offset), listenerReach = reachSquared * listener.reachScale
                guard !(distanceSquared > listenerReach) else { continue }
                if draws, isBeyondDraw(distanceSquared / listenerReach, serial: serial, device: listener.device) { continue }
                reachable.append(listener.device)
            }
            if reachable.count > 1 {
                // Sorted by each device's index in the channel's list, read once per device
                // (the indices differ, so the order is the one sort gives by any means).
                reachableOrder.removeAll(keepingCapacity: true)
                for device in reachable { reachableOrder.append((listenerGrid.listenerIndexOf[device], device)) }
                reachableOrder.sort { $0.index < $1.index }
                for (slot, entry) in reachableOrder.enumerated() { reachable[slot] = entry.device }
            }
        } else {
            for device in all {
                let (distanceSquared, listenerReach) = squaredDistanceAndReach(reachSquared, of: origin, device)
                guard !(distanceSquared > listenerReach) else { continue }
                if draws, isBeyondDraw(distanceSquared / listenerReach, serial: serial, device: device) { continue }
                reachable.append(device)
            }
        }
    }

    /// The squared distance from `origin` to `device` at ``now`` and its squared reach for a
    /// packet whose factor is `baseSquared`: beyond it when the first exceeds the second. A
    /// distance or factor that is not a number keeps the device, for the full model to judge.
    @inline(__always)
    private func squaredDistanceAndReach(_ baseSquared: Double, of origin: Vector3, _ device: Int) -> (Double, Double) {
        let state = deviceStates[device]
        let offset = state.position(at: now) - origin
        return (offset.dot(offset), baseSquared * state.reachScale)
    }

    /// Whether `device`, standing at `share` of the packet's squared reach, is beyond what the
    /// shadowing draw of the packet with `serial` at it leaves of that reach (``DrawReach``).
    /// The first draw alone rules out most: the second is drawn only when it could matter.
    @inline(__always)
    func isBeyondDraw(_ share: Double, serial: UInt64, device: Int) -> Bool {
        let seed = configuration.seed
        let first = WorldRandom.unit(WorldRandom.hash(seed: seed, serial, UInt64(device), 1))
        if share > drawReach.factor(first: first) { return true }
        let second = WorldRandom.unit(WorldRandom.hash(seed: seed, serial, UInt64(device), 2))
        return share > drawReach.factor(first: first, second: second)
    }
}

/// How far one packet can be received (``World/reach(txPowerDBm:senderGainDBi:phy:)``).
struct Reach {
    /// The distance in metres beyond which no receiver of the world can get it.
    var metres: Double
    /// The packet's factor of a receiver's squared reach: a receiver at distance d can get
    /// the packet only if d² ≤ baseSquared · its ``DeviceState/reachScale``.
    var baseSquared: Double
}
