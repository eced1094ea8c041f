import BLETime
import BLEWorld
import Synchronization

/// The person holding the phones when they pair, for ``SimulatedPhone/showsPairingDialogs(user:options:)``:
/// reads a passkey one phone shows and types it on the other, compares the numbers both
/// show, and taps Pair or Cancel, or leaves the dialog alone, as the scenario says.
public final class PairingUser: Sendable {
    /// What the user does with each pairing dialog.
    public enum Answer: Hashable, Sendable {
        /// Taps Pair; types the code shown when asked for one.
        case pair
        /// Taps Cancel.
        case cancel
        /// Leaves the dialog on screen until it goes: the pairing times out after SMP's
        /// 30 seconds (Core 5.4, Vol 3, Part H, §3.4).
        case ignore
    }

    /// What the user does with each dialog.
    public let answer: Answer
    /// How long the user takes before answering a dialog (virtual time on a simulated phone).
    public let delay: Duration
    /// Whether the user mistypes the passkey (the last digit one too high), for a test of
    /// the failure.
    public let mistypes: Bool
    private let shown = Mailbox<UInt32>()

    /// Whether the user taps Pair (`true`) or Cancel when asked to confirm; `false` too
    /// for a user who leaves the dialog alone.
    public var accepts: Bool { answer == .pair }

    /// A user who accepts and types correctly by default, at once.
    public convenience init(accepts: Bool = true, mistypes: Bool = false) {
        self.init(answer: accepts ? .pair : .cancel, mistypes: mistypes)
    }

    /// A user who gives `answer` to every dialog `delay` after it appears.
    public init(answer: Answer, after delay: Duration = .zero, mistypes: Bool = false) {
        self.answer = answer
        self.delay = delay
        self.mistypes = mistypes
    }

    /// The user a scenario's phone describes (`pairing:` in `phone:`).
    public convenience init(scenario: ScenarioPairing) {
        let answer: Answer = switch scenario.answer {
        case .pair: .pair
        case .cancel: .cancel
        case .ignore: .ignore
        }
        self.init(answer: answer, after: .microseconds(Int64((scenario.afterSeconds * 1_000_000).rounded())),
                  mistypes: scenario.mistypes)
    }

    /// A phone shows `passkey` for the user to type on the other device.
    func sees(_ passkey: UInt32) { _ = shown.put(passkey) }

    /// What the user types when a phone asks for the code another device shows: the next
    /// code shown, or `nil` (Cancel) when the wait is cancelled.
    func types() async -> UInt32? {
        guard let code = await shown.next() else { return nil }
        return mistypes ? (code / 10 * 10 + (code % 10 + 1) % 10) : code
    }

    /// ``types()``, waiting on `clock` no longer than `limit`: `nil` when no code is shown
    /// in time (the dialog is gone by then).
    func types(within limit: Duration, on clock: any StackClock) async -> UInt32? {
        await withTaskGroup(of: UInt32?.self) { group in
            group.addTask { await self.types() }
            group.addTask {
                try? await clock.sleep(for: limit)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
