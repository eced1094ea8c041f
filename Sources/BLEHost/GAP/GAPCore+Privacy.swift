import BLEWire

extension GAPCore {
    /// Whether our random address may change now: not advertising, scanning or initiating
    /// (Vol 4, Part E, §7.8.4, for legacy procedures).
    public var mayChangeRandomAddress: Bool { advertising == .off && scanning == .off && pending == nil }

    /// Sets `address`, a resolvable private address of ours, as the controller's random
    /// address with LE Set Random Address (Core 5.4, Vol 3, Part C, §10.7.1.2; Vol 4,
    /// Part E, §7.8.4). Refused while advertising, scanning or connecting, as for
    /// ``setRandomStaticAddress(_:at:)``.
    public mutating func setResolvablePrivateAddress(_ address: BluetoothAddress, at now: HostTime) throws(GAPError) -> [GAPOutput] {
        // Vol 6, Part B, §1.3.2.2: a random address whose two top bits are 01.
        guard address.kind == .random, address.value >> 46 == 0b01 else { throw .invalidResolvablePrivateAddress(address) }
        guard mayChangeRandomAddress else { throw .randomAddressChangeWhileBusy }
        return [submit(HCI.LESetRandomAddress(randomAddress: address), for: .setRandomAddress(address))]
    }
}

extension GAPCore {
    /// Own_Address_Type for advertising, scanning and connecting (Core 5.4, Vol 4, Part E,
    /// §7.8.5, §7.8.10, §7.8.12): with the controller resolving, 0x03 (or 0x02) lets it use
    /// the resolvable private address of its resolving list, falling back to the random (or
    /// public) address; otherwise 0x01 or 0x00.
    func ownAddressType(random: Bool) -> HCI.OwnAddressType {
        switch (addressResolutionInController, random) {
        case (true, true): return .resolvableOrRandom
        case (true, false): return .resolvableOrPublic
        case (false, true): return .random
        case (false, false): return .public
        }
    }
}
