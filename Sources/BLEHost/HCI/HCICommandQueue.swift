import BLEWire

/// Command flow control (Core 5.4, Vol 4, Part E, §4.4): the controller says in every
/// Command Complete and Command Status how many commands it can take now
/// (Num_HCI_Command_Packets); the host sends no more than that and queues the rest in order.
struct HCICommandQueue: Sendable {
    /// Who waits for a command's answer: the start-up sequence or a submitter.
    enum Owner: Hashable, Sendable {
        case startup
        case user(HCICommandToken)
    }

    struct Entry: Sendable {
        var owner: Owner
        var packet: HCI.CommandPacket
    }

    struct Outstanding: Sendable {
        var owner: Owner
        var opcode: HCI.Opcode
        var deadline: HostTime
    }

    /// Commands the controller can take now. One before the first answer (§4.4: the host
    /// may send one command after power-on or reset).
    private(set) var credits = 1
    /// Queued, not yet sent, in submission order.
    private(set) var pending: [Entry] = []
    /// Sent and not yet answered, oldest first.
    private(set) var outstanding: [Outstanding] = []

    /// Whether user commands may be sent (the controller finished start-up).
    var releasesUserCommands = false

    /// The earliest command deadline.
    var nextDeadline: HostTime? { outstanding.lazy.map(\.deadline).min() }

    mutating func enqueue(_ entry: Entry) { pending.append(entry) }

    /// Sends queued commands while credits last; user commands wait until released.
    mutating func drain(at now: HostTime, timeout: HostTime) -> [H4.Packet] {
        var sent: [H4.Packet] = []
        let userAllowed = releasesUserCommands
        while credits > 0 {
            guard let index = pending.firstIndex(where: { userAllowed || $0.owner == .startup }) else { break }
            let entry = pending.remove(at: index)
            credits -= 1
            outstanding.append(Outstanding(owner: entry.owner, opcode: entry.packet.opcode, deadline: now &+ timeout))
            sent.append(.command(entry.packet))
        }
        return sent
    }

    /// Takes the credits of a Command Complete or Command Status and returns who waited
    /// for `opcode` (the oldest such command), or `nil` for 0x0000 or an unexpected opcode.
    mutating func answer(opcode: HCI.Opcode, credits newCredits: UInt8) -> Owner? {
        // §7.7.14: the number is what the controller can take now, not an increment.
        credits = Int(newCredits)
        guard opcode.rawValue != 0, let index = outstanding.firstIndex(where: { $0.opcode == opcode }) else { return nil }
        return outstanding.remove(at: index).owner
    }

    /// Waits again for a command whose Command Status said "pending" (its Command Complete
    /// is still owed).
    mutating func awaitAgain(owner: Owner, opcode: HCI.Opcode, deadline: HostTime) {
        outstanding.append(Outstanding(owner: owner, opcode: opcode, deadline: deadline))
    }

    /// Removes and returns commands whose deadline has passed. A controller that lost a
    /// command may have lost its credit too, so at least one is given back to keep going.
    mutating func expire(at now: HostTime) -> [Outstanding] {
        let expired = outstanding.filter { $0.deadline <= now }
        guard !expired.isEmpty else { return [] }
        outstanding.removeAll { $0.deadline <= now }
        credits = max(credits, 1)
        return expired
    }

    /// Forgets everything (a controller reset) and returns the user commands abandoned,
    /// sent ones first, each in order.
    mutating func reset() -> [HCICommandToken] {
        var abandoned: [HCICommandToken] = []
        for item in outstanding { if case let .user(token) = item.owner { abandoned.append(token) } }
        for item in pending { if case let .user(token) = item.owner { abandoned.append(token) } }
        self = HCICommandQueue()
        return abandoned
    }
}
