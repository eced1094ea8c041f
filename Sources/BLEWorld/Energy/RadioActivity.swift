import BLEController

/// How long a device's radio spent in each state, counted by the world as it runs: the
/// input of the energy model (``RadioCurrentModel``). Only counters: keeping them changes
/// nothing in a run, so a scenario's output is the same with energy reported or not.
public struct RadioActivity: Hashable, Sendable {
    /// Packets put on the air.
    public var transmissions = 0
    /// Microseconds on the air, summed over every packet.
    public var transmitMicroseconds: Int64 = 0
    /// The same airtime by transmit power (dBm, rounded), so the model can charge a −20 dBm
    /// beacon less than a 0 dBm one (``RadioCurrentModel``).
    public var transmitMicrosecondsByDBm: [Int: Int64] = [:]
    /// Receiver windows that opened (each costs the radio a ramp-up, as a transmission does).
    public var receiverWindows = 0
    /// Microseconds with the receiver open.
    public var receiveMicroseconds: Int64 = 0
    /// Microseconds with the device powered (its sleep current runs all that time).
    public var poweredMicroseconds: Int64 = 0

    /// All zero.
    public init() {}

    /// Radio events, each of which costs one ramp-up: transmissions and receiver windows.
    public var radioStarts: Int { transmissions + receiverWindows }
}

/// The receiver and power bookkeeping of one device between world events: when its open
/// window was last charged up to, and since when it has been powered.
struct RadioActivityClock {
    /// What has been settled so far.
    var settled = RadioActivity()
    /// The time up to which the open receiver window has been charged.
    var receiveChargedUntil: Microseconds = 0
    /// Whether the open window's ramp-up has been counted.
    var windowCounted = false
    /// When the device was last powered on (or added).
    var poweredSince: Microseconds = 0
    /// Airtime per transmit power (dBm, rounded), moved into ``RadioActivity`` when read.
    var airtimeByPower: [(dBm: Int, microseconds: Int64)] = []

    /// Charges `window` (the device's open receiver window, if any) up to `time`: from when
    /// it opened, or was last charged, to `time` or its `closes`, whichever is first.
    mutating func settleReceiver(_ window: ReceiverWindow?, at time: Microseconds) {
        guard let window else {
            receiveChargedUntil = Swift.max(receiveChargedUntil, time)
            return
        }
        let start = Swift.max(receiveChargedUntil, window.opens)
        let end = Swift.min(time, window.closes ?? time)
        if end > start {
            settled.receiveMicroseconds += end - start
            if !windowCounted {
                settled.receiverWindows += 1
                windowCounted = true
            }
        }
        receiveChargedUntil = Swift.max(receiveChargedUntil, time)
    }

    /// Counts a packet of `duration` at `dBm`.
    /// A short list, searched from the front: a device uses one or two powers, and this
    /// runs for every packet in the world.
    mutating func transmitted(duration: Microseconds, dBm: Double) {
        settled.transmissions += 1
        settled.transmitMicroseconds += duration
        let power = dBm.isFinite ? Int(dBm.rounded()) : 0
        if let index = airtimeByPower.firstIndex(where: { $0.dBm == power }) {
            airtimeByPower[index].microseconds += duration
        } else {
            airtimeByPower.append((power, duration))
        }
    }

    /// The device goes off at `time`: its powered stretch is settled.
    mutating func poweredOff(at time: Microseconds) {
        settled.poweredMicroseconds += Swift.max(0, time - poweredSince)
    }

    /// A new window (or none) replaces the one charged so far, at `time`.
    mutating func startWindow(at time: Microseconds) {
        receiveChargedUntil = time
        windowCounted = false
    }

    /// What the counters say at `time`, with the open window and the powered stretch so
    /// far included, without settling them.
    func activity(window: ReceiverWindow?, powered: Bool, at time: Microseconds) -> RadioActivity {
        var copy = self
        copy.settleReceiver(window, at: time)
        if powered { copy.settled.poweredMicroseconds += Swift.max(0, time - poweredSince) }
        for entry in airtimeByPower { copy.settled.transmitMicrosecondsByDBm[entry.dBm, default: 0] += entry.microseconds }
        return copy.settled
    }
}
