import BLEHost
import BLEStorage
import Synchronization

/// Pairing and bonds of one device: the app's options and handlers, the bonds, and what
/// the host is given so that bonded peers encrypt without pairing again (Core 5.4, Vol 3,
/// Part H, §2.4.4) — the central's stored key, the peripheral's LTK answers, the GATT
/// client's one security upgrade and the bonded clients' subscriptions.
final class DeviceSecurity: Sendable {
    let bonds: DeviceBonds
    /// The CSRK this device distributes when it pairs (Vol 3, Part H, §3.6.6), drawn once
    /// per device: a bonded peer's server verifies our signed writes with it.
    let signatureKey: UInt128
    private let handlers = Mutex(PairingHandlers())
    /// The app's options and the OOB data the device made, from which the host's
    /// configuration is built.
    private let pairing = Mutex<(options: PairingOptions, outOfBand: LocalOutOfBandData?)>((PairingOptions(), nil))
    private let watcher = Mutex<Task<Void, Never>?>(nil)

    init(bonds: DeviceBonds) {
        self.bonds = bonds
        var generator = StackRandom()
        signatureKey = UInt128(generator.next() as UInt64) << 64 | UInt128(generator.next() as UInt64)
    }

    /// The app's handlers now.
    var current: PairingHandlers { handlers.withLock { $0 } }

    func setHandlers(_ new: PairingHandlers) {
        handlers.withLock { $0 = new }
    }

    /// Takes the app's options and gives the host the configuration they make.
    func setOptions(_ options: PairingOptions, on host: BLEHost.Host) async {
        var configuration = pairing.withLock {
            $0.options = options
            return options.configuration(keptOutOfBand: $0.outOfBand)
        }
        configuration.signatureKey = signatureKey  // our CSRK, for signed writes
        await host.setPairingConfiguration(configuration)
    }

    /// Keeps the device's own OOB data (``BLEDevice/makeOutOfBandData()``) for later
    /// pairings: the host's configuration gets its key pair and r.
    func keepOutOfBand(_ data: LocalOutOfBandData, on host: BLEHost.Host) async {
        var configuration = pairing.withLock {
            $0.outOfBand = data
            return $0.options.configuration(keptOutOfBand: data)
        }
        configuration.signatureKey = signatureKey  // our CSRK, for signed writes
        await host.setPairingConfiguration(configuration)
    }

    /// Attaches the bond keeper to `host` (the peripheral's LTK provider, the central's
    /// answer to a Security Request, the one reader of its security events) and installs
    /// the pairing agent, the upgrade handler and the keeping of bonded clients' state.
    func install(on host: BLEHost.Host, dispatcher: EventDispatcher) async {
        let bonds = bonds
        let events = await bonds.keeper.events()
        await bonds.keeper.attach(to: host)
        watcher.withLock { $0 = self.follow(events, dispatcher: dispatcher) }
        await host.setDepartedClientHandler { peer, record in bonds.clientDeparted(peer, record) }
        await host.setPairingConfiguration(SMPConfiguration(signatureKey: signatureKey))
        await host.setPairingAgent(DeviceSecurityAgent(security: self, dispatcher: dispatcher))
        // "As phones do": a read or write refused for want of security pairs (or, with a
        // bond, encrypts) once, and the host retries the procedure once.
        await host.setSecurityUpgradeHandler { handle, _ in
            guard let connection = await dispatcher.connection(handle: handle) else { return false }
            do {
                _ = try await connection.pair()
                return true
            } catch {
                return false
            }
        }
    }

    /// Takes everything back from `host`, which holds closures that hold the device.
    func uninstall(from host: BLEHost.Host) async {
        await bonds.keeper.detach()
        await host.setLongTermKeyProvider(nil)
        await host.setBondedKeyLookup(nil)
        await host.setDepartedClientHandler(nil)
        await bonds.settle()
        await host.setPairingAgent(nil)
        await host.setSecurityUpgradeHandler(nil)
        let task = watcher.withLock { $0 }
        await task?.value
    }

    /// Tells the app of each pairing the keeper saw, once the bond is in the view.
    private func follow(_ events: AsyncStream<BondKeeper.Event>, dispatcher: EventDispatcher) -> Task<Void, Never> {
        Task {
            for await event in events {
                switch event {
                case let .paired(handle, _, result, record):
                    await self.bonds.refresh()
                    guard let connection = await dispatcher.connection(handle: handle) else { continue }
                    // The peer's CSRK lets our server verify its signed writes from now on
                    // (Vol 3, Part H, §2.4.5).
                    if let signing = record?.peerKeys.signingKey {
                        await connection.core.host.setSigningKey(signing.key, counter: signing.signCounter, for: handle)
                    }
                    await self.current.paired(connection, PairingResult(result))
                case let .pairingFailed(handle, _, failure):
                    guard let connection = await dispatcher.connection(handle: handle) else { continue }
                    await self.current.pairingFailed(connection, BLEError(HostPairingError.failed(failure), closed: false))
                case .saveFailed:
                    break  // the bond stays in memory; the next pairing tries the file again
                }
            }
        }
    }

    /// A link came up: a bonded client gets its subscriptions back (Vol 3, Part G,
    /// §3.3.3.3) and our server learns a key exists (Vol 3, Part C, §10.3.1).
    func linkUp(_ link: GAPConnection, host: BLEHost.Host) {
        guard bonds.record(for: link.peer) != nil else { return }
        let restored = bonds.clientRecord(for: link.peer)
        let handle = link.handle
        Task {
            await host.setLinkHasKey(handle, true)
            if let restored { await host.restoreGATTClient(restored, for: handle) }
        }
    }
}

/// The host's pairing agent for a device: finds the ``Connection`` of a handle and asks the
/// app's current handlers.
struct DeviceSecurityAgent: PairingAgent {
    let security: DeviceSecurity
    let dispatcher: EventDispatcher

    func displayPasskey(_ passkey: UInt32, on connection: UInt16) async {
        guard let link = await dispatcher.connection(handle: connection) else { return }
        await security.current.displayPasskey(link, passkey)
    }

    func enterPasskey(on connection: UInt16) async -> UInt32? {
        guard let link = await dispatcher.connection(handle: connection) else { return nil }
        return await security.current.enterPasskey(link)
    }

    func confirmNumber(_ number: UInt32, on connection: UInt16) async -> Bool {
        guard let link = await dispatcher.connection(handle: connection) else { return false }
        return await security.current.confirmNumber(link, number)
    }

    func confirmPairing(on connection: UInt16) async -> Bool {
        guard let link = await dispatcher.connection(handle: connection) else { return false }
        return await security.current.confirmPairing(link)
    }
}
