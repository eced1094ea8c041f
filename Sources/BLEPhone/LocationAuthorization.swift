/// An app's Core Location authorization on the phone (Core Location's
/// `CLAuthorizationStatus`, less `restricted`, which no simulated user sets). The phone keeps
/// it per app, as iOS keeps it in Settings: it survives the app's termination and relaunch.
public enum LocationAuthorization: String, Hashable, Sendable, CaseIterable {
    /// The app has not asked, or the user has not answered yet.
    case notDetermined
    /// The user refused.
    case denied
    /// Allowed while the app is in use: location events reach it only in the foreground
    /// (Apple, "Choosing the Location Services Authorization to Request"; research §7, §9
    /// rule 22).
    case whenInUse
    /// Allowed at any time: the system wakes or relaunches the app for its location events.
    case always
}

/// What the phone's simulated user answers when an app asks for location authorization,
/// set per app in its ``AppDescription``.
public enum LocationAuthorizationAnswer: String, Hashable, Sendable, CaseIterable {
    /// "Allow" to whatever is asked: Always for `requestAlwaysAuthorization`, While Using
    /// for `requestWhenInUseAuthorization`.
    case always
    /// "Allow While Using App", whatever is asked.
    case whenInUse
    /// "Don't Allow".
    case denied
    /// The prompt is never answered: the status stays not determined.
    case undecided
}

extension PhoneCore {
    /// The location authorization of `app` (``LocationAuthorization/notDetermined`` when no
    /// app of that name is installed).
    public func locationAuthorization(of app: String) -> LocationAuthorization {
        apps[app]?.location ?? .notDetermined
    }

    /// Sets `app`'s location authorization as the user left it in Settings → Privacy →
    /// Location Services, with no prompt: for an app without Core Location code of its own (a
    /// scenario's app without a program), whose regions the phone watches for it. Its region
    /// events then follow ``locationRefusal(for:)`` as a program's do.
    /// - Throws: ``PhoneError/unknownApp(_:)``.
    public mutating func setLocationAuthorization(_ authorization: LocationAuthorization, for name: String) throws(PhoneError) {
        guard var app = apps[name] else { throw .unknownApp(name) }
        app.location = authorization
        apps[name] = app
    }

    /// `app` asks for location authorization (`requestAlwaysAuthorization` when `always`,
    /// else `requestWhenInUseAuthorization`); the user answers as the app's
    /// ``AppDescription/locationAuthorization`` says. Returns the new authorization when it
    /// changed, `nil` when it did not.
    ///
    /// As Core Location documents (research §7, "Authorization"; Apple's
    /// `requestWhenInUseAuthorization()` and `requestAlwaysAuthorization()` pages): a prompt
    /// shows only while the app is in the foreground; from not determined, When In Use
    /// gives at most When In Use and Always gives what the user answers; an app with When
    /// In Use may ask for Always once more; otherwise a request does nothing. iOS 13's
    /// "provisional Always" (the app reports Always until the system later asks the user
    /// to confirm) is simplified to the user's final answer at once.
    /// - Throws: ``PhoneError/unknownApp(_:)``.
    public mutating func requestLocationAuthorization(for name: String, always: Bool) throws(PhoneError) -> LocationAuthorization? {
        guard var app = apps[name] else { throw .unknownApp(name) }
        guard app.state == .foreground else { return nil }
        let answer = app.description.locationAuthorization
        let before = app.location
        switch app.location {
        case .notDetermined:
            app.askedAlways = always
            // The prompt's Precise Location switch comes with the first "Allow".
            app.accuracy = app.description.locationAccuracy
            switch answer {
            case .undecided: break
            case .denied: app.location = .denied
            case .whenInUse: app.location = .whenInUse
            case .always: app.location = always ? .always : .whenInUse
            }
        case .whenInUse where always && !app.askedAlways:
            app.askedAlways = true
            if answer == .always { app.location = .always }
        default:
            break
        }
        apps[name] = app
        return app.location == before ? nil : app.location
    }

    /// Why a location event (a region's entry, exit or state, or ranged beacons) cannot
    /// reach `app` now, or `nil` when it can (research §9, rule 22): not authorized or
    /// denied, never; with When In Use, only while the app is in the foreground (in use);
    /// with Always, whenever the other rules let it.
    ///
    /// With reduced accuracy (``locationAccuracy(of:)``) none reaches it either: Apple's
    /// `accuracyAuthorization` says such an app "can't use region monitoring or beacon
    /// ranging", and measured on iOS 14 the delegate calls simply stop and the app is not
    /// launched for them (an answer to the Stack Overflow question "iOS 14 How to make iBeacon
    /// wake app when precise location permission is denied").
    public func locationRefusal(for name: String) -> String? {
        guard let app = apps[name] else { return "no app called \"\(name)\" is installed" }
        switch app.location {
        case .always: break
        case .whenInUse:
            if app.state != .foreground { return "with When In Use authorization location events reach the app only while it is in use" }
        case .denied: return "the user denied the app location authorization"
        case .notDetermined: return "the app has no location authorization"
        }
        if locationAccuracy(of: name) == .reduced {
            return "with reduced (approximate) accuracy region monitoring and beacon ranging are unavailable"
        }
        return nil
    }

    /// Why a significant change or a visit cannot reach `app` now, or `nil` when it can:
    /// as ``locationRefusal(for:)`` but whatever the accuracy (both services work with
    /// approximate locations). Apple, "Choosing the Location Services Authorization to
    /// Request": When In Use receives events "while the app is in use"; only Always has the
    /// system launch an app that is not running to deliver them.
    public func locationServiceRefusal(for name: String) -> String? {
        guard let app = apps[name] else { return "no app called \"\(name)\" is installed" }
        switch app.location {
        case .always: return nil
        case .whenInUse:
            return app.state == .foreground ? nil : "with When In Use authorization location events reach the app only while it is in use"
        case .denied: return "the user denied the app location authorization"
        case .notDetermined: return "the app has no location authorization"
        }
    }
}
