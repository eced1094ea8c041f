import ArgumentParser
import BLEAdapter
import BLEHost
import BLEWire

/// The options every `ble gatt` command takes to reach a peer's GATT server: its address,
/// the controller, our own address, the ATT_MTU to ask for.
struct GATTConnectionOptions: ParsableArguments {
    @Argument(help: "The peer: its address (C0:11:22:33:44:55, or with /random or /public) or its advertised name, in any letter case.")
    var address: String

    @Flag(help: "The address is a random one (same as writing /random after it).")
    var random = false

    @Option(help: "The ATT_MTU to offer in an Exchange MTU (23 to 517); 23 skips the exchange.")
    var mtu: Int = 517

    @Option(help: "Seconds to wait for the connection.")
    var timeout: Double = 10

    @Option(help: "Connect from this random static address (e.g. C0:5F:00:00:00:01) instead of the controller's public one.")
    var ownAddress: String?

    @Option(help: ArgumentHelp(
        "Connect with LE Extended Create Connection on this PHY: 1m, 2m (scanning LE 1M, taking LE 2M from an extended set on it) or coded.",
        valueName: "1m|2m|coded"))
    var phy: String?

    @OptionGroup var controller: ControllerOption

    /// The controller spec to open (`--hci`, else `$SWIFTBLE_HCI`, else `sim`).
    var hci: String { controller.spec }

    @Option(help: "Write every HCI packet through the host to this btsnoop file.")
    var snoop: String?

    @OptionGroup(title: "Pairing and bonds") var security: SecurityOptions

    @OptionGroup(title: "Privacy") var privacyOptions: PrivacyOptions

    func validate() throws {
        guard PeerQuery(address, random: random) != nil else {
            throw ValidationError("\(address) is not an address (write it as C0:11:22:33:44:55, optionally with /random or /public) nor a device name.")
        }
        guard (23 ... 517).contains(mtu) else { throw ValidationError("--mtu must be from 23 to 517.") }
        try ArgumentChecks.duration(timeout, option: "--timeout", maximum: 3600)
        try ArgumentChecks.ownAddress(ownAddress)
        if let phy, GATTConnectionPHY(phy) == nil {
            throw ValidationError("--phy \(phy) is not a PHY: write 1m, 2m or coded.")
        }
    }

    /// Opens the controller, connects, exchanges the MTU (unless 23), runs `body` on the
    /// connection and disconnects, whatever `body` did. With `securing`, with or without
    /// pairing options (as BlueZ and iOS centrals behave), the link is encrypted with the
    /// stored bond right after connecting — so `ble pair` then `ble gatt read` needs no
    /// option — and a procedure refused for want of security pairs or encrypts once and
    /// runs once more. Our OOB data
    /// (`localOutOfBand`, or made here for `--oob-show` when securing) is printed before
    /// connecting, for the peer to receive before pairing starts.
    func withConnection<T: Sendable>(securing: Bool = true, localOutOfBand: LocalOutOfBand? = nil,
                                     _ body: (BLEHost.Host, GAPConnection, PeerAddress) async throws -> T) async throws -> T {
        guard let query = PeerQuery(address, random: random) else { throw CommandFailure("Invalid address \(address).") }
        let opened = try await openAdapter(hci: hci, snoop: snoop, att: ATTBearerConfiguration(receiveMTU: mtu))
        do {
            let local = try localOutOfBand ?? (securing ? security.makeLocalOutOfBand() : nil)
            let result = try await connected(opened.host, query: query, securing: securing, localOutOfBand: local, body)
            await opened.close()
            return result
        } catch let failure as CommandFailure {
            await opened.close()
            throw failure
        } catch {
            await opened.close()
            throw CommandFailure("The GATT exchange with \(address) failed: \(error).")
        }
    }

    private func connected<T: Sendable>(_ host: BLEHost.Host, query: PeerQuery, securing: Bool, localOutOfBand: LocalOutOfBand?,
                                        _ body: (BLEHost.Host, GAPConnection, PeerAddress) async throws -> T) async throws -> T {
        let info = try await host.start()
        let connectionPHY = phy.flatMap(GATTConnectionPHY.init)
        if let connectionPHY { try connectionPHY.check(info) }
        try await privacyOptions.enable(on: host, hci: hci, bonds: security.bonds)
        let own = ownAddress.flatMap { BluetoothAddress($0, kind: .random) }
        if let own { try await host.setRandomStaticAddress(own) }
        let peer = try await query.resolve(on: host, within: min(timeout, 3), hci: hci, extendedPHYs: connectionPHY?.scanningPHYs)
        if let localOutOfBand { await SecurityOptions.handOver(localOutOfBand, address: own ?? info.address) }
        let request = GAPConnectRequest(
            peer: peer.address, peerAddressType: peer.hciType,
            parameters: HCI.LEConnectionParameters(connectionIntervalMin: 6, connectionIntervalMax: 24, maxLatency: 0,
                                                   supervisionTimeout: 400),
            timeout: HostTime(timeout * 1_000_000), useRandomAddress: own != nil, initiatingPHYs: connectionPHY?.initiatingPHYs)
        var link: GAPConnection
        var attempt = 1
        while true {
            do {
                link = try await host.connect(request)
            } catch HostError.gap(.timeout) {
                throw CommandFailure("No device answered at \(peer) within \(timeout.formatted(decimals: 1)) s: check that it is "
                                     + "advertising connectably and that the address type is right.")
            }
            // The link is the peer's only once it answers (docs/decisions/0056-a-new-link-is-confirmed-before-connect-returns.md).
            if await host.peerAnswered(on: link.handle, within: .seconds(timeout)) {
                if connectionPHY != nil, let phys = try? await host.readPHY(link.handle) {
                    printError("Connected on \(GATTConnectionPHY.name(phys.tx)) (LE Read PHY: TX \(GATTConnectionPHY.name(phys.tx)), RX \(GATTConnectionPHY.name(phys.rx))).")
                }
                break
            }
            guard attempt < 3 else {
                throw CommandFailure("\(peer) never answered on 3 new links (Connection Failed to be Established, 0x3E): "
                                     + "it may not hear us; try again closer to it.")
            }
            attempt += 1
            printError("\(peer) did not answer on the new link (0x3E); connecting again.")
        }
        do {
            if securing {
                let keeper = try await security.install(on: host, hci: hci, localOutOfBand: localOutOfBand,
                                                        storeOptional: !security.isRequested)
                // A bonded central re-encrypts on reconnection (Vol 3, Part C, §10.3.2).
                do {
                    if let encryption = try await keeper.encrypt(link.handle, on: host) {
                        printError("Encrypted with the stored bond: level \(encryption.level.rawValue), key size \(encryption.keySize).")
                    }
                } catch where !security.isRequested {
                    // Without options the bond is a convenience: a device that lost its side
                    // (a new embedded world) is paired afresh if a value needs it.
                    printError("The stored bond did not encrypt the link (\(error)); going on unencrypted, pairing again if a value needs it.")
                }
            }
            if mtu > ATTBearerConfiguration.defaultMTU {
                do {
                    _ = try await host.gatt(.exchangeMTU, on: link.handle)
                } catch let GATTClientError.att(code, _) {
                    throw CommandFailure("The server answered \(GATTNames.describe(code)) to Exchange MTU; try --mtu 23.")
                }
            }
            let result = try await body(host, link, peer)
            try? await host.disconnect(link.handle)
            return result
        } catch {
            try? await host.disconnect(link.handle)
            throw error
        }
    }
}
