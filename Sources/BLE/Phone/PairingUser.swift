import Synchronization

/// The person holding the phones when they pair, for ``SimulatedPhone/showsPairingDialogs(user:options:)``:
/// reads a passkey one phone shows and types it on the other, compares the numbers both
/// show, and taps Pair or Cancel, as the scenario says.
public final class PairingUser: Sendable {
    /// Whether the user taps Pair (`true`) or Cancel when asked to confirm.
    public let accepts: Bool
    /// Whether the user mistypes the passkey (the last digit one too high), for a test of
    /// the failure.
    public let mistypes: Bool
    private let shown = Mailbox<UInt32>()

    /// A user who accepts and types correctly by default.
    public init(accepts: Bool = true, mistypes: Bool = false) {
        self.accepts = accepts
        self.mistypes = mistypes
    }

    /// A phone shows `passkey` for the user to type on the other device.
    func sees(_ passkey: UInt32) { _ = shown.put(passkey) }

    /// What the user types when a phone asks for the code another device shows: the next
    /// code shown, or `nil` (Cancel) when the wait is cancelled.
    func types() async -> UInt32? {
        guard let code = await shown.next() else { return nil }
        return mistypes ? (code / 10 * 10 + (code % 10 + 1) % 10) : code
    }
}
