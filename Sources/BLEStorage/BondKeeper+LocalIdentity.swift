import BLEHost
import BLEWire

extension BondKeeper {
    /// Our Identity Resolving Key (Core 5.4, Vol 3, Part C, §10.8.2.2): the one in the bond
    /// store, else a new random one, saved at once with `identityAddress` as our identity
    /// when the store has none. Kept in the file so bonded peers, which hold this IRK, still
    /// recognise our private addresses after a restart.
    /// - Throws: ``BondStoreFileError`` when a new key cannot be written; it is kept in
    ///   memory all the same, and returned by later calls.
    public func localIdentityResolvingKey(identityAddress: BluetoothAddress?) throws(BondStoreFileError) -> UInt128 {
        if let key = store.localIdentityResolvingKey { return key }
        var generator = StackRandom()
        var key: UInt128 = 0
        while key == 0 { key = UInt128(generator.next()) << 64 | UInt128(generator.next()) }
        store.localIdentityResolvingKey = key
        if store.localIdentityAddress == nil { store.localIdentityAddress = identityAddress }
        try save()
        return key
    }

    /// Keeps `host`'s resolving list in step with the bonds (Vol 6, Part B, §6): the peers'
    /// IRKs now and after every pairing that bonds, until ``detach()``.
    public func resolveBondedPeers(on host: BLEHost.Host) async {
        await host.setResolvingList(store.resolvingList)
        let stream = events()
        // Ends with the stream, which ``detach()`` finishes.
        Task { [weak self, weak host] in
            for await event in stream {
                guard case .paired(_, _, _, .some) = event, let list = await self?.store.resolvingList else { continue }
                await host?.setResolvingList(list)
            }
        }
    }
}
