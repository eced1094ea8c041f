import BLECrypto
import BLEWire

/// One pairing on one link, both roles, every method of the Security Manager (Core 5.4,
/// Vol 3, Part H): phase 1 feature exchange (§2.3), phase 2 legacy (§2.3.5.2–§2.3.5.5) or
/// LE Secure Connections (§2.3.5.6) authentication, phase 3 key distribution (§3.6).
///
/// Sans-IO: each input takes the time and returns ``SMPOutput``s (PDUs to send, user
/// prompts, keys for the link layer). Malformed or unexpected PDUs end the pairing with
/// Pairing Failed and the reason of §3.5.5; nothing traps. After a failure, a timeout or
/// completion, further PDUs are ignored: a new pairing needs a new value.
public struct SMPPairing: Sendable {
    /// The 30-second Security Manager timer (§3.4), in microseconds.
    public static let timeout: HostTime = 30_000_000

    /// Which side we play.
    public let role: SMPRole
    /// What we bring to the pairing.
    public let configuration: SMPConfiguration
    /// Our address on this link, as the peer sees it (an input of c1, f5 and f6).
    public let localAddress: BluetoothAddress
    /// The peer's address on this link.
    public let peerAddress: BluetoothAddress

    var random: any SMPRandomSource
    var phase: Phase = .idle
    var deadline: HostTime?
    var outputs: [SMPOutput] = []

    var request: SMP.PairingRequest?
    var response: SMP.PairingResponse?
    /// The association model, once feature exchange chose it.
    public internal(set) var method: SMPPairingMethod?
    /// Whether LE Secure Connections is used, once feature exchange decided it.
    public internal(set) var secureConnections = false
    /// The negotiated key size in octets, 0 before feature exchange.
    public internal(set) var keySize: UInt8 = 0
    var bonded = false
    /// Responder: the STK or LTK with which to answer the controller's LTK request
    /// (EDIV 0, Rand 0) once phase 2 is done; `nil` before, and after a failure.
    public internal(set) var pendingLTK: UInt128?

    // Authentication state shared by legacy and Secure Connections.
    var temporaryKey: UInt128?
    var passkey: UInt32?
    var awaitingPasskey = false
    /// A Just Works pairing waits for the user's Pair or Cancel (``SMPOutput/confirmPairing``).
    var awaitingConsent = false
    var localRandom: UInt128 = 0
    var peerConfirm: UInt128?
    var localConfirm: UInt128 = 0

    // Secure Connections state.
    var keyPair: BLECrypto.P256KeyPair?
    var peerPublicX = BLECrypto.Value256(high: 0, low: 0)
    var dhKey = BLECrypto.Value256(high: 0, low: 0)
    var passkeyRound = 0
    var peerNonce: UInt128 = 0
    var userConfirmed = false
    var heldPeerCheck: UInt128?
    var macKey: UInt128 = 0
    var secureConnectionsLTK: UInt128?

    // Phase 3.
    var awaitedKeyCodes: [SMP.Code] = []
    var peerKeys = SMPKeys()
    var localKeys = SMPKeys()
    var encrypted = false

    enum Phase: Hashable, Sendable {
        case idle
        case awaitingResponse
        case awaitingPasskey
        case legacyAwaitingConfirm
        case legacyAwaitingRandom
        case awaitingPublicKey
        case awaitingConfirm
        case awaitingRandom
        case awaitingUserConfirmation
        case awaitingDHKeyCheck
        case awaitingEncryption
        case distributingKeys
        case complete
        case failed
    }

    /// A pairing that has not started.
    ///
    /// - Parameters:
    ///   - role: initiator (central) or responder (peripheral).
    ///   - configuration: our capabilities, requirements and keys.
    ///   - localAddress: our address on the link (type and value feed c1, f5, f6).
    ///   - peerAddress: the peer's address on the link.
    ///   - random: nonces and key pairs; ``SMPSystemRandom`` outside tests.
    public init(
        role: SMPRole, configuration: SMPConfiguration, localAddress: BluetoothAddress, peerAddress: BluetoothAddress,
        random: any SMPRandomSource = SMPSystemRandom()
    ) {
        self.role = role
        self.configuration = configuration
        self.localAddress = localAddress
        self.peerAddress = peerAddress
        self.random = random
    }

    /// Whether the pairing has ended (completed, failed or timed out).
    public var isFinished: Bool { phase == .complete || phase == .failed }

    /// Whether a pairing is under way (started, not finished).
    public var isInProgress: Bool { phase != .idle && !isFinished }

    // MARK: - Inputs

    /// Initiator: starts pairing by sending Pairing Request (§3.5.1).
    public mutating func start(at now: HostTime) -> [SMPOutput] {
        guard role == .initiator, phase == .idle else { return [] }
        sendPairingRequest(at: now)
        return takeOutputs()
    }

    /// Responder: asks the central to pair or encrypt with Security Request (§3.6.7).
    /// The SMP timer runs from here (§3.4).
    public mutating func requestSecurity(at now: HostTime) -> [SMPOutput] {
        guard role == .responder, phase == .idle else { return [] }
        send(SMP.SecurityRequest(authenticationRequirements: configuration.authenticationRequirements), at: now)
        return takeOutputs()
    }

    /// An SMP PDU from the peer (the payload of L2CAP channel 0x0006).
    public mutating func receive(_ pdu: [UInt8], at now: HostTime) -> [SMPOutput] {
        guard !isFinished else { return [] }
        do {
            try handle(try decode(pdu), at: now)
        } catch {
            fail(error.reason, at: now)
        }
        return takeOutputs()
    }

    /// The passkey the user typed, or `nil` when the user cancelled: Passkey Entry Failed
    /// (§3.5.5) then, as for a value above 999999.
    public mutating func passkeyEntered(_ value: UInt32?, at now: HostTime) -> [SMPOutput] {
        guard awaitingPasskey, !isFinished else { return [] }
        awaitingPasskey = false
        guard let value, value <= 999_999 else {
            fail(.passkeyEntryFailed, at: now)
            return takeOutputs()
        }
        do {
            try passkeyKnown(value, at: now)
        } catch {
            fail(error.reason, at: now)
        }
        return takeOutputs()
    }

    /// The user's answer to ``SMPOutput/confirmNumber(_:)``; `false` fails with Numeric
    /// Comparison Failed (§3.5.5).
    public mutating func numberConfirmed(_ accepted: Bool, at now: HostTime) -> [SMPOutput] {
        guard method == .numericComparison, !userConfirmed, !isFinished,
              phase == .awaitingUserConfirmation || phase == .awaitingDHKeyCheck else { return [] }
        guard accepted else {
            fail(.numericComparisonFailed, at: now)
            return takeOutputs()
        }
        userConfirmed = true
        do {
            try userConfirmedNumber(at: now)
        } catch {
            fail(error.reason, at: now)
        }
        return takeOutputs()
    }

    /// The user's Pair (`true`) or Cancel for a Just Works pairing after
    /// ``SMPOutput/confirmPairing``. Pair goes on where the pairing waited: legacy pairing
    /// with its Temporary Key of zero (§2.3.5.2), Secure Connections at step 6 of
    /// authentication stage 1, where Numeric Comparison's user answers (§2.3.5.6.2).
    /// Cancel fails with Unspecified Reason (0x08, §3.5.5, Table 3.7): the device supports
    /// pairing (so not Pairing Not Supported, 0x05) and no passkey or number failed (0x01,
    /// 0x0C); the user's refusal is none of the reasons the table names.
    public mutating func pairingConfirmed(_ accepted: Bool, at now: HostTime) -> [SMPOutput] {
        guard awaitingConsent, method == .justWorks, !isFinished else { return [] }
        awaitingConsent = false
        guard accepted else {
            fail(.unspecifiedReason, at: now)
            return takeOutputs()
        }
        do {
            if secureConnections {
                userConfirmed = true
                try userConfirmedNumber(at: now)
            } else {
                try passkeyKnown(0, at: now)
            }
        } catch {
            fail(error.reason, at: now)
        }
        return takeOutputs()
    }

    /// The link is now encrypted with the STK or LTK of phase 2 (Vol 4, Part E, §7.7.8):
    /// key distribution starts, responder first (§3.6.1).
    public mutating func encryptionChanged(keySize: UInt8, at now: HostTime) -> [SMPOutput] {
        guard phase == .awaitingEncryption, !encrypted else { return [] }
        encrypted = true
        do {
            try startKeyDistribution(at: now)
        } catch {
            fail(error.reason, at: now)
        }
        return takeOutputs()
    }

    /// Advances the clock: after 30 s without SMP progress the pairing fails (§3.4) and no
    /// further SMP command may be sent or accepted on this link.
    public mutating func tick(now: HostTime) -> [SMPOutput] {
        guard let deadline, now >= deadline, !isFinished else { return [] }
        self.deadline = nil
        phase = .failed
        pendingLTK = nil
        outputs.append(.failed(.timedOut))
        return takeOutputs()
    }

    /// When the SMP timer expires, if it runs; for the caller's scheduler.
    public var nextDeadline: HostTime? { isFinished ? nil : deadline }

    // MARK: - Plumbing

    mutating func takeOutputs() -> [SMPOutput] {
        defer { outputs = [] }
        return outputs
    }

    /// Queues a PDU and restarts the SMP timer (§3.4).
    mutating func send(_ pdu: some SMPPDU, at now: HostTime) {
        outputs.append(.send(pdu.encoded()))
        deadline = now + Self.timeout
    }

    /// Ends the pairing with Pairing Failed: no key survives.
    mutating func fail(_ reason: SMP.PairingFailedReason, at now: HostTime) {
        guard !isFinished else { return }
        outputs.append(.send(SMP.PairingFailed(reason: reason).encoded()))
        outputs.append(.failed(.sent(reason)))
        abandon()
    }

    mutating func abandon() {
        phase = .failed
        deadline = nil
        pendingLTK = nil
        secureConnectionsLTK = nil
        temporaryKey = nil
        peerKeys = SMPKeys()
        localKeys = SMPKeys()
    }

    /// Decodes a PDU: a reserved code is Command Not Supported, a wrong length or reserved
    /// field value is Invalid Parameters (§3.5.5).
    func decode(_ bytes: [UInt8]) throws(SMPAbort) -> SMP.PDU {
        do {
            return try SMP.PDU(decoding: bytes)
        } catch {
            if case .unknownCode = error.reason { throw SMPAbort(.commandNotSupported) }
            throw SMPAbort(.invalidParameters)
        }
    }

    mutating func handle(_ pdu: SMP.PDU, at now: HostTime) throws(SMPAbort) {
        switch pdu {
        case let .pairingFailed(failed):
            outputs.append(.failed(.received(failed.reason)))
            abandon()
        case .keypressNotification:
            // We never set the Keypress bit (§3.5.1), so notifications carry nothing we
            // use; they are progress hints and are ignored rather than treated as errors.
            break
        case let .securityRequest(request):
            try receivedSecurityRequest(request, at: now)
        case let .pairingRequest(request):
            try receivedPairingRequest(request, at: now)
        case let .pairingResponse(response):
            try receivedPairingResponse(response, at: now)
        case let .pairingConfirm(confirm):
            try receivedConfirm(confirm.confirmValue, at: now)
        case let .pairingRandom(random):
            try receivedRandom(random.randomValue, at: now)
        case let .pairingPublicKey(key):
            try receivedPublicKey(key, at: now)
        case let .pairingDHKeyCheck(check):
            try receivedDHKeyCheck(check.checkValue, at: now)
        case .encryptionInformation, .centralIdentification, .identityInformation, .identityAddressInformation,
             .signingInformation:
            try receivedKey(pdu, at: now)
        }
    }

    /// The initiator's and responder's addresses, in that order.
    var initiatorAddress: BluetoothAddress { role == .initiator ? localAddress : peerAddress }
    var responderAddress: BluetoothAddress { role == .initiator ? peerAddress : localAddress }

    /// Masks a key to the negotiated size (§2.3.4): the most significant octets are zero.
    func masked(_ key: UInt128) -> UInt128 {
        keySize >= 16 ? key : key & ((UInt128(1) << (UInt128(keySize) * 8)) - 1)
    }
}

/// Why a step of pairing cannot go on: the Pairing Failed reason to send (§3.5.5).
struct SMPAbort: Error {
    var reason: SMP.PairingFailedReason
    init(_ reason: SMP.PairingFailedReason) { self.reason = reason }
}

/// Runs a toolbox function; its only failure (the AES backend, which cannot fail for
/// 16-octet keys) ends pairing with Unspecified Reason rather than a trap.
func smpCrypto<T>(_ body: () throws(BLECrypto.Error) -> T) throws(SMPAbort) -> T {
    do {
        return try body()
    } catch {
        throw SMPAbort(.unspecifiedReason)
    }
}
