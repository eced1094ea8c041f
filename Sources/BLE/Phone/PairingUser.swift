import BLETime
import BLEWorld
import Synchronization

/// The person holding the phones when they pair, for ``SimulatedPhone/showsPairingDialogs(user:options:)``:
/// reads a passkey one phone (or an accessory's display) shows and types it on the other, compares the numbers both
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
    /// How many of the codes the user types are wrong (the last digit one too high), the
    /// first ones, for a test of the failure: each fails its pairing with Confirm Value
    /// Failed (0x04; Core 5.4, Vol 3, Part H, §2.3.5.3, §3.5.5). `Int.max`: every one.
    public let wrongCodes: Int
    private let typedWrong = Mutex(0)
    private let shown = Mailbox<UInt32>()

    /// Whether the user mistypes a code at all.
    public var mistypes: Bool { wrongCodes > 0 }

    /// Whether the user taps Pair (`true`) or Cancel when asked to confirm; `false` too
    /// for a user who leaves the dialog alone.
    public var accepts: Bool { answer == .pair }

    /// A user who accepts and types correctly by default, at once.
    public convenience init(accepts: Bool = true, mistypes: Bool = false) {
        self.init(answer: accepts ? .pair : .cancel, mistypes: mistypes)
    }

    /// A user who gives `answer` to every dialog `delay` after it appears, and, with
    /// `mistypes`, types every code wrong.
    public convenience init(answer: Answer, after delay: Duration = .zero, mistypes: Bool = false) {
        self.init(answer: answer, after: delay, wrongCodes: mistypes ? Int.max : 0)
    }

    /// A user who gives `answer` to every dialog `delay` after it appears and types the first
    /// `wrongCodes` codes wrong, the later ones right.
    public init(answer: Answer, after delay: Duration = .zero, wrongCodes: Int) {
        self.answer = answer
        self.delay = delay
        self.wrongCodes = max(0, wrongCodes)
    }

    /// The user a scenario's phone describes (`pairing:` in `phone:`).
    public convenience init(scenario: ScenarioPairing) {
        let answer: Answer = switch scenario.answer {
        case .pair: .pair
        case .cancel: .cancel
        case .ignore: .ignore
        }
        self.init(answer: answer, after: .microseconds(Int64((scenario.afterSeconds * 1_000_000).rounded())),
                  wrongCodes: scenario.mistypes)
    }

    /// A phone shows `passkey` for the user to type on the other device.
    func sees(_ passkey: UInt32) { _ = shown.put(passkey) }

    /// What the user types when a phone asks for the code another device shows: the next
    /// code shown, or `nil` (Cancel) when the wait is cancelled.
    func types() async -> UInt32? {
        guard let code = await shown.next() else { return nil }
        let wrong = typedWrong.withLock { count in
            guard count < wrongCodes else { return false }
            count += 1
            return true
        }
        return wrong ? (code / 10 * 10 + (code % 10 + 1) % 10) : code
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
