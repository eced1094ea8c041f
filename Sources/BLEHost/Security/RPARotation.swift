import BLECrypto
import BLEWire

/// When to change our resolvable private address (Core 5.4, Vol 3, Part C, §10.7.1.2 and
/// Appendix A, TGAP(private_addr_int), 15 minutes recommended): a sans-IO timer that hands
/// out a new address at each deadline. The caller owns the clock and the randomness; it
/// calls ``tick(now:using:)`` at ``nextDeadline`` and sets the address it returns (LE Set
/// Random Address, or the controller's resolving list when it rotates itself).
public struct RPARotation: Hashable, Sendable {
    /// The recommended interval, 15 minutes in microseconds.
    public static let defaultInterval: HostTime = 15 * 60 * 1_000_000
    /// The shortest interval accepted, one second (the lower end of HCI LE Set Resolvable
    /// Private Address Timeout, Vol 4, Part E, §7.8.45).
    public static let minimumInterval: HostTime = 1_000_000

    /// Our IRK, from which each address is made.
    public let identityResolvingKey: UInt128
    /// The time between addresses, in microseconds.
    public let interval: HostTime
    /// The address in use, `nil` before ``start(now:using:)``.
    public private(set) var currentAddress: BluetoothAddress?
    /// When the next address is due, `nil` before ``start(now:using:)``.
    public private(set) var nextDeadline: HostTime?

    /// A timer for `identityResolvingKey`; an `interval` below ``minimumInterval`` is raised to it.
    public init(identityResolvingKey: UInt128, interval: HostTime = RPARotation.defaultInterval) {
        self.identityResolvingKey = identityResolvingKey
        self.interval = max(interval, Self.minimumInterval)
    }

    /// Makes the first address and arms the timer.
    /// - Throws: only `BLECrypto.Error.backendFailure`, which is not expected (see `ah`).
    public mutating func start(now: HostTime, using generator: inout some RandomNumberGenerator)
        throws(BLECrypto.Error) -> BluetoothAddress {
        try rotate(now: now, using: &generator)
    }

    /// The new address when the deadline has passed (the timer re-arms one interval after
    /// `now`, so a late tick does not cause a burst of changes), else `nil`.
    /// - Throws: only `BLECrypto.Error.backendFailure`, which is not expected (see `ah`).
    public mutating func tick(now: HostTime, using generator: inout some RandomNumberGenerator)
        throws(BLECrypto.Error) -> BluetoothAddress? {
        guard let deadline = nextDeadline, now >= deadline else { return nil }
        return try rotate(now: now, using: &generator)
    }

    /// A new address at once (e.g. when advertising restarts), re-arming the timer.
    /// - Throws: only `BLECrypto.Error.backendFailure`, which is not expected (see `ah`).
    public mutating func rotate(now: HostTime, using generator: inout some RandomNumberGenerator)
        throws(BLECrypto.Error) -> BluetoothAddress {
        var address = try ResolvablePrivateAddress.generate(irk: identityResolvingKey, using: &generator)
        while address == currentAddress {
            address = try ResolvablePrivateAddress.generate(irk: identityResolvingKey, using: &generator)
        }
        currentAddress = address
        nextDeadline = now + interval
        return address
    }
}
