import BLECrypto
import BLEHost
import BLEWire

/// The `smp` stateful fuzz target (docs/fuzzing.md): two ``SMPPairing`` cores, initiator
/// and responder, with IO capabilities, Secure Connections, bonding, MITM, OOB data and
/// key sizes from the input — so every association method runs — and between them a
/// fuzzer-controlled link: it delivers, drops, corrupts or forges PDUs in either
/// direction, answers the user prompts (rightly, wrongly or not at all), starts
/// encryption early or late and lets time pass. After each step, for both cores:
///
/// - no key material on an unencrypted link (Core 5.4, Vol 3, Part H, §3.6.1): no key
///   distribution PDU is sent and no pairing completes before the link is encrypted;
/// - one answer per request (§3.5.1–§3.5.2): a Pairing Request reaching an idle responder
///   gets exactly one Pairing Response or Pairing Failed;
/// - a pairing ends once: completion or failure, never both, never twice, nothing sent
///   afterwards, and after a failure no LTK is pending and no timer runs (§3.4);
/// - a completed pairing honours the configuration: key size within its bounds, Secure
///   Connections and a 16-octet key in Secure Connections Only mode (Part C, §10.2.4), an
///   authenticated method when the level says so; only an initiator starts encryption and
///   only a responder hands out an LTK.
struct SMPFuzzDriver {
    /// A deterministic random source from the input, so a saved crash replays.
    struct Random: SMPRandomSource {
        var state: UInt64
        mutating func next64() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func next128() -> UInt128 { UInt128(next64()) << 64 | UInt128(next64()) }
        mutating func makeKeyPair() -> BLECrypto.P256KeyPair {
            while true {
                let candidate = BLECrypto.Value256(high: next128(), low: next128())
                if let pair = try? BLECrypto.P256KeyPair(privateKey: candidate) { return pair }
            }
        }
    }

    /// What the driver knows of one side.
    struct Side {
        var core: SMPPairing
        /// PDUs this side sent that the link has not yet delivered.
        var inFlight: [[UInt8]] = []
        var encrypted = false
        var finished = false
        var displayed: UInt32?
        var receivedPairingRequest = false
        var ltk: UInt128?
    }

    static let initiatorAddress = BluetoothAddress(0xC0_11_22_33_44_55, kind: .random)
    static let responderAddress = BluetoothAddress(0x00_1B_DC_01_02_03, kind: .public)

    var sides: [Side]
    var now: HostTime = 0
    var step = 0

    /// Each side's P-256 key pair, fixed so that out-of-band data can commit to it (and
    /// so that key generation does not dominate the fuzzer's time).
    static let keyPairs: [BLECrypto.P256KeyPair?] = [
        try? BLECrypto.P256KeyPair(privateKey: BLECrypto.Value256(high: 0x1111, low: 0x2222_3333)),
        try? BLECrypto.P256KeyPair(privateKey: BLECrypto.Value256(high: 0x4444, low: 0x5555_6666)),
    ]
    /// Each side's out-of-band data for Secure Connections (§2.3.5.6.4).
    static let outOfBand: [SMPOutOfBandData?] = keyPairs.enumerated().map { index, pair in
        pair.flatMap { try? SMPOutOfBandData.local(keyPair: $0, random: UInt128(0xAB00 + index)) }
    }

    /// A configuration from three octets of the input: IO, flags and key sizes. Flag 0x20
    /// gives the side the peer's out-of-band data; 0x40 makes that data wrong.
    static func configuration(_ input: inout StatefulFuzzInput, initiator: Bool) -> SMPConfiguration {
        let io = SMP.IOCapability.allCases[Int(input.byte()) % SMP.IOCapability.allCases.count]
        let flags = input.byte()
        let sizes = input.byte()
        let local = initiator ? 0 : 1
        var peerData = flags & 0x20 != 0 ? outOfBand[1 - local] : nil
        if flags & 0x40 != 0 { peerData?.confirm ^= 1 }
        return SMPConfiguration(
            ioCapability: io, bonding: flags & 0x01 != 0, mitmRequired: flags & 0x02 != 0, secureConnections: flags & 0x04 != 0,
            secureConnectionsOnly: flags & 0x08 != 0, pairable: flags & 0x80 == 0,
            legacyOutOfBandKey: flags & 0x10 != 0 ? 0x5555_AAAA_5555_AAAA : nil, localOutOfBand: outOfBand[local], peerOutOfBand: peerData,
            keyPair: keyPairs[local], maximumKeySize: 7 + (sizes & 0x0F) % 10, minimumKeySize: 7 + (sizes >> 4) % 10,
            localKeys: SMP.KeyDistribution(rawValue: flags >> 4 | 0x01), peerKeys: SMP.KeyDistribution(rawValue: 0x07),
            identity: SMPIdentity(identityResolvingKey: initiator ? 0x0102_0304 : 0xA1A2_A3A4,
                                  identityAddress: initiator ? initiatorAddress : responderAddress),
            signatureKey: initiator ? 0x1111_2222 : 0x9999_AAAA)
    }

    /// Pairings completed so far, on either side: how deep the input reached.
    var completions = 0

    /// Runs one input; throws the first broken invariant.
    /// - Returns: how many pairings completed (a corpus that never completes one is shallow).
    @discardableResult
    static func run(_ octets: [UInt8]) throws(StatefulFuzzViolation) -> Int {
        var input = StatefulFuzzInput(octets)
        let initiator = SMPPairing(role: .initiator, configuration: configuration(&input, initiator: true),
                                   localAddress: initiatorAddress, peerAddress: responderAddress, random: Random(state: 1))
        let responder = SMPPairing(role: .responder, configuration: configuration(&input, initiator: false),
                                   localAddress: responderAddress, peerAddress: initiatorAddress, random: Random(state: 2))
        var driver = SMPFuzzDriver(sides: [Side(core: initiator), Side(core: responder)])
        while !input.isAtEnd, driver.step < 256 {
            try driver.perform(&input)
            driver.step += 1
        }
        return driver.completions
    }

    func fail(_ message: String) -> StatefulFuzzViolation {
        StatefulFuzzViolation(step: step, message: message)
    }

    /// Reads one operation from `input`, applies it and checks the invariants.
    mutating func perform(_ input: inout StatefulFuzzInput) throws(StatefulFuzzViolation) {
        let operation = input.byte()
        let index = Int(operation >> 7)  // the side acted on: 0 initiator, 1 responder
        let other = 1 - index
        switch (operation & 0x7F) % 10 {
        case 0 ... 3:  // the link delivers the other side's next PDU as sent
            if sides[other].inFlight.isEmpty {
                try apply(index, sides[index].core.role == .initiator ? sides[index].core.start(at: now) : sides[index].core.requestSecurity(at: now))
            } else {
                try deliver(sides[other].inFlight.removeFirst(), to: index)
            }
        case 4:  // the link corrupts the next PDU: one octet changed, or cut short
            guard !sides[other].inFlight.isEmpty else { return }
            var pdu = sides[other].inFlight.removeFirst()
            let position = Int(input.byte())
            let value = input.byte()
            if pdu.isEmpty || value == 0 { pdu = Array(pdu.prefix(position % max(pdu.count, 1))) } else { pdu[position % pdu.count] ^= value }
            try deliver(pdu, to: index)
        case 5:  // a forged PDU
            let code = input.pick([0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, input.byte()] as [UInt8])
            try deliver([code] + input.chunk(limit: 80), to: index)
        case 6:  // the link drops the next PDU
            if !sides[other].inFlight.isEmpty { sides[other].inFlight.removeFirst() }
        case 7:  // the user answers a prompt
            let choice = input.byte()
            let shown = sides[other].displayed ?? sides[index].displayed
            let passkey: UInt32? = choice & 0x03 == 0 ? nil : choice & 0x03 == 1 ? UInt32(input.uint16()) : shown ?? 123_456
            try apply(index, sides[index].core.passkeyEntered(passkey, at: now))
            try apply(index, sides[index].core.numberConfirmed(choice & 0x04 == 0, at: now))
        case 8:  // the link is encrypted, for this side (rightly when both hold the same key, or early)
            sides[index].encrypted = true
            try apply(index, sides[index].core.encryptionChanged(keySize: sides[index].core.keySize, at: now))
        default:  // time passes
            now += HostTime(input.byte()) * 500_000
            try apply(0, sides[0].core.tick(now: now))
            try apply(1, sides[1].core.tick(now: now))
        }
        for side in sides.indices { try checkState(side) }
    }

    /// Hands `pdu` to side `index`; a Pairing Request reaching an idle responder is answered once.
    mutating func deliver(_ pdu: [UInt8], to index: Int) throws(StatefulFuzzViolation) {
        let wasIdle = !sides[index].core.isInProgress && !sides[index].core.isFinished
        let outputs = sides[index].core.receive(pdu, at: now)
        if sides[index].core.role == .responder, pdu.first == 0x01, wasIdle, !sides[index].receivedPairingRequest {
            sides[index].receivedPairingRequest = true
            let answers = outputs.compactMap { if case let .send(bytes) = $0 { return bytes } else { return nil } }
            if answers.count != 1 || !(answers[0].first == 0x02 || answers[0].first == 0x05) {
                throw fail("a Pairing Request got \(answers.count) answers: \(answers)")
            }
        }
        try apply(index, outputs)
    }

    /// Checks and routes one side's outputs.
    mutating func apply(_ index: Int, _ outputs: [SMPOutput]) throws(StatefulFuzzViolation) {
        var side = sides[index]
        let role = side.core.role
        if side.finished, !outputs.isEmpty { throw fail("\(role) produced \(outputs) after the pairing ended") }
        var ended = 0
        for output in outputs {
            switch output {
            case let .send(pdu):
                if let code = pdu.first, (0x06 ... 0x0A).contains(code), !side.encrypted {
                    throw fail("\(role) sent key distribution PDU \(hexByte(code)) on an unencrypted link")
                }
                if side.inFlight.count < 16 { side.inFlight.append(pdu) }
            case let .displayPasskey(value):
                if value > 999_999 { throw fail("\(role) displayed passkey \(value)") }
                side.displayed = value
            case let .confirmNumber(value):
                if value > 999_999 { throw fail("\(role) shows number \(value)") }
            case let .startEncryption(ltk, _, _):
                if role != .initiator { throw fail("a responder started encryption") }
                side.ltk = ltk
            case let .ltkReady(key):
                if role != .responder { throw fail("an initiator handed out an LTK") }
                side.ltk = key
            case .keysDistributed:
                if !side.encrypted { throw fail("\(role) took keys on an unencrypted link") }
            case let .completed(result):
                ended += 1
                completions += 1
                if !side.encrypted { throw fail("\(role) completed pairing on an unencrypted link") }
                try checkResult(result, configuration: side.core.configuration, role: role)
            case .failed:
                ended += 1
            case .requestPasskey, .confirmPairing:
                break
            }
        }
        if ended > 1 { throw fail("\(role) ended its pairing \(ended) times in one step: \(outputs)") }
        if ended == 1 { side.finished = true }
        sides[index] = side
    }

    /// A completed pairing's result against the configuration.
    func checkResult(_ result: SMPPairingResult, configuration: SMPConfiguration, role: SMPRole) throws(StatefulFuzzViolation) {
        let minimum = configuration.secureConnectionsOnly ? 16 : max(configuration.minimumKeySize, 7)
        if result.keySize > configuration.maximumKeySize || result.keySize < minimum {
            throw fail("\(role) completed with key size \(result.keySize), configured \(minimum)–\(configuration.maximumKeySize)")
        }
        if configuration.secureConnectionsOnly, !result.secureConnections {
            throw fail("\(role) completed legacy pairing in Secure Connections Only mode")
        }
        if result.method.isAuthenticated != (result.level >= .authenticated) {
            throw fail("\(role) completed with method \(result.method) at level \(result.level)")
        }
    }

    /// A finished pairing keeps no LTK pending (after a failure) and runs no timer.
    func checkState(_ index: Int) throws(StatefulFuzzViolation) {
        let core = sides[index].core
        guard core.isFinished else { return }
        if core.nextDeadline != nil { throw fail("\(core.role)'s SMP timer runs after the pairing ended") }
    }
}
