import BLEController

/// What one device's radio drew in a run, by the ``RadioCurrentModel``: the answer to "how
/// long does this beacon last on a coin cell at 100 ms" (`ble sim run --energy`, docs/energy.md).
public struct DeviceEnergy: Hashable, Sendable {
    /// The radio's time in each state.
    public var activity: RadioActivity
    /// The charge drawn, in microampere-hours.
    public var chargeMicroampHours: Double

    /// The device's energy from its `activity` under `model`.
    public init(activity: RadioActivity, model: RadioCurrentModel) {
        self.activity = activity
        chargeMicroampHours = model.chargeMicroampHours(activity)
    }

    /// The average current over the powered time, in microamperes; 0 before any.
    public var averageMicroamps: Double {
        let hours = Double(activity.poweredMicroseconds) / 3.6e9
        return hours > 0 ? chargeMicroampHours / hours : 0
    }

    /// How many days `battery` lasts at this run's average current; `nil` when nothing was drawn.
    public func lifetimeDays(on battery: Battery) -> Double? {
        let average = averageMicroamps
        guard average > 0 else { return nil }
        return battery.milliampHours * 1_000 / average / 24
    }
}

extension World {
    /// The time `device`'s radio spent transmitting, receiving and powered so far (an open
    /// receiver window and the current powered stretch count up to ``now``).
    public func radioActivity(of device: DeviceID) -> RadioActivity {
        let state = self.state(device)
        return state.radioClock.activity(window: state.window, powered: state.powered, at: now)
    }

    /// What `device` has drawn so far under `model` (default: ``RadioCurrentModel/nRF52832``).
    public func energy(of device: DeviceID, model: RadioCurrentModel = .nRF52832) -> DeviceEnergy {
        DeviceEnergy(activity: radioActivity(of: device), model: model)
    }
}
