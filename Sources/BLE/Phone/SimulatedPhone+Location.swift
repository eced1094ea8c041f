extension SimulatedPhone {
    /// The Core Location authorization of `app`, which the phone keeps across the app's
    /// launches (``LocationAuthorization/notDetermined`` for an app not installed).
    public func locationAuthorization(of app: String) -> LocationAuthorization {
        state.withLock { $0.core.locationAuthorization(of: app) }
    }

    /// `app` asks for location authorization (Always when `always`, else When In Use); the
    /// phone's user answers as the app's description says (`PhoneCore`'s
    /// `requestLocationAuthorization(for:always:)` has the rules). A prompt shown is on the
    /// timeline as a system alert. Every location manager of the app hears of a change
    /// (``PhoneAppMember/locationAuthorizationChanged()``). Returns the new authorization
    /// when it changed.
    @discardableResult
    public func requestLocationAuthorization(for app: String, always: Bool) -> LocationAuthorization? {
        let now = clock.microseconds
        let (changed, told) = state.withLock { state -> (LocationAuthorization?, [any PhoneAppMember]) in
            let before = state.core.locationAuthorization(of: app)
            guard let changed = try? state.core.requestLocationAuthorization(for: app, always: always) else { return (nil, []) }
            let asked = always ? "Always" : "When In Use"
            let message = "location authorization (\(asked)): \(before.rawValue) → \(changed.rawValue)"
            state.timeline.append(PhoneTimelineEntry(time: now, output: .alert(app: app, message: message)))
            return (changed, (state.members[app] ?? []).filter { $0.role == .region })
        }
        for member in told { member.locationAuthorizationChanged() }
        return changed
    }

    /// The accuracy of `app`'s locations now: reduced when the user turned Precise Location
    /// off for it and no temporary full accuracy is in force (`PhoneCore`'s
    /// `locationAccuracy(of:)`).
    public func locationAccuracy(of app: String) -> LocationAccuracy {
        state.withLock { $0.core.locationAccuracy(of: app) }
    }

    /// The user turns `app`'s Precise Location switch in Settings (`PhoneCore`'s
    /// `setPreciseLocation(_:for:)` has the rules): the change is on the timeline as a system
    /// alert of "Settings", and every location manager of the app hears it
    /// (``PhoneAppMember/locationAuthorizationChanged()``), as Core Location calls
    /// `locationManagerDidChangeAuthorization(_:)` when `accuracyAuthorization` changes.
    /// Returns whether the app's accuracy changed.
    @discardableResult
    public func setPreciseLocation(_ on: Bool, for app: String) -> Bool {
        let now = clock.microseconds
        let (changed, told) = state.withLock { state -> (Bool, [any PhoneAppMember]) in
            let changed = (try? state.core.setPreciseLocation(on, for: app)) ?? false
            let words = "Precise Location \(on ? "on" : "off") for “\(app)”" + (changed ? "" : " (no change)")
            state.timeline.append(PhoneTimelineEntry(time: now, output: .alert(app: "Settings", message: words)))
            return (changed, changed ? (state.members[app] ?? []).filter { $0.role == .region } : [])
        }
        for member in told { member.locationAuthorizationChanged() }
        return changed
    }

    /// `app` asks for full accuracy while it is in use, for the purpose `purposeKey` of its
    /// temporary usage descriptions; the user answers as its description says (`PhoneCore`'s
    /// `requestTemporaryFullLocationAccuracy(for:purposeKey:)` has the rules). A prompt shown
    /// is on the timeline as a system alert; when it grants full accuracy, every location
    /// manager of the app hears of it (``PhoneAppMember/locationAuthorizationChanged()``).
    @discardableResult
    public func requestTemporaryFullLocationAccuracy(for app: String, purposeKey: String) -> TemporaryFullAccuracyResult {
        let now = clock.microseconds
        let (result, told) = state.withLock { state -> (TemporaryFullAccuracyResult, [any PhoneAppMember]) in
            let result: TemporaryFullAccuracyResult
            do {
                result = try state.core.requestTemporaryFullLocationAccuracy(for: app, purposeKey: purposeKey)
            } catch {
                return (.notPrompted("\(error)"), [])
            }
            guard case let .prompted(granted) = result else { return (result, []) }
            let message = "temporary full location accuracy (\(purposeKey)): " + (granted ? "allowed" : "not allowed")
            state.timeline.append(PhoneTimelineEntry(time: now, output: .alert(app: app, message: message)))
            return (result, granted ? (state.members[app] ?? []).filter { $0.role == .region } : [])
        }
        for member in told { member.locationAuthorizationChanged() }
        return result
    }

    /// Why a location event cannot reach `app` now (its authorization, iOS research §9,
    /// rule 22, and its accuracy: none with reduced accuracy), or `nil` when it can.
    public func locationRefusal(for app: String) -> String? {
        state.withLock { $0.core.locationRefusal(for: app) }
    }

    /// Why a significant change or a visit cannot reach `app` now (its authorization: When
    /// In Use only while in use, Always whenever), or `nil` when it can.
    public func locationServiceRefusal(for app: String) -> String? {
        state.withLock { $0.core.locationServiceRefusal(for: app) }
    }

    /// `app` monitors the region `identifier` (Core Location's `startMonitoring(for:)`): the
    /// phone counts it against its device-wide priority regions (iOS research §9, rule 20).
    public func startMonitoringRegion(_ identifier: String, for app: String) {
        state.withLock { $0.core.startMonitoringRegion(identifier, for: app) }
    }

    /// `app` stops monitoring the region `identifier`.
    public func stopMonitoringRegion(_ identifier: String, for app: String) {
        state.withLock { $0.core.stopMonitoringRegion(identifier, for: app) }
    }
}
