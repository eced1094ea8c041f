import Foundation

// Names Apple deprecated and still ships. Code written for iOS 9 and earlier uses them,
// most often as `CBCentralManagerState(rawValue: central.state.rawValue)` behind an
// availability check.

/// A central manager's state before iOS 10 (Core Bluetooth's deprecated
/// `CBCentralManagerState`): the same cases and raw values as ``CBManagerState``, which
/// replaced it.
public typealias CBCentralManagerState = CBManagerState

/// A peripheral manager's state before iOS 10 (Core Bluetooth's deprecated
/// `CBPeripheralManagerState`): the same cases and raw values as ``CBManagerState``.
public typealias CBPeripheralManagerState = CBManagerState

extension CBError.Code {
    /// ``unknownDevice`` under the misspelt name Apple shipped first (`CBErrorUnkownDevice`).
    @available(*, deprecated, renamed: "unknownDevice")
    public static var unkownDevice: CBError.Code { .unknownDevice }
}

extension CBError {
    /// ``Code/unknownDevice`` under its misspelt name (`CBErrorUnkownDevice`).
    @available(*, deprecated, renamed: "unknownDevice")
    public static var unkownDevice: Code { .unknownDevice }

    /// An error with `code` and Foundation's user info (Apple's `init(_:userInfo:)`): the
    /// localized failure reason, if a string, becomes ``reason``; other keys are dropped.
    public init(_ code: Code, userInfo: [String: Any]) {
        self.init(code, reason: userInfo[NSLocalizedFailureReasonErrorKey] as? String)
    }
}

extension CBATTError {
    /// An error with `code` and Foundation's user info (Apple's `init(_:userInfo:)`): the
    /// localized failure reason, if a string, becomes ``reason``; other keys are dropped.
    public init(_ code: Code, userInfo: [String: Any]) {
        self.init(code, reason: userInfo[NSLocalizedFailureReasonErrorKey] as? String)
    }
}

/// A key of ``CBCentralManager/registerForConnectionEvents(options:)``'s matching options
/// (Core Bluetooth's `CBConnectionEventMatchingOption`).
public struct CBConnectionEventMatchingOption: Hashable, RawRepresentable, Sendable {
    /// The key's string (``CBConnectionEventMatchingOptionServiceUUIDs`` and so on).
    public let rawValue: String

    /// The option with `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Match peripherals offering these services (`[CBUUID]`).
    public static let serviceUUIDs = CBConnectionEventMatchingOption(rawValue: CBConnectionEventMatchingOptionServiceUUIDs)
    /// Match these peripherals (`[UUID]`).
    public static let peripheralUUIDs = CBConnectionEventMatchingOption(rawValue: CBConnectionEventMatchingOptionPeripheralUUIDs)
}

extension CBCentralManager {
    /// Asks for `centralManager(_:connectionEventDidOccur:for:)` when a matching peer
    /// connects or disconnects anywhere on the system (`registerForConnectionEventsWithOptions:`).
    /// Accepted and never reported on Linux: a SwiftBLE process sees only its own links,
    /// which its delegate already hears of.
    public func registerForConnectionEvents(options: [CBConnectionEventMatchingOption: Any]? = nil) {}
}
