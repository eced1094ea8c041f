import BLEHost

extension BLEDevice {
    /// Advertises, scans and connects from the random static address `address` from now on
    /// instead of the controller's public address (Core 5.4, Vol 3, Part C, §10.8.1): the
    /// identity of a device without a public address, or one not tied to its controller.
    /// A static address has its two most significant bits set and is neither all ones nor
    /// all zeros in the rest (Vol 6, Part B, §1.3.2.1). Call it before advertising, scanning
    /// or connecting; privacy (``enablePrivacy(rotation:)``) replaces it with private
    /// addresses on the air.
    /// - Throws: ``BLEError/invalidParameters(_:)`` for an address that is not random
    ///   static, or the controller's refusal (e.g. while advertising or scanning).
    public func useRandomStaticAddress(_ address: BluetoothAddress) async throws(BLEError) {
        guard address.kind == .random, GAPRandomStaticAddress.isValid(address) else {
            throw .invalidParameters("\(address) is not a random static address (Vol 6, Part B, §1.3.2.1)")
        }
        do {
            try await core.host.useRandomStaticAddress(address)
        } catch {
            throw BLEError(error, closed: core.isClosed)
        }
    }
}
