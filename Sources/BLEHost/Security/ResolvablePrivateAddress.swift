import BLECrypto
import BLEWire

/// One peer in a resolving list: its identity address and the IRK it distributed (Core 5.4,
/// Vol 3, Part C, §10.8.2.3; the controller's list, Vol 6, Part B, §4.7, holds the same).
public struct ResolvingListEntry: Hashable, Sendable {
    /// The identity the resolved address stands for.
    public var identityAddress: BluetoothAddress
    /// The peer's Identity Resolving Key.
    public var identityResolvingKey: UInt128

    /// An entry with both fields.
    public init(identityAddress: BluetoothAddress, identityResolvingKey: UInt128) {
        self.identityAddress = identityAddress
        self.identityResolvingKey = identityResolvingKey
    }
}

/// Resolvable private addresses (Core 5.4, Vol 6, Part B, §1.3.2.2 and §1.3.2.3; Vol 3,
/// Part C, §10.8.2): a random address whose 24 most significant bits are prand (top two
/// bits `01`, the other 22 random, neither all zeros nor all ones) and whose 24 least
/// significant bits are `hash = ah(IRK, prand)`. Only a holder of the IRK can tell two
/// such addresses belong to the same device.
public enum ResolvablePrivateAddress {
    /// The 22 random bits of prand.
    static let randomBits: UInt32 = (1 << 22) - 1
    /// The top two bits of prand, `01`.
    static let marker: UInt32 = 0b01 << 22

    /// Whether `prand` (its 24 low bits) is a valid prand: top bits `01`, random part
    /// neither all zeros nor all ones (§1.3.2.2).
    public static func isValidPrand(_ prand: UInt32) -> Bool {
        let random = prand & randomBits
        return prand & 0xFF_FFFF & ~randomBits == marker && random != 0 && random != randomBits
    }

    /// The address for `prand` under `irk`; prand's top two bits are forced to `01`.
    /// - Throws: only `BLECrypto.Error.backendFailure`, which is not expected (see `ah`).
    public static func make(irk: UInt128, prand: UInt32) throws(BLECrypto.Error) -> BluetoothAddress {
        let prand = prand & randomBits | marker
        let hash = try BLECrypto.ah(k: irk, r: prand)
        return BluetoothAddress(UInt64(prand) << 24 | UInt64(hash), kind: .random)
    }

    /// A new resolvable private address under `irk` with prand drawn from `generator` (a
    /// seeded one keeps a simulation deterministic).
    /// - Throws: only `BLECrypto.Error.backendFailure`, which is not expected (see `ah`).
    public static func generate(irk: UInt128, using generator: inout some RandomNumberGenerator)
        throws(BLECrypto.Error) -> BluetoothAddress {
        while true {
            let random = UInt32(truncatingIfNeeded: generator.next()) & randomBits
            if random != 0 && random != randomBits { return try make(irk: irk, prand: random | marker) }
        }
    }

    /// Whether `address` is a resolvable private address made with `irk`: a random address
    /// of that sub-type whose hash equals `ah(irk, prand)` (§1.3.2.3).
    /// - Throws: only `BLECrypto.Error.backendFailure`, which is not expected (see `ah`).
    public static func matches(_ address: BluetoothAddress, irk: UInt128) throws(BLECrypto.Error) -> Bool {
        guard address.randomSubtype == .resolvablePrivate else { return false }
        let prand = UInt32(truncatingIfNeeded: address.value >> 24) & 0xFF_FFFF
        let hash = UInt32(truncatingIfNeeded: address.value) & 0xFF_FFFF
        return try BLECrypto.ah(k: irk, r: prand) == hash
    }

    /// The identity `address` resolves to in `list` (the first entry whose IRK made it), or
    /// `nil` when it is not a resolvable private address or no IRK matches.
    /// - Throws: only `BLECrypto.Error.backendFailure`, which is not expected (see `ah`).
    public static func resolve(_ address: BluetoothAddress, in list: [ResolvingListEntry])
        throws(BLECrypto.Error) -> BluetoothAddress? {
        guard address.randomSubtype == .resolvablePrivate else { return nil }
        for entry in list where try matches(address, irk: entry.identityResolvingKey) {
            return entry.identityAddress
        }
        return nil
    }
}
