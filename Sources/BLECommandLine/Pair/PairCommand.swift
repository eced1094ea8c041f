import ArgumentParser
import BLEHost
import BLEStorage
import BLEWire
import Foundation

/// `ble pair ADDRESS`: connects as central, pairs (Core 5.4, Vol 3, Part H, §2.1), prints
/// the outcome and keeps the bond; with a stored bond it re-encrypts with the stored key
/// and says "already bonded" unless `--force`.
struct PairCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pair",
        abstract: "Connect to a device, pair with it and keep the bond.",
        discussion: """
            Prints one line per step: with --oob-show first oob address A c C r R ad HEX \
            (our Secure Connections OOB data; give it to the peer, then press Return), \
            passkey N (show it to the peer's user), compare N \
            (Numeric Comparison; answered with --accept or y/n on stdin), then paired with \
            the method, security level (2 unauthenticated, 3 authenticated, 4 authenticated \
            Secure Connections), key size, whether bonded and the keys received; or \
            already bonded when a stored bond encrypted the link. --json prints the outcome \
            as one JSON object.
            """
    )

    @OptionGroup var connection: GATTConnectionOptions

    @Flag(help: "Pair again even when a bond with the device is stored.")
    var force = false

    @Flag(help: "One JSON object instead of a sentence.")
    var json = false

    @OptionGroup(title: "Logging") var logging: LoggingOptions

    func run() async throws {
        let force = force
        let json = json
        // Our OOB data, printed before connecting (--oob-show): the peer needs it before pairing.
        let local = try connection.security.makeLocalOutOfBand()
        let outcome = try await connection.withConnection(securing: false, localOutOfBand: local) { host, link, _ in
            let keeper = try await connection.security.install(on: host, hci: connection.hci, localOutOfBand: local, json: json)
            if !force, await keeper.record(for: link.peer) != nil {
                do {
                    if let encryption = try await keeper.encrypt(link.handle, on: host) {
                        return PairingOutcome.alreadyBonded(encryption)
                    }
                } catch {
                    // An embedded world is new in every run: its devices never keep their side of a bond.
                    let hci = connection.hci
                    guard hci == "sim" || hci.hasPrefix("sim:") else {
                        throw CommandFailure("The stored bond did not encrypt the link (\(error)); the device may have lost it: "
                                             + "remove it with ble bonds remove, or pair again with --force.")
                    }
                    throw CommandFailure("The stored bond did not encrypt the link (\(error)): on --hci \(hci) each run builds a new "
                                         + "world whose devices remember no bonds, so the device has lost its side of it. Pair again "
                                         + "with --force, or keep one world for several runs with ble sim serve and --hci tcp:127.0.0.1:PORT.")
                }
            }
            let saves = await keeper.events()
            let result: SMPPairingResult
            do {
                result = try await host.pair(link.handle)
            } catch let error as HostPairingError {
                // When we failed the pairing, one ATT round trip lets our Pairing Failed reach
                // the peer before the link closes (a controller may drop data queued behind a
                // disconnection, our virtual one and Bumble's alike).
                if case .failed(.sent) = error {
                    _ = try? await host.gatt(.discoverPrimaryServices(BluetoothUUID(0x1800)), on: link.handle)
                }
                throw CommandFailure(PairingOutcome.sentence(error))
            }
            // One ATT round trip before the link may close: its answer comes after the peer took our
            // last key distribution PDU (L2CAP keeps order), so the peer completes pairing too; a
            // stock Bumble controller drops data queued behind a disconnection.
            _ = try? await host.gatt(.discoverPrimaryServices(BluetoothUUID(0x1800)), on: link.handle)
            // The keeper saves the bond from the host's security event: wait until it has.
            var saved = false
            for await event in saves {
                if case let .paired(handle, _, _, record) = event, handle == link.handle { saved = record != nil; break }
                if case let .saveFailed(error) = event { printError("The bond was not saved: \(error)") }
            }
            return PairingOutcome.paired(result, saved: saved)
        }
        print(json ? outcome.json.rendered : outcome.sentence)
    }
}

/// What `ble pair` printed.
enum PairingOutcome: Sendable {
    case paired(SMPPairingResult, saved: Bool)
    case alreadyBonded(LinkEncryption)

    var sentence: String {
        switch self {
        case let .paired(result, saved):
            return "paired method \(Self.name(of: result.method)) level \(result.level.rawValue) key-size \(result.keySize) "
                + "sc \(result.secureConnections) bonded \(result.bonded) saved \(saved) keys \(Self.keyNames(result.peerKeys))"
        case let .alreadyBonded(encryption):
            return "already bonded: encrypted with the stored key, level \(encryption.level.rawValue) key-size \(encryption.keySize)"
        }
    }

    var json: JSONText {
        switch self {
        case let .paired(result, saved):
            return .object([("event", .string("paired")), ("method", .string(Self.name(of: result.method))),
                            ("level", .integer(result.level.rawValue)), ("keySize", .integer(Int(result.keySize))),
                            ("sc", .bool(result.secureConnections)), ("bonded", .bool(result.bonded)), ("saved", .bool(saved)),
                            ("keys", .string(Self.keyNames(result.peerKeys)))])
        case let .alreadyBonded(encryption):
            return .object([("event", .string("alreadyBonded")), ("level", .integer(encryption.level.rawValue)),
                            ("keySize", .integer(encryption.keySize))])
        }
    }

    /// `just-works`, `numeric-comparison`, `passkey-central-displays`, `passkey-peripheral-displays`
    /// (the central initiates, Vol 3, Part H, §2.3.5.1), `passkey-both-enter`, `oob`.
    static func name(of method: SMPPairingMethod) -> String {
        switch method {
        case .justWorks: return "just-works"
        case .numericComparison: return "numeric-comparison"
        case .passkeyEntry(.initiatorDisplays): return "passkey-central-displays"
        case .passkeyEntry(.responderDisplays): return "passkey-peripheral-displays"
        case .passkeyEntry(.bothEnter): return "passkey-both-enter"
        case .outOfBand: return "oob"
        }
    }

    /// The keys the peer distributed: `ltk,irk,csrk` or `none`.
    static func keyNames(_ keys: SMPKeys) -> String {
        var names: [String] = []
        if keys.longTermKey != nil { names.append("ltk") }
        if keys.identity != nil { names.append("irk") }
        if keys.signatureKey != nil { names.append("csrk") }
        return names.isEmpty ? "none" : names.joined(separator: ",")
    }

    /// The command's error sentence for a failed pairing, with the SMP reason and its code.
    static func sentence(_ error: HostPairingError) -> String {
        switch error {
        case let .failed(.sent(reason)): return "Pairing failed: we sent \(reason)." + hint(reason)
        case let .failed(.received(reason)): return "Pairing failed: the device sent \(reason)." + hint(reason)
        case .failed(.timedOut): return "Pairing timed out after 30 seconds."
        case .repeatedAttempts: return "Pairing with this device failed recently: wait before trying again."
        case .encryptedWithStoredKey: return "The device encrypted with the key it already holds from an earlier bond; no pairing ran."
        }
    }

    /// What to do about a refusal the options can avoid: Authentication Requirements means
    /// that the two IO capabilities cannot give what was asked (Vol 3, Part H, §2.3.5.1).
    private static func hint(_ reason: SMP.PairingFailedReason) -> String {
        guard reason == .authenticationRequirements else { return "" }
        return " The two devices' IO capabilities cannot give the protection asked for: MITM protection needs a display or "
            + "keyboard on one side and a keyboard or yes/no on the other, and a device without them (--io none) can only "
            + "pair Just Works; leave out --mitm (or --sc-only), or give --io what this device has."
    }
}
