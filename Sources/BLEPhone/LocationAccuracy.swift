/// The accuracy of the locations an app gets on the phone (Core Location's
/// `CLAccuracyAuthorization`): iOS 14's "Precise Location" switch in the location prompt and in
/// Settings, which the phone keeps per app with its authorization.
public enum LocationAccuracy: String, Hashable, Sendable, CaseIterable {
    /// Precise Location on: fixes as accurate as the app asks.
    case full
    /// Precise Location off: approximate fixes only (Apple, `kCLLocationAccuracyReduced`:
    /// "usually within 1–20 kilometers", updated "at most a few times per hour"), and "your
    /// app can't use region monitoring or beacon ranging" (Apple, `accuracyAuthorization`).
    case reduced
}

/// What came of an app's request for temporary full accuracy
/// (`requestTemporaryFullAccuracyAuthorization(withPurposeKey:completion:)`).
public enum TemporaryFullAccuracyResult: Hashable, Sendable {
    /// The prompt was shown and the user answered: `granted` or not.
    case prompted(granted: Bool)
    /// No prompt was shown, for this reason; Core Location then fails the request with
    /// `kCLErrorPromptDeclined`.
    case notPrompted(String)
}

extension PhoneCore {
    /// The accuracy `app`'s locations have now: ``LocationAccuracy/reduced`` when the user
    /// turned Precise Location off for it and no temporary full accuracy is in force, else
    /// ``LocationAccuracy/full`` (also for an app not installed, or not yet authorized).
    public func locationAccuracy(of app: String) -> LocationAccuracy {
        guard let record = apps[app] else { return .full }
        return record.accuracy == .reduced && !record.temporaryFullAccuracy ? .reduced : .full
    }

    /// `app` asks for full accuracy for a while (Core Location's
    /// `requestTemporaryFullAccuracyAuthorization(withPurposeKey:completion:)`), giving
    /// `purposeKey`, a key of its `NSLocationTemporaryUsageDescriptionDictionary`
    /// (``AppDescription/temporaryLocationUsageDescriptions``). The user answers as
    /// ``AppDescription/allowsTemporaryFullAccuracy`` says.
    ///
    /// No prompt is shown, as Apple documents for the request, when the purpose key is not in
    /// the app's dictionary, when the app has full accuracy already, or when it is not in the
    /// foreground; nor (our rule: there is nothing to make precise) when the app has no
    /// location authorization. A grant lasts while the app is in use: it ends when the app is
    /// suspended or ends (Apple: the permission "automatically expires", and "expiration is
    /// postponed while your app is actively in use"; the phone takes suspension as the end of
    /// use, ahead of the unspecified expiry).
    /// - Throws: ``PhoneError/unknownApp(_:)``.
    public mutating func requestTemporaryFullLocationAccuracy(for name: String, purposeKey: String) throws(PhoneError) -> TemporaryFullAccuracyResult {
        guard var app = apps[name] else { throw .unknownApp(name) }
        guard app.description.temporaryLocationUsageDescriptions[purposeKey] != nil else {
            return .notPrompted("the app's NSLocationTemporaryUsageDescriptionDictionary has no purpose key \"\(purposeKey)\"")
        }
        guard app.location == .always || app.location == .whenInUse else {
            return .notPrompted("the app has no location authorization (\(app.location.rawValue))")
        }
        guard locationAccuracy(of: name) == .reduced else { return .notPrompted("the app has full accuracy already") }
        guard app.state == .foreground else { return .notPrompted("the app is not in the foreground") }
        let granted = app.description.allowsTemporaryFullAccuracy
        app.temporaryFullAccuracy = granted
        apps[name] = app
        return .prompted(granted: granted)
    }

    /// The user turns `app`'s Precise Location switch in Settings → Privacy → Location
    /// Services (iOS 14). Settings shows the switch only once the user has allowed the app
    /// location (While Using or Always), so for an app not determined or denied nothing
    /// changes. Turned off, a temporary full accuracy in force ends with it: the user's
    /// choice in Settings is the last word (our reading; Apple documents no order). Returns
    /// whether the app's accuracy (``locationAccuracy(of:)``) changed, for Core Location to
    /// tell its managers (`locationManagerDidChangeAuthorization(_:)`).
    /// - Throws: ``PhoneError/unknownApp(_:)``.
    public mutating func setPreciseLocation(_ on: Bool, for name: String) throws(PhoneError) -> Bool {
        guard var app = apps[name] else { throw .unknownApp(name) }
        guard app.location == .always || app.location == .whenInUse else { return false }
        let before = locationAccuracy(of: name)
        app.accuracy = on ? .full : .reduced
        if !on { app.temporaryFullAccuracy = false }
        apps[name] = app
        return locationAccuracy(of: name) != before
    }
}
