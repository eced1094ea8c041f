import BLE

extension CLAuthorizationStatus {
    /// The status Core Location reports for an app's authorization on a simulated phone.
    init(_ authorization: LocationAuthorization) {
        switch authorization {
        case .notDetermined: self = .notDetermined
        case .denied: self = .denied
        case .whenInUse: self = .authorizedWhenInUse
        case .always: self = .authorizedAlways
        }
    }
}

extension CLLocationManager {
    /// Asks the app's phone for authorization; each manager of the app hears a change
    /// (`LocationMembership.locationAuthorizationChanged()`).
    func requestAuthorization(always: Bool) {
        guard let app = engine.relay.app else { return }
        app.phone.requestLocationAuthorization(for: app.name, always: always)
    }

    /// Whether the app's user denied location authorization on its phone, so that what the
    /// app starts fails at once with `failure` (monitoring with
    /// ``CLError/Code/regionMonitoringDenied``, Apple's code for region monitoring the user
    /// refused; ranging with ``CLError/Code/denied``); research §9, rule 22.
    func refusesDenied(_ failure: LocationEvent) -> Bool {
        guard let app = engine.relay.app, app.phone.locationAuthorization(of: app.name) == .denied else { return false }
        engine.relay.post([failure])
        return true
    }
}
