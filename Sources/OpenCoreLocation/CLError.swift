import Foundation

/// The error domain of ``CLError`` (Core Location's `kCLErrorDomain`).
public let kCLErrorDomain = "kCLErrorDomain"

/// A Core Location error: a ``Code`` in ``kCLErrorDomain``, as Core Location hands it to
/// the delegate. Matched as on Apple platforms: `(error as? CLError)?.code == .rangingFailure`.
public struct CLError: Error, Hashable, Sendable, CustomNSError, CustomStringConvertible {
    /// Core Location's error codes, with Apple's raw values (`CLError.h`).
    public enum Code: Int, Sendable, Hashable {
        /// The location is unknown for now.
        case locationUnknown = 0
        /// Access was denied.
        case denied = 1
        /// A network error.
        case network = 2
        /// The heading could not be determined.
        case headingFailure = 3
        /// Region monitoring was denied.
        case regionMonitoringDenied = 4
        /// A region could not be monitored: the 21st region, a region kind Linux cannot
        /// watch, or no controller to listen with.
        case regionMonitoringFailure = 5
        /// Monitoring set-up was delayed.
        case regionMonitoringSetupDelayed = 6
        /// Monitoring events are delayed.
        case regionMonitoringResponseDelayed = 7
        /// Geocoding found nothing.
        case geocodeFoundNoResult = 8
        /// Geocoding found a partial result.
        case geocodeFoundPartialResult = 9
        /// Geocoding was cancelled.
        case geocodeCanceled = 10
        /// Deferred updates failed.
        case deferredFailed = 11
        /// Deferred updates need location updates.
        case deferredNotUpdatingLocation = 12
        /// Deferred updates need a better accuracy.
        case deferredAccuracyTooLow = 13
        /// Deferred updates need no distance filter.
        case deferredDistanceFiltered = 14
        /// Deferred updates were cancelled.
        case deferredCanceled = 15
        /// Ranging is unavailable: here, the controller could not be opened.
        case rangingUnavailable = 16
        /// Ranging failed.
        case rangingFailure = 17
        /// A prompt for temporary full accuracy could not be shown (Apple: the purpose key is
        /// not in the app's Info.plist, the app has full accuracy already, or it is in the
        /// background).
        case promptDeclined = 18
        /// Historical locations failed.
        case historicalLocationError = 19
    }

    /// What failed.
    public let code: Code
    /// Why, in one sentence, when SwiftBLE knows (e.g. the controller's error); Core
    /// Location has no such field, so it travels as the localized failure reason.
    public let reason: String?

    /// An error with `code` and, optionally, the reason behind it.
    public init(_ code: Code, reason: String? = nil) {
        self.code = code
        self.reason = reason
    }

    /// ``kCLErrorDomain``.
    public static var errorDomain: String { kCLErrorDomain }
    /// The code's raw value.
    public var errorCode: Int { code.rawValue }
    /// The reason, under `NSLocalizedFailureReasonErrorKey`, when there is one.
    public var errorUserInfo: [String: Any] {
        reason.map { [NSLocalizedFailureReasonErrorKey: $0] } ?? [:]
    }

    /// `kCLErrorDomain error 5` and the reason.
    public var description: String {
        "\(kCLErrorDomain) error \(code.rawValue)" + (reason.map { ": \($0)" } ?? "")
    }

    /// ``Code/regionMonitoringFailure``, so `CLError.regionMonitoringFailure` reads as on Apple platforms.
    public static var regionMonitoringFailure: Code { .regionMonitoringFailure }
    /// ``Code/rangingUnavailable``.
    public static var rangingUnavailable: Code { .rangingUnavailable }
    /// ``Code/rangingFailure``.
    public static var rangingFailure: Code { .rangingFailure }
    /// ``Code/locationUnknown``.
    public static var locationUnknown: Code { .locationUnknown }
    /// ``Code/denied``.
    public static var denied: Code { .denied }
    /// ``Code/promptDeclined``.
    public static var promptDeclined: Code { .promptDeclined }
}

extension CLError.Code {
    /// Matches an error by code, as in `catch CLError.rangingFailure` on Apple platforms.
    public static func ~= (code: CLError.Code, error: any Error) -> Bool {
        (error as? CLError)?.code == code
    }
}
