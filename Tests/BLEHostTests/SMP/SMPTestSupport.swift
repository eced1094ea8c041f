import BLECrypto
import BLEHost
import BLEWire

/// Random values for pairing tests: the scripted ones first, then SplitMix64 from a seed;
/// key pairs from the same stream (or a fixed one).
struct ScriptedRandom: SMPRandomSource {
    var scripted: [UInt128]
    var state: UInt64
    var fixedKeyPair: BLECrypto.P256KeyPair?

    init(_ scripted: [UInt128] = [], seed: UInt64, keyPair: BLECrypto.P256KeyPair? = nil) {
        self.scripted = scripted
        state = seed
        fixedKeyPair = keyPair
    }

    mutating func next64() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next128() -> UInt128 {
        if !scripted.isEmpty { return scripted.removeFirst() }
        return UInt128(next64()) << 64 | UInt128(next64())
    }

    mutating func makeKeyPair() -> BLECrypto.P256KeyPair {
        if let fixedKeyPair { return fixedKeyPair }
        while true {
            let candidate = BLECrypto.Value256(high: UInt128(next64()) << 64 | UInt128(next64()),
                                               low: UInt128(next64()) << 64 | UInt128(next64()))
            if let pair = try? BLECrypto.P256KeyPair(privateKey: candidate) { return pair }
        }
    }
}

/// Two pairing cores back to back, PDUs passed across, users simulated: a passkey shown on
/// one side is typed on the other (or `typedPasskey` when set), numbers are confirmed with
/// `accepts`, and encryption starts when the initiator asks for it with the key the
/// responder's controller would be given.
struct BackToBack {
    enum Side: Hashable { case initiator, responder }
    enum Action { case deliver(Side, [UInt8]), encrypt }
    enum UserAction { case passkey(Side), confirm(Side), consent(Side) }

    var initiator: SMPPairing
    var responder: SMPPairing
    var now: HostTime = 0
    var log: [Side: [SMPOutput]] = [.initiator: [], .responder: []]
    var typedPasskey: [Side: UInt32] = [:]
    var cancels: Set<Side> = []
    var accepts: [Side: Bool] = [.initiator: true, .responder: true]
    /// Sides whose user never answers a dialog (``SMPOutput/confirmPairing``).
    var ignores: Set<Side> = []
    var displayed: UInt32?
    var sharedPasskey: UInt32 = 123_456
    var initiatorKey: UInt128?
    var responderKey: UInt128?
    /// Optional tampering with PDUs in flight.
    var tamper: ((Side, [UInt8]) -> [UInt8])?

    init(initiator: SMPConfiguration, responder: SMPConfiguration, initiatorSeed: UInt64 = 1, responderSeed: UInt64 = 2,
         initiatorAddress: BluetoothAddress = BluetoothAddress(0xC0_11_22_33_44_55, kind: .random),
         responderAddress: BluetoothAddress = BluetoothAddress(0x00_1B_DC_01_02_03, kind: .public),
         initiatorRandom: ScriptedRandom? = nil, responderRandom: ScriptedRandom? = nil) {
        self.initiator = SMPPairing(role: .initiator, configuration: initiator, localAddress: initiatorAddress,
                                    peerAddress: responderAddress, random: initiatorRandom ?? ScriptedRandom(seed: initiatorSeed))
        self.responder = SMPPairing(role: .responder, configuration: responder, localAddress: responderAddress,
                                    peerAddress: initiatorAddress, random: responderRandom ?? ScriptedRandom(seed: responderSeed))
    }

    func outputs(_ side: Side) -> [SMPOutput] { log[side] ?? [] }

    func result(_ side: Side) -> SMPPairingResult? {
        for output in outputs(side) { if case let .completed(result) = output { return result } }
        return nil
    }

    func failure(_ side: Side) -> SMPPairingFailure? {
        for output in outputs(side) { if case let .failed(failure) = output { return failure } }
        return nil
    }

    func sent(_ side: Side) -> [[UInt8]] {
        outputs(side).compactMap { if case let .send(bytes) = $0 { return bytes } else { return nil } }
    }

    /// Runs the pairing from the initiator's Pairing Request to quiescence.
    mutating func run() {
        var actions: [Action] = []
        var users: [UserAction] = []
        absorb(initiator.start(at: now), from: .initiator, into: &actions, &users)
        var steps = 0
        while steps < 10_000 {
            steps += 1
            now += 1_000
            if !actions.isEmpty {
                switch actions.removeFirst() {
                case let .deliver(side, bytes):
                    let produced = side == .initiator ? initiator.receive(bytes, at: now) : responder.receive(bytes, at: now)
                    absorb(produced, from: side, into: &actions, &users)
                case .encrypt:
                    absorb(responder.encryptionChanged(keySize: responder.keySize, at: now), from: .responder, into: &actions, &users)
                    absorb(initiator.encryptionChanged(keySize: initiator.keySize, at: now), from: .initiator, into: &actions, &users)
                }
            } else if !users.isEmpty {
                switch users.removeFirst() {
                case let .passkey(side):
                    let value: UInt32? = cancels.contains(side) ? nil : typedPasskey[side] ?? displayed ?? sharedPasskey
                    let produced = side == .initiator ? initiator.passkeyEntered(value, at: now)
                        : responder.passkeyEntered(value, at: now)
                    absorb(produced, from: side, into: &actions, &users)
                case let .confirm(side):
                    let accepted = accepts[side] ?? true
                    let produced = side == .initiator ? initiator.numberConfirmed(accepted, at: now)
                        : responder.numberConfirmed(accepted, at: now)
                    absorb(produced, from: side, into: &actions, &users)
                case let .consent(side):
                    guard !ignores.contains(side) else { continue }
                    let accepted = accepts[side] ?? true
                    let produced = side == .initiator ? initiator.pairingConfirmed(accepted, at: now)
                        : responder.pairingConfirmed(accepted, at: now)
                    absorb(produced, from: side, into: &actions, &users)
                }
            } else {
                break
            }
        }
    }

    mutating func absorb(_ outputs: [SMPOutput], from side: Side, into actions: inout [Action], _ users: inout [UserAction]) {
        log[side, default: []] += outputs
        let other: Side = side == .initiator ? .responder : .initiator
        for output in outputs {
            switch output {
            case let .send(bytes):
                actions.append(.deliver(other, tamper?(side, bytes) ?? bytes))
            case let .displayPasskey(value):
                displayed = value
            case .requestPasskey:
                users.append(.passkey(side))
            case .confirmNumber:
                users.append(.confirm(side))
            case .confirmPairing:
                users.append(.consent(side))
            case let .startEncryption(ltk, _, _):
                initiatorKey = ltk
                if ltk == responderKey { actions.append(.encrypt) }
            case let .ltkReady(key):
                responderKey = key
            default:
                break
            }
        }
    }
}

/// Identity keys for the matrix: each side has an IRK, an identity address and a CSRK.
enum SMPFixtures {
    static let initiatorIdentity = SMPIdentity(
        identityResolvingKey: 0x0102_0304_0506_0708_090A_0B0C_0D0E_0F10,
        identityAddress: BluetoothAddress(0xC1_00_00_00_00_01, kind: .random))
    static let responderIdentity = SMPIdentity(
        identityResolvingKey: 0xA1A2_A3A4_A5A6_A7A8_A9AA_ABAC_ADAE_AFB0,
        identityAddress: BluetoothAddress(0x00_1B_DC_AA_BB_CC, kind: .public))
    static let initiatorCSRK: UInt128 = 0x1111_2222_3333_4444_5555_6666_7777_8888
    static let responderCSRK: UInt128 = 0x9999_AAAA_BBBB_CCCC_DDDD_EEEE_FFFF_0000

    static func configuration(
        _ io: SMP.IOCapability, initiator: Bool, secureConnections: Bool, bonding: Bool = true, mitm: Bool = false
    ) -> SMPConfiguration {
        SMPConfiguration(
            ioCapability: io, bonding: bonding, mitmRequired: mitm, secureConnections: secureConnections,
            identity: initiator ? initiatorIdentity : responderIdentity,
            signatureKey: initiator ? initiatorCSRK : responderCSRK)
    }
}
