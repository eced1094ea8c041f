import BLE
import Foundation

// Public rather than open: members of an extension cannot be overridden without Objective-C.
extension CLLocationManager {
    /// How accurate the app's locations may be (Apple's `accuracyAuthorization`, iOS 14).
    /// Off a simulated phone ``CLAccuracyAuthorization/fullAccuracy``; on one, the app's: its
    /// Precise Location switch (`AppDescription.locationAccuracy`, chosen when the user first
    /// allows it location), or full accuracy while a temporary grant lasts.
    ///
    /// With ``CLAccuracyAuthorization/reducedAccuracy``, as Apple documents, setting
    /// ``desiredAccuracy`` "to a value other than kCLLocationAccuracyReduced has no effect on
    /// the location information", and the app "can't use region monitoring or beacon
    /// ranging": fixes are approximate (``kCLLocationAccuracyReduced``; `ApproximateLocation`
    /// says how), and region events and ranged beacons never reach the delegate (the phone
    /// drops them, with the reason on its timeline). Significant changes and visits still
    /// come, approximate.
    public var accuracyAuthorization: CLAccuracyAuthorization {
        guard let app = engine.relay.app else { return .fullAccuracy }
        return app.phone.locationAccuracy(of: app.name) == .reduced ? .reducedAccuracy : .fullAccuracy
    }

    /// Asks the user for full accuracy while the app is in use (Apple's
    /// `requestTemporaryFullAccuracyAuthorization(withPurposeKey:)`): the variant without a
    /// completion handler.
    public func requestTemporaryFullAccuracyAuthorization(withPurposeKey purposeKey: String) {
        requestTemporaryFullAccuracyAuthorization(withPurposeKey: purposeKey, completion: nil)
    }

    /// Asks the user for full accuracy while the app is in use (Apple's
    /// `requestTemporaryFullAccuracyAuthorization(withPurposeKey:completion:)`, iOS 14).
    /// `purposeKey` names the reason in the app's `NSLocationTemporaryUsageDescriptionDictionary`
    /// (`AppDescription.temporaryLocationUsageDescriptions`).
    ///
    /// On a simulated phone the user answers as the app's description says
    /// (`AppDescription.allowsTemporaryFullAccuracy`); a grant makes ``accuracyAuthorization``
    /// ``CLAccuracyAuthorization/fullAccuracy`` and the delegate hears
    /// `locationManagerDidChangeAuthorization(_:)` before `completion` runs. The grant ends
    /// when the app is suspended or ends. `completion` runs on the main queue, after the
    /// delegate calls, with `nil` when the prompt was shown (whatever the user answered: read
    /// ``accuracyAuthorization``), and, as Apple documents, with ``CLError/Code/promptDeclined``
    /// when it could not be: the purpose key is not in the dictionary, the app has full
    /// accuracy already, or it is not in the foreground (and, here, when it has no location
    /// authorization). Off a phone the app always has full accuracy, so `completion` gets
    /// ``CLError/Code/promptDeclined``.
    public func requestTemporaryFullAccuracyAuthorization(withPurposeKey purposeKey: String,
                                                          completion: (@Sendable ((any Error)?) -> Void)?) {
        let error: CLError?
        if let app = engine.relay.app {
            switch app.phone.requestTemporaryFullLocationAccuracy(for: app.name, purposeKey: purposeKey) {
            case .prompted: error = nil
            case let .notPrompted(reason): error = CLError(.promptDeclined, reason: reason)
            }
        } else {
            error = CLError(.promptDeclined, reason: "the manager has full accuracy already (Linux asks no location permission)")
        }
        guard let completion else { return }
        engine.relay.run { completion(error) }
    }

    /// Asks the user for full accuracy while the app is in use, the `async` form of
    /// ``requestTemporaryFullAccuracyAuthorization(withPurposeKey:completion:)``: returns when
    /// the prompt was shown, throws ``CLError`` (``CLError/Code/promptDeclined``) when it could
    /// not be.
    public func requestTemporaryFullAccuracyAuthorization(withPurposeKey purposeKey: String) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            requestTemporaryFullAccuracyAuthorization(withPurposeKey: purposeKey) { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }
}
