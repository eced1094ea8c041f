/// Lets one operation at a time use a store's connection.
///
/// A store is an actor, but an actor is reentrant: while one `write` awaits its `INSERT`,
/// another call could start and send `BEGIN` into the same connection's open transaction.
/// Each store operation passes through this gate, first come first served.
actor SerialGate {
    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Waits until no other operation holds the gate, then holds it.
    func enter() async {
        if busy {
            await withCheckedContinuation { waiters.append($0) }
            // `leave()` handed the gate over without clearing `busy`.
        } else {
            busy = true
        }
    }

    /// Hands the gate to the next waiter, or opens it.
    func leave() {
        if waiters.isEmpty {
            busy = false
        } else {
            waiters.removeFirst().resume()
        }
    }
}
