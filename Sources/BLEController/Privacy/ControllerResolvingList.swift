import BLECrypto
import BLEWire

/// One device on the controller's resolving list (Core 5.4, Vol 6, Part B, §4.7; Vol 4,
/// Part E, §7.8.38): the peer's identity and IRK, our IRK towards it, the privacy mode, and
/// the private addresses last used on each side.
struct ControllerResolvingListEntry: Hashable, Sendable {
    /// Peer_Identity_Address with its type (public or random static).
    var peerIdentity: BluetoothAddress
    /// Peer_IRK; all zeros means the peer's addresses are not resolved (§7.8.38).
    var peerIRK: UInt128
    /// Local_IRK; all zeros means no private address of ours is generated for this peer.
    var localIRK: UInt128
    /// Network privacy (the default) or device privacy (§7.8.77).
    var privacyMode = HCI.LESetPrivacyMode.PrivacyMode.network
    /// Our current resolvable private address towards this peer (§7.8.43).
    var localAddress: BluetoothAddress?
    /// The peer's resolvable private address we last resolved (§7.8.42).
    var peerAddress: BluetoothAddress?

    /// Whether `identity` is this entry's peer: same address and same kind.
    func isPeer(_ identity: BluetoothAddress) -> Bool {
        peerIdentity.value == identity.value && peerIdentity.kind == identity.kind
    }
}

/// The controller's resolving list and the resolvable private addresses it generates and
/// resolves (Core 5.4, Vol 6, Part B, §1.3.2 and §6): ah from BLECrypto, prand from the
/// controller's seeded random source so a world still replays from its seed.
struct ControllerResolvingList: Hashable, Sendable {
    /// The entries in the order the host added them.
    private(set) var entries: [ControllerResolvingListEntry] = []
    /// When our private addresses were last generated; `nil` before the first.
    private(set) var generatedAt: Microseconds?
    /// Resolvable private addresses no entry resolved, so the same stranger's advertising
    /// does not cost an AES per entry on every PDU. Forgotten when the list changes.
    private var strangers: Set<UInt64> = []

    var count: Int { entries.count }

    /// The entry of the peer whose identity is `identity`.
    func entry(for identity: BluetoothAddress) -> ControllerResolvingListEntry? {
        entries.first { $0.isPeer(identity) }
    }

    /// Adds an entry; `false` if the identity is already there.
    mutating func add(_ command: HCI.LEAddDeviceToResolvingList) -> Bool {
        guard entry(for: command.peerIdentityAddress) == nil else { return false }
        entries.append(ControllerResolvingListEntry(
            peerIdentity: command.peerIdentityAddress, peerIRK: command.peerIRK, localIRK: command.localIRK))
        // The new entry gets its address at the next generation; force one now.
        generatedAt = nil
        strangers = []
        return true
    }

    /// Removes the entry of `identity`; `false` if there was none.
    mutating func remove(_ identity: BluetoothAddress) -> Bool {
        guard let index = entries.firstIndex(where: { $0.isPeer(identity) }) else { return false }
        entries.remove(at: index)
        return true
    }

    /// Empties the list.
    mutating func clear() {
        entries = []
        strangers = []
    }

    /// Sets the privacy mode of `identity`'s entry; `false` if there is none.
    mutating func setPrivacyMode(_ mode: HCI.LESetPrivacyMode.PrivacyMode, for identity: BluetoothAddress) -> Bool {
        guard let index = entries.firstIndex(where: { $0.isPeer(identity) }) else { return false }
        entries[index].privacyMode = mode
        return true
    }

    /// When our addresses are next due: `timeout` seconds after the last generation.
    func nextGeneration(timeout: UInt16) -> Microseconds? {
        generatedAt.map { $0 + Microseconds(timeout) * 1_000_000 }
    }

    /// Makes new local addresses for every entry with a local IRK when none were made yet
    /// or the timeout passed (§6: a new address each RPA_Timeout). Returns whether it did.
    @discardableResult
    mutating func generateIfDue(now: Microseconds, timeout: UInt16, random: inout ControllerRandom) -> Bool {
        if let due = nextGeneration(timeout: timeout), due > now { return false }
        for index in entries.indices {
            let irk = entries[index].localIRK
            entries[index].localAddress = irk == 0 ? nil : Self.generate(irk: irk, random: &random)
        }
        generatedAt = now
        return true
    }

    /// A resolvable private address under `irk`: prand's two top bits 01, the other 22
    /// random and neither all zeros nor all ones; hash = ah(irk, prand) (Vol 6, Part B,
    /// §1.3.2.2). `nil` only if the AES backend fails.
    static func generate(irk: UInt128, random: inout ControllerRandom) -> BluetoothAddress? {
        let randomBits: UInt32 = (1 << 22) - 1
        var part: UInt32 = 0
        while part == 0 || part == randomBits { part = UInt32(truncatingIfNeeded: random.next()) & randomBits }
        let prand = part | 0b01 << 22
        guard let hash = try? BLECrypto.ah(k: irk, r: prand) else { return nil }
        return BluetoothAddress(UInt64(prand) << 24 | UInt64(hash & 0xFF_FFFF), kind: .random)
    }

    /// Whether `address` is a resolvable private address made with `irk` (§1.3.2.3).
    static func resolves(_ address: BluetoothAddress, irk: UInt128) -> Bool {
        guard address.kind == .random, address.value >> 46 == 0b01 else { return false }
        let prand = UInt32(truncatingIfNeeded: address.value >> 24) & 0xFF_FFFF
        let hash = UInt32(truncatingIfNeeded: address.value) & 0xFF_FFFF
        return (try? BLECrypto.ah(k: irk, r: prand)) == hash
    }

    /// The entry index whose peer IRK resolves `address`, remembering the address as that
    /// peer's current one; `nil` for any other address.
    mutating func resolve(_ address: BluetoothAddress) -> Int? {
        guard address.kind == .random, address.value >> 46 == 0b01 else { return nil }
        if let index = entries.firstIndex(where: { $0.peerAddress == address }) { return index }
        guard !strangers.contains(address.value) else { return nil }
        for index in entries.indices where entries[index].peerIRK != 0 {
            if Self.resolves(address, irk: entries[index].peerIRK) {
                entries[index].peerAddress = address
                return index
            }
        }
        if strangers.count >= 256 { strangers = [] }
        strangers.insert(address.value)
        return nil
    }
}
