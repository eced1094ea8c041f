/// The currents a device's Bluetooth radio draws in each state, which turn a device's
/// ``RadioActivity`` into charge. The default, ``nRF52832``, is the figures of Nordic's
/// nRF52832 Product Specification v1.1 ("Current consumption: Radio", 3 V, DC/DC, 25 °C), a
/// common part in beacons and tags:
///
/// - transmitting at 0 dBm, 1 Mb/s: 7.1 mA (IRADIO_TX0); at −40 dBm: 4.1 mA (IRADIO_TX1). In
///   between, the current is interpolated linearly in dBm; above 0 dBm it is charged as
///   0 dBm (the table gives no higher figure), below −40 dBm as −40 dBm;
/// - receiving at 1 Mb/s: 6.5 mA (IRADIO_RX0);
/// - each radio start (a packet, or a receiver window) also runs the radio for its 140 µs
///   ramp-up (the radio's TXEN/RXEN-to-READY time in the same specification), at the
///   current of what it starts;
/// - asleep between events: 2 µA, the order of Nordic's System ON sleep figures with RAM
///   kept and a timer running (nRF52840 PS v1.11 ION_RAMON_RTC 3.16 µA; nRF54L15 ION_IDLE
///   1.3–2.9 µA).
///
/// Not modelled: the processor's own work around each radio event (a stack's event
/// processing, the application), sensors, and the battery's own self-discharge; a real
/// beacon therefore lasts somewhat less than ``EnergyReport`` projects.
public struct RadioCurrentModel: Hashable, Sendable {
    /// Milliamperes while transmitting at 0 dBm.
    public var transmitAt0dBmMilliamps: Double
    /// Milliamperes while transmitting at −40 dBm.
    public var transmitAtMinus40dBmMilliamps: Double
    /// Milliamperes while receiving.
    public var receiveMilliamps: Double
    /// Microseconds of ramp-up before each packet or window.
    public var rampUpMicroseconds: Double
    /// Microamperes asleep.
    public var sleepMicroamps: Double

    /// A model with every figure.
    public init(transmitAt0dBmMilliamps: Double, transmitAtMinus40dBmMilliamps: Double, receiveMilliamps: Double,
                rampUpMicroseconds: Double, sleepMicroamps: Double) {
        self.transmitAt0dBmMilliamps = transmitAt0dBmMilliamps
        self.transmitAtMinus40dBmMilliamps = transmitAtMinus40dBmMilliamps
        self.receiveMilliamps = receiveMilliamps
        self.rampUpMicroseconds = rampUpMicroseconds
        self.sleepMicroamps = sleepMicroamps
    }

    /// Nordic's nRF52832, as the type's documentation cites.
    public static let nRF52832 = RadioCurrentModel(transmitAt0dBmMilliamps: 7.1, transmitAtMinus40dBmMilliamps: 4.1,
                                                   receiveMilliamps: 6.5, rampUpMicroseconds: 140, sleepMicroamps: 2)

    /// Milliamperes while transmitting at `dBm`.
    public func transmitMilliamps(atDBm dBm: Double) -> Double {
        let clamped = Swift.min(0, Swift.max(-40, dBm.isFinite ? dBm : 0))
        let fraction = (clamped + 40) / 40
        return transmitAtMinus40dBmMilliamps + fraction * (transmitAt0dBmMilliamps - transmitAtMinus40dBmMilliamps)
    }

    /// The charge `activity` drew, in microampere-hours: airtime at its transmit currents,
    /// receive time, one ramp-up per radio start, and sleep for the rest of the powered time.
    public func chargeMicroampHours(_ activity: RadioActivity) -> Double {
        let transmit = activity.transmitMicrosecondsByDBm.reduce(0.0) { sum, entry in
            sum + Double(entry.value) * transmitMilliamps(atDBm: Double(entry.key))
        }
        let receive = Double(activity.receiveMicroseconds) * receiveMilliamps
        let ramps = Double(activity.transmissions) * rampUpMicroseconds * transmitAt0dBmMilliamps
            + Double(activity.receiverWindows) * rampUpMicroseconds * receiveMilliamps
        let busy = Double(activity.transmitMicroseconds + activity.receiveMicroseconds)
            + Double(activity.radioStarts) * rampUpMicroseconds
        let asleep = Swift.max(0, Double(activity.poweredMicroseconds) - busy)
        // mA·µs → µA·h: ×1000 (mA → µA) ÷ 3.6e9 (µs → h).
        let activeMicroampHours = (transmit + receive + ramps) * 1_000 / 3.6e9
        let sleepMicroampHours = asleep * sleepMicroamps / 3.6e9
        return activeMicroampHours + sleepMicroampHours
    }
}
