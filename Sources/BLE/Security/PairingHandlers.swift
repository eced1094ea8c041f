import BLEHost

/// What the app does when a user must act in pairing (Core 5.4, Vol 3, Part H, §2.3.5):
/// show a passkey, type one, confirm a number; and what it hears when a pairing ends.
/// Each call may take as long as the user does, up to SMP's 30 seconds (§3.4).
public struct PairingHandlers: Sendable {
    /// Shows `passkey` (six digits, leading zeros kept: `String(format: "%06u")`) for the
    /// peer's user to type (Passkey Entry, this side displays).
    public var displayPasskey: @Sendable (Connection, UInt32) async -> Void
    /// Asks for the passkey the peer shows; `nil` cancels with Passkey Entry Failed (0x01).
    public var enterPasskey: @Sendable (Connection) async -> UInt32?
    /// Asks whether `number` matches the one the peer shows (Numeric Comparison);
    /// `false` fails with Numeric Comparison Failed (0x0C).
    public var confirmNumber: @Sendable (Connection, UInt32) async -> Bool
    /// Asks whether to go on with a Just Works pairing, which has no number to compare
    /// (asked only with ``PairingOptions/confirmsJustWorks``); `false` fails with
    /// Unspecified Reason (0x08, Vol 3, Part H, §3.5.5).
    public var confirmPairing: @Sendable (Connection) async -> Bool
    /// Told when a pairing on a link completes, in either role and whoever started it.
    public var paired: @Sendable (Connection, PairingResult) async -> Void
    /// Told when a pairing on a link fails, with ``BLEError/pairingFailed(_:)`` or
    /// ``BLEError/pairingTimedOut``.
    public var pairingFailed: @Sendable (Connection, BLEError) async -> Void

    /// Handlers; by default nothing is shown, passkey entry is cancelled and numbers are
    /// refused, and Just Works is accepted, so only Just Works (and OOB) can succeed.
    public init(
        displayPasskey: @escaping @Sendable (Connection, UInt32) async -> Void = { _, _ in },
        enterPasskey: @escaping @Sendable (Connection) async -> UInt32? = { _ in nil },
        confirmNumber: @escaping @Sendable (Connection, UInt32) async -> Bool = { _, _ in false },
        confirmPairing: @escaping @Sendable (Connection) async -> Bool = { _ in true },
        paired: @escaping @Sendable (Connection, PairingResult) async -> Void = { _, _ in },
        pairingFailed: @escaping @Sendable (Connection, BLEError) async -> Void = { _, _ in }
    ) {
        self.displayPasskey = displayPasskey
        self.enterPasskey = enterPasskey
        self.confirmNumber = confirmNumber
        self.confirmPairing = confirmPairing
        self.paired = paired
        self.pairingFailed = pairingFailed
    }
}
