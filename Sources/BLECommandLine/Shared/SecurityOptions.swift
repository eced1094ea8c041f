import ArgumentParser
import BLEHost
import BLEStorage
import BLEWire
import Foundation

/// The pairing and bond options `ble pair`, `ble gatt` and `ble serve` share (Core 5.4,
/// Vol 3, Part H, §2.3): our IO capability, legacy or Secure Connections (only), MITM,
/// bonding, the passkey to type, out-of-band data, and the bond store file.
struct SecurityOptions: ParsableArguments {
    @Option(help: "Our IO capability: none, display, keyboard, yesno or kbdisplay.")
    var io: String = "none"

    @Flag(help: "Pair with LE legacy pairing (no Secure Connections).")
    var legacy = false

    @Flag(help: "Accept only LE Secure Connections pairing.")
    var scOnly = false

    @Flag(help: "Ask for man-in-the-middle protection (an authenticated key).")
    var mitm = false

    @Option(help: "The passkey (0 to 999999) to type when the peer displays one; without it it is read from stdin.")
    var passkey: UInt32?

    @Flag(help: "Accept the Numeric Comparison number without asking.")
    var accept = false

    @Flag(help: "Pair without bonding: keys are not stored.")
    var noBond = false

    @Option(help: "The bond store file (default: $SWIFTBLE_BONDS, else ~/.local/share/swiftble/bonds-<controller address>.json).")
    var bonds: String?

    @Option(name: .customLong("oob-tk"),
            help: "LE legacy OOB: the Temporary Key both sides hold, 32 hex digits (most significant first) or AD hex with a TK (0x10).")
    var oobTemporaryKey: String?

    @Option(name: .customLong("oob-peer"),
            help: "Secure Connections OOB data received from the peer: C:R, 32 hex digits each (most significant first), or AD hex with 0x22 and 0x23.")
    var oobPeer: String?

    @Flag(name: .customLong("oob-show"),
          help: "Make our Secure Connections OOB data for this run, print it (oob address A c C r R ad HEX) and pair with it; ble pair and ble gatt then wait for Return (or end of stdin) before connecting.")
    var oobShow = false

    /// `--io` names and the SMP IO capabilities they stand for (§3.5.1, Table 3.4).
    static let capabilities: [String: SMP.IOCapability] = [
        "none": .noInputNoOutput, "display": .displayOnly, "keyboard": .keyboardOnly,
        "yesno": .displayYesNo, "kbdisplay": .keyboardDisplay,
    ]

    func validate() throws {
        guard Self.capabilities[io] != nil else {
            throw ValidationError("--io must be none, display, keyboard, yesno or kbdisplay.")
        }
        if legacy && scOnly { throw ValidationError("--legacy and --sc-only exclude each other.") }
        if let passkey, passkey > 999_999 { throw ValidationError("--passkey must be from 0 to 999999.") }
        if let oobTemporaryKey, OutOfBandText.temporaryKey(oobTemporaryKey) == nil {
            throw ValidationError("--oob-tk must be 32 hex digits, or AD structures in hex holding a TK Value (0x10).")
        }
        if let oobPeer, OutOfBandText.peerData(oobPeer) == nil {
            throw ValidationError("--oob-peer must be C:R with 32 hex digits each, or AD structures in hex holding 0x22 and 0x23.")
        }
        if oobTemporaryKey != nil, !legacy {
            throw ValidationError("--oob-tk is LE legacy OOB: add --legacy (with Secure Connections, use --oob-peer and --oob-show).")
        }
        if legacy, oobPeer != nil || oobShow {
            throw ValidationError("--oob-peer and --oob-show are Secure Connections OOB; with --legacy use --oob-tk.")
        }
    }

    /// Whether any option was given: `ble serve` leaves security alone otherwise; `ble gatt`
    /// secures its links either way, and without options keeps going when the default bond
    /// store cannot be used.
    var isRequested: Bool {
        bonds != nil || io != "none" || legacy || scOnly || mitm || passkey != nil || noBond || accept || oobTemporaryKey != nil
            || oobPeer != nil || oobShow
    }

    /// Our side of pairing, with our OOB data (`--oob-show`) when made: the key pair
    /// pairing uses is the one C commits to (§2.3.5.6.4).
    func configuration(localOutOfBand: LocalOutOfBand? = nil) -> SMPConfiguration {
        SMPConfiguration(ioCapability: Self.capabilities[io] ?? .noInputNoOutput, bonding: !noBond, mitmRequired: mitm,
                         secureConnections: !legacy, secureConnectionsOnly: scOnly,
                         legacyOutOfBandKey: oobTemporaryKey.flatMap(OutOfBandText.temporaryKey),
                         localOutOfBand: localOutOfBand?.data, peerOutOfBand: oobPeer.flatMap(OutOfBandText.peerData),
                         keyPair: localOutOfBand?.keyPair)
    }

    /// `--oob-show`: fresh OOB data for this run, else `nil`.
    func makeLocalOutOfBand() throws -> LocalOutOfBand? {
        oobShow ? try LocalOutOfBand.generate() : nil
    }

    /// Prints our OOB data (`oob address A c C r R ad HEX`) and waits until the user says
    /// the peer has it (Return) or stdin ends: the peer needs it before pairing starts.
    static func handOver(_ local: LocalOutOfBand, address: BluetoothAddress?) async {
        FileHandle.standardOutput.write(Data((local.sentence(address: address) + "\n").utf8))
        printError("Give the OOB data above to the peer, then press Return.")
        _ = await ConsoleAgent.readLine()
    }

    /// The bond store file: `--bonds`, else the default of the controller at `address`, or
    /// of the adapter `hci` names when the controller has no public address (docs/bonds.md).
    func storeFile(hci: String, controller address: BluetoothAddress?) throws -> BondStoreFile {
        if let bonds { return BondStoreFile(path: bonds) }
        guard let path = BondStoreLocation.defaultPath(hci: hci, controllerAddress: address,
                                                       environment: ProcessInfo.processInfo.environment) else {
            throw CommandFailure("No place for the bond store: set HOME or SWIFTBLE_BONDS, or give --bonds FILE.")
        }
        return BondStoreFile(path: path)
    }

    /// Sets our pairing configuration and the console agent on `host` (started), loads the bond
    /// store and attaches a keeper of it, and, for a GATT client, pairs or encrypts once
    /// when a server refuses a procedure for want of security.
    /// With `json`, the agent's lines on stdout are JSON objects, as the command's others are.
    /// With `storeOptional` (`ble gatt` without options, which secures every link) a store
    /// that cannot be found or read is not fatal: the run keeps its bonds in memory and says why.
    func install(on host: BLEHost.Host, hci: String, localOutOfBand: LocalOutOfBand? = nil, json: Bool = false,
                 storeOptional: Bool = false) async throws -> BondKeeper {
        let keeper: BondKeeper
        do {
            keeper = try BondKeeper.load(try storeFile(hci: hci, controller: await host.controller?.address))
        } catch let failure as CommandFailure where storeOptional {
            printError("\(failure.description) Bonds made now are kept for this run only.")
            keeper = BondKeeper()
        } catch let error as BondStoreFileError where storeOptional {
            printError("\(error.description) Bonds made now are kept for this run only.")
            keeper = BondKeeper()
        } catch let error as BondStoreFileError {
            throw CommandFailure(error.description)
        }
        await host.setPairingConfiguration(configuration(localOutOfBand: localOutOfBand))
        await host.setPairingAgent(ConsoleAgent(passkey: passkey, accept: accept, json: json))
        await keeper.attach(to: host)
        await host.setSecurityUpgradeHandler { [weak host] handle, _ in
            guard let host else { return false }
            return await Self.secure(handle, on: host, keeper: keeper)
        }
        return keeper
    }

    /// Encrypts the link with the stored key when the peer is bonded and we are central,
    /// else pairs; `true` when the link ended up encrypted.
    static func secure(_ handle: UInt16, on host: BLEHost.Host, keeper: BondKeeper) async -> Bool {
        if let encrypted = try? await keeper.encrypt(handle, on: host), encrypted.level > .none { return true }
        // The keeper saves the bond on a task of its own; wait for it, so that a command
        // ending right after the retried request still keeps the bond it made.
        let kept = await keeper.events()
        do {
            try await host.pair(handle)
        } catch {
            printError("Pairing failed: \(error).")
            return false
        }
        await keptOrTimedOut(kept, connection: handle)
        return true
    }

    /// Returns once `events` reports the pairing on `connection` handled (saved, not bonded,
    /// or not saved), or after 5 s.
    private static func keptOrTimedOut(_ events: AsyncStream<BondKeeper.Event>, connection: UInt16) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await event in events {
                    if case let .paired(handle, _, _, _) = event, handle == connection { return }
                }
            }
            group.addTask { try? await Task.sleep(for: .seconds(5)) }
            await group.next()
            group.cancelAll()
        }
    }
}
