import Synchronization

/// The first failure a long-running command met, kept to end it with a non-zero status.
final class FailureRecord: Sendable {
    private let failure = Mutex<String?>(nil)

    /// Keeps `sentence` unless a failure is already kept.
    func record(_ sentence: String) {
        failure.withLock { if $0 == nil { $0 = sentence } }
    }

    /// The first failure recorded, if any.
    var first: String? { failure.withLock { $0 } }
}
