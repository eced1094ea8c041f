import BLEHost

extension Peripheral {
    /// Signed Write Commands our GATT server dropped without an answer since the services
    /// were last published (Core 5.4, Vol 3, Part G, §4.9.2; Part C, §10.4.2): from a client
    /// whose CSRK we do not hold, with a replayed sign counter, with a signature that does
    /// not verify, or to a characteristic without the authenticated-signed-writes property.
    /// The spec has the server ignore them; this count is how an app or a test sees them.
    public var droppedSignedWrites: Int {
        get async { await core.host.signedWritesDropped }
    }
}
