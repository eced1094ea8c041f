import BLEHost
import BLEStorage

/// Whether a ``BLEDevice`` hides its address (Core 5.4, Vol 3, Part C, §10.7): with privacy
/// it advertises, scans and connects from resolvable private addresses made from its IRK
/// and changed on a timer, so only bonded peers, which hold the IRK, can follow it.
public enum Privacy: Hashable, Sendable {
    /// The controller's public address is used (the default).
    case disabled
    /// A resolvable private address, changed every `rotation` (15 minutes is what the
    /// specification recommends, Vol 3, Part C, Appendix A, TGAP(private_addr_int)).
    case enabled(rotation: Duration)

    /// Privacy with the recommended 15-minute rotation.
    public static let enabled = Privacy.enabled(rotation: .seconds(900))
}

extension BLEDevice {
    /// Opens the controller `hci` names, as ``open(hci:snoop:bonds:commandTimeout:profile:)`` does,
    /// and turns on `privacy` before anything advertises or scans.
    /// - Throws: what ``open(hci:snoop:bonds:commandTimeout:profile:)`` and ``enablePrivacy(rotation:)`` throw.
    public static func open(
        hci: String? = nil, snoop: String? = nil, bonds: BondStorage = .default, privacy: Privacy,
        commandTimeout: Duration? = nil
    ) async throws(BLEError) -> BLEDevice {
        let device = try await open(hci: hci, snoop: snoop, bonds: bonds, commandTimeout: commandTimeout)
        if case let .enabled(rotation) = privacy {
            do throws(BLEError) {
                try await device.enablePrivacy(rotation: rotation)
            } catch {
                await device.close()
                throw error
            }
        }
        return device
    }

    /// Turns on privacy (Core 5.4, Vol 3, Part C, §10.7): our IRK comes from the bond store
    /// (made and saved the first time, so peers bonded before a restart still recognise
    /// us), our resolvable private address is made from it and changed every `rotation`,
    /// and pairings hand out the IRK with our public address as identity. Call it before
    /// advertising, scanning or connecting.
    ///
    /// Bonded peers' private addresses are resolved whether or not privacy is on: in the
    /// controller's resolving list when it has LL Privacy, else in the host; scan results
    /// and connections show a bonded peer's identity address.
    /// - Throws: ``BLEError/invalidParameters(_:)`` for a rotation under one second,
    ///   ``BLEError/advertisingInProgress`` (or a GAP failure) while advertising, scanning
    ///   or connecting, ``BLEError/bondStoreUnavailable(_:)`` when a new IRK cannot be saved.
    public func enablePrivacy(rotation: Duration = .seconds(900)) async throws(BLEError) {
        guard rotation >= .seconds(1) else { throw .invalidParameters("the privacy rotation must be at least one second") }
        let keeper = core.security.bonds.keeper
        let irk: UInt128
        do {
            irk = try await keeper.localIdentityResolvingKey(identityAddress: controller.address)
        } catch {
            throw .bondStoreUnavailable("our identity resolving key cannot be saved: \(error)")
        }
        do {
            try await core.host.enablePrivacy(irk: irk, rotation: rotation)
        } catch {
            throw BLEError(error, closed: core.isClosed)
        }
        await core.security.bonds.refresh()
    }

    /// The resolvable private address the host made and set as our random address, `nil`
    /// without privacy. With the controller's resolving list in use the controller
    /// advertises and connects from addresses it makes itself from the same IRK, so the
    /// address on the air may differ; peers holding our IRK resolve both.
    public var currentPrivateAddress: BluetoothAddress? {
        get async { await core.host.currentPrivateAddress }
    }

    /// Whether the controller resolves private addresses itself (its resolving list holds
    /// the bonded peers' IRKs) rather than the host.
    public var resolvesAddressesInController: Bool {
        get async { await core.host.resolvesAddressesInController }
    }

    /// Puts the bonded peers' IRKs into the host's resolving list and keeps them in step
    /// with new bonds (called when the device starts).
    func startAddressResolution() async {
        await core.security.bonds.keeper.resolveBondedPeers(on: core.host)
    }
}
