import Foundation

/// One cell of the pairing matrix against Bumble (Core 5.4, Vol 3, Part H, §2.3.5.1): legacy
/// or Secure Connections, an association model, bonding or not; the options each side gets
/// and the outcome both must report.
struct BumblePairingCase: Sendable, CustomStringConvertible {
    /// Who shows what.
    enum Model: Sendable {
        case justWorks
        /// The central shows the passkey, the peripheral types it.
        case centralDisplays
        /// The peripheral shows the passkey, the central types it.
        case peripheralDisplays
        case numericComparison
        /// Out of band: the legacy Temporary Key on both sides, or Secure Connections r and C
        /// handed both ways (each side's data reaches the other through the test).
        case outOfBand
    }

    let secureConnections: Bool
    let model: Model
    let bonding: Bool
    /// The passkey the central types is not the one shown: Confirm Value Failed (0x04).
    var wrongPasskey = false
    /// The central holds a wrong OOB value: another TK (legacy; the responder's Mconfirm check
    /// fails) or the peripheral's C with a bit changed (SC; the central's check fails).
    var wrongOutOfBand = false

    static let passkey = "123456"
    static let wrong = "654321"
    /// The legacy OOB Temporary Key, and another one, as `--oob-tk` takes them.
    static let temporaryKey = "00112233445566778899aabbccddeeff"
    static let otherTemporaryKey = "00112233445566778899aabbccddeef0"

    var description: String {
        let kind = secureConnections ? "SC" : "legacy"
        let name: String
        switch model {
        case .justWorks: name = "Just Works"
        case .centralDisplays: name = "passkey, central displays"
        case .peripheralDisplays: name = "passkey, peripheral displays"
        case .numericComparison: name = "Numeric Comparison"
        case .outOfBand: name = "OOB"
        }
        return "\(kind) \(name)\(bonding ? " bonding" : " no bonding")\(wrongPasskey ? " wrong passkey" : "")"
            + (wrongOutOfBand ? " wrong OOB value" : "")
    }

    /// Every cell: {legacy, SC} × {Just Works, passkey either way, Numeric Comparison (SC), OOB} × {bonding, not}.
    static let matrix: [BumblePairingCase] = [true, false].flatMap { sc in
        [Model.justWorks, .centralDisplays, .peripheralDisplays, .numericComparison, .outOfBand].filter { sc || $0 != .numericComparison }
            .flatMap { model in [true, false].map { BumblePairingCase(secureConnections: sc, model: model, bonding: $0) } }
    }

    /// A wrong passkey, the peripheral displaying, in both kinds of pairing.
    static let wrongPasskeys: [BumblePairingCase] = [true, false].map {
        BumblePairingCase(secureConnections: $0, model: .peripheralDisplays, bonding: true, wrongPasskey: true)
    }

    /// A wrong OOB value held by the central, in both kinds of pairing.
    static let wrongOutOfBands: [BumblePairingCase] = [true, false].map {
        BumblePairingCase(secureConnections: $0, model: .outOfBand, bonding: true, wrongOutOfBand: true)
    }

    /// Whether the pairing fails on purpose.
    var fails: Bool { wrongPasskey || wrongOutOfBand }

    /// Whether Secure Connections OOB data must be handed between the processes.
    var handsOverOutOfBand: Bool { model == .outOfBand && secureConnections }

    /// The method name `ble pair` and `ble serve` print.
    var methodName: String {
        switch model {
        case .justWorks: return "just-works"
        case .centralDisplays: return "passkey-central-displays"
        case .peripheralDisplays: return "passkey-peripheral-displays"
        case .numericComparison: return "numeric-comparison"
        case .outOfBand: return "oob"
        }
    }

    /// The security level of the key (Vol 3, Part C, §10.2.1).
    var level: Int { model == .justWorks ? 2 : (secureConnections ? 4 : 3) }

    /// Whether our side prints a passkey that the test must type into Bumble.
    func weDisplay(asCentral: Bool) -> Bool { asCentral ? model == .centralDisplays : model == .peripheralDisplays }

    /// Our options (`ble pair`, `ble gatt`, `ble serve`) when we play the central or the peripheral.
    func ours(asCentral: Bool) -> [String] {
        var options = common
        let display = asCentral ? model == .centralDisplays : model == .peripheralDisplays
        switch model {
        case .justWorks: break
        case .numericComparison: options += ["--io", "yesno", "--accept"]
        case .centralDisplays, .peripheralDisplays:
            options += display ? ["--io", "display"] : ["--io", "keyboard", "--passkey", wrongPasskey ? Self.wrong : Self.passkey]
        case .outOfBand:
            // SC: our data is printed (and handed to Bumble by the test); Bumble's comes as --oob-peer.
            options += secureConnections ? ["--oob-show"]
                : ["--oob-tk", wrongOutOfBand && asCentral ? Self.otherTemporaryKey : Self.temporaryKey]
        }
        return options
    }

    /// Bumble's options (Interop/bumble_pair_peer.py) when it plays the other role.
    func bumble(asCentral: Bool) -> [String] {
        var options = common
        let display = asCentral ? model == .centralDisplays : model == .peripheralDisplays
        switch model {
        case .justWorks: break
        case .numericComparison: options += ["--io", "yesno"]
        case .centralDisplays, .peripheralDisplays:
            // Bumble shows a fixed passkey; when it types, the test hands it ours on stdin.
            options += display ? ["--io", "display", "--passkey", Self.passkey] : ["--io", "keyboard"]
        case .outOfBand:
            // SC: Bumble prints its data ("oob") and takes ours on stdin, as central before connecting.
            options += secureConnections ? ["--oob"] + (asCentral ? ["--oob-wait"] : [])
                : ["--oob-tk", wrongOutOfBand && asCentral ? Self.otherTemporaryKey : Self.temporaryKey]
        }
        return options
    }

    private var common: [String] {
        (secureConnections ? [] : ["--legacy"]) + (bonding ? [] : ["--no-bond"])
            + (model == .justWorks || model == .outOfBand ? [] : ["--mitm"])
    }
}
