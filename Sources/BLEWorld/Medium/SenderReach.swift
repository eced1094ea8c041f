import BLEController

/// What a stationary sender's packets can reach, worked out once instead of for every packet:
/// the packet's reach (``World/reach(txPowerDBm:senderGainDBi:phy:)``, two powers of ten) and
/// the stationary listeners of the world that stand within it.
///
/// A beacon of a city sends the same packet from the same place three times a second, and
/// the scanners that stand still are the same ones every time; only which of them listen on
/// the packet's channel at that moment changes. So the listeners ``ListenerGrid`` would give
/// for a packet are those of this list that are filed in a cell on its channel then, and a
/// packet looks at a few devices instead of hashing the grid's cells. The list is made with
/// the grid's own tests (the cells around the sender and each listener's reach factor), so
/// it gives the same listeners as the grid; it is made again whenever the world's layout
/// changes (``ListenerGrid/version``).
struct SenderReach {
    /// The layout version it was made for.
    var version: UInt64
    /// The packet it was made for: transmit power, sender gain and PHY.
    var txPowerDBm: Double
    var senderGainDBi: Double
    var phy: RadioPHY
    /// The packet's reach, or `nil` when the model sets none.
    var reach: Reach?
    /// How many cells the grid would visit for the packet, or `nil` when it cannot name them.
    var cellCount: Int?
    /// The stationary listeners (``ListenerGrid/stationary``) within the reach.
    var listeners: [Listener]

    /// A stationary listener within a sender's reach.
    struct Listener {
        /// Its device index.
        var device: Int
        /// How much of its squared reach stands between it and the sender
        /// (d² / (``Reach/baseSquared`` · its reach factor), at most 1), for the packet's own
        /// draw to rule it out without reading its device (``DrawReach``).
        var share: Double
    }

    /// Whether it was made for this packet in this layout.
    @inline(__always)
    func fits(version: UInt64, txPowerDBm: Double, senderGainDBi: Double, phy: RadioPHY) -> Bool {
        self.version == version && self.txPowerDBm == txPowerDBm && self.senderGainDBi == senderGainDBi && self.phy == phy
    }
}

extension World {
    /// The reach of a packet of `transmission` from the stationary `sender`, made or reused.
    func stationaryReach(of sender: DeviceState, _ transmission: RadioTransmission) -> SenderReach {
        let gain = sender.description.antennaGainDBi
        if let cached = sender.senderReach,
           cached.fits(version: listenerGrid.version, txPowerDBm: transmission.txPowerDBm, senderGainDBi: gain, phy: transmission.phy) {
            return cached
        }
        let reach = reach(txPowerDBm: transmission.txPowerDBm, senderGainDBi: gain, phy: transmission.phy)
        let origin = sender.description.position
        var made = SenderReach(version: listenerGrid.version, txPowerDBm: transmission.txPowerDBm, senderGainDBi: gain,
                               phy: transmission.phy, reach: reach, cellCount: nil, listeners: [])
        if let reach, let cells = listenerGrid.cells(around: origin, reach: reach.metres) {
            made.cellCount = cells.count
            for device in listenerGrid.stationary {
                let state = deviceStates[device]
                guard state.carrier == nil, state.plan == nil,
                      let key = listenerGrid.cell(of: state.description.position, channel: 0),
                      cells.xs.contains(key.x), cells.ys.contains(key.y) else { continue }
                let offset = state.description.position - origin
                let distanceSquared = offset.dot(offset), listenerReach = reach.baseSquared * state.reachScale
                if !(distanceSquared > listenerReach) {
                    made.listeners.append(SenderReach.Listener(device: device, share: distanceSquared / listenerReach))
                }
            }
        }
        sender.senderReach = made
        return made
    }

    /// Whether `state` stands still, so its position is its description's.
    @inline(__always)
    static func isStationary(_ state: DeviceState) -> Bool {
        state.carrier == nil && state.plan == nil
    }
}
