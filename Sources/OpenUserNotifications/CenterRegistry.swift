import BLE
import BLETime
import Synchronization

/// The notification centres of the process: one per app of each phone, and which one
/// `UNUserNotificationCenter.current()` returns outside an app's launch in each simulation.
final class CenterRegistry: Sendable {
    static let shared = CenterRegistry()

    private struct Entry {
        let center: UNUserNotificationCenter
        weak var simulation: Simulation?
        let inSimulation: Bool

        /// Its simulation ended: nothing can use it any more.
        var isOver: Bool { inSimulation && simulation == nil }

        func belongs(to simulation: Simulation?) -> Bool {
            inSimulation ? (simulation != nil && self.simulation === simulation) : simulation == nil
        }
    }

    private struct State {
        var centers: [Entry] = []
        /// The centre last asked for in a launch, per simulation (`nil`: outside any).
        var latest: [Entry] = []
    }

    private let state = Mutex(State())

    /// The centre of `app` on `phone`, made on first use.
    func center(phone: SimulatedPhone, app: String) -> UNUserNotificationCenter {
        let simulation = Simulation.current
        return state.withLock { state in
            state.centers.removeAll(where: \.isOver)
            if let found = state.centers.first(where: { $0.center.phone === phone && $0.center.app == app }) { return found.center }
            let center = UNUserNotificationCenter(phone: phone, app: app)
            state.centers.append(Entry(center: center, simulation: simulation, inSimulation: simulation != nil))
            return center
        }
    }

    /// `UNUserNotificationCenter.current()`: the launching app's centre, else the latest
    /// one of this simulation, else one on a phone of its own.
    func current() -> UNUserNotificationCenter {
        let simulation = Simulation.current
        if let app = PhoneApp.launching {
            let center = center(phone: app.phone, app: app.name)
            remember(center, in: simulation)
            return center
        }
        if let latest = state.withLock({ state in state.latest.first { $0.belongs(to: simulation) }?.center }) { return latest }
        let center = center(phone: Self.ownPhone(in: simulation), app: Self.ownAppName)
        remember(center, in: simulation)
        return center
    }

    private func remember(_ center: UNUserNotificationCenter, in simulation: Simulation?) {
        state.withLock { state in
            state.latest.removeAll { $0.isOver || $0.belongs(to: simulation) }
            state.latest.append(Entry(center: center, simulation: simulation, inSimulation: simulation != nil))
        }
    }

    /// The app of a program off any phone.
    static let ownAppName = "App"

    /// A phone for a program off any phone: its one app launched and in the background, so
    /// its notifications reach the lock screen.
    private static func ownPhone(in simulation: Simulation?) -> SimulatedPhone {
        let phone = SimulatedPhone(clock: simulation.map { $0.clock } ?? WallClock())
        try? phone.install(AppDescription(name: ownAppName)) { _ in }
        try? phone.perform(.launch(ownAppName))
        try? phone.perform(.background(ownAppName))
        return phone
    }
}
