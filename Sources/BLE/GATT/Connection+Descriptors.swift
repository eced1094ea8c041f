import BLEHost

extension Connection {
    /// Writes a descriptor's value (Core 5.4, Vol 3, Part G, §4.12.3, Write Long
    /// Characteristic Descriptors when it does not fit one Write Request).
    /// - Throws: ``BLEError/valueTooLong(octets:maximum:)``, ``BLEError/att(_:handle:)``,
    ///   ``BLEError/disconnected(_:)``.
    public func write(_ value: [UInt8], to descriptor: RemoteDescriptor) async throws(BLEError) {
        guard value.count <= 512 else { throw .valueTooLong(octets: value.count, maximum: 512) }
        let mtu = await core.host.attMTU(on: handle) ?? 23
        _ = try await gatt(value.count <= mtu - 3 ? .write(descriptor.handle, value) : .writeLong(descriptor.handle, value))
    }
}
