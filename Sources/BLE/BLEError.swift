import BLEAdapter
import BLEHost

/// Why a call of the `BLE` front door failed: one typed error for the whole module, each
/// case with a sentence that says what happened (DESIGN.md, "Two faces, one engine").
public enum BLEError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The controller could not be opened or started, or its transport failed; the text is
    /// the adapter's or the host's sentence.
    case controllerUnavailable(String)
    /// The device was closed with ``BLEDevice/close()``.
    case closed
    /// This central is already scanning: one scan at a time (end the first by leaving its
    /// loop or with ``ScanResults/stop()``).
    case scanInProgress
    /// This peripheral is already advertising: legacy advertising has one set (Core 5.4,
    /// Vol 4, Part E, §7.8.9); stop the running ``AdvertisingSession`` first.
    case advertisingInProgress
    /// The PSM is already published on this peripheral.
    case alreadyPublished(psm: UInt16)
    /// What to advertise does not fit a legacy advertisement and its scan response (31
    /// octets each, Vol 3, Part C, §11).
    case advertisementTooLarge(octets: Int, maximum: Int)
    /// A parameter is outside what the specification allows; the text says which.
    case invalidParameters(String)
    /// The connection was not made in the time given.
    case timeout
    /// The task was cancelled, or the host cancelled the procedure.
    case cancelled
    /// The connection could not be made; the text says why.
    case connectionFailed(String)
    /// The connection is down, for this reason (Vol 1, Part F).
    case disconnected(HCI.StatusCode)
    /// The central rejected this peripheral's connection parameter request (Vol 3,
    /// Part A, §4.21).
    case parametersRejected
    /// The peer refused the L2CAP channel (Vol 3, Part A, §4.23).
    case channelRefused(L2CAP.CreditBasedConnectionResult)
    /// The L2CAP channel is closed; nothing more can be sent.
    case channelClosed(L2CAPChannelCloseReason)
    /// The SDU is longer than the peer's MTU for the channel (Vol 3, Part A, §3.4.3).
    case sduTooLong(octets: Int, peerMTU: Int)
    /// The controller or the host refused or failed a procedure; the text says which.
    case procedureFailed(String)
    /// The peer's GATT server answered with this ATT error for this handle (Core 5.4,
    /// Vol 3, Part F, §3.4.1.1), e.g. Write Not Permitted (0x03), Invalid Offset (0x07).
    case att(ATT.ErrorCode, handle: UInt16)
    /// The peer did not answer an ATT request within 30 s; the bearer is closed until the
    /// link is made again (Vol 3, Part F, §3.3.3).
    case gattTimedOut
    /// The peer's answer broke the protocol; the text says how.
    case invalidResponse(String)
    /// The value is longer than the write can carry.
    case valueTooLong(octets: Int, maximum: Int)
    /// Pairing failed with this Pairing Failed reason, sent by either side (Core 5.4, Vol 3,
    /// Part H, §3.5.5), e.g. Confirm Value Failed (0x04) for a wrong passkey; Repeated
    /// Attempts (0x09) also when this side refuses to retry yet (§2.3.6).
    case pairingFailed(SMP.PairingFailedReason)
    /// Pairing did not finish within SMP's 30 seconds (Vol 3, Part H, §3.4); no more
    /// pairing on this link until it is made again.
    case pairingTimedOut
    /// The bond store file could not be read (unreadable, corrupt, newer format); the text
    /// names the file and the reason (docs/bonds.md).
    case bondStoreUnavailable(String)

    /// A sentence for logs and command-line output.
    public var description: String {
        switch self {
        case let .controllerUnavailable(why): return "the controller is unavailable: \(why)"
        case .closed: return "the device is closed"
        case .scanInProgress: return "a scan is already running on this central; end it before starting another"
        case .advertisingInProgress: return "this peripheral is already advertising; stop it before advertising again"
        case let .alreadyPublished(psm): return "PSM 0x\(String(psm, radix: 16, uppercase: true)) is already published"
        case let .advertisementTooLarge(octets, maximum):
            return "the advertisement needs \(octets) octets; a legacy advertisement and its scan response carry \(maximum) each"
        case let .invalidParameters(why): return "invalid parameters: \(why)"
        case .timeout: return "the connection was not made in time"
        case .cancelled: return "the operation was cancelled"
        case let .connectionFailed(why): return "the connection failed: \(why)"
        case let .disconnected(reason): return "the connection is down (\(reason))"
        case .parametersRejected: return "the central rejected the connection parameters"
        case let .channelRefused(result): return "the peer refused the L2CAP channel: \(result)"
        case let .channelClosed(reason): return "the L2CAP channel is closed: \(reason)"
        case let .sduTooLong(octets, peerMTU): return "an SDU of \(octets) octets exceeds the peer's MTU of \(peerMTU)"
        case let .procedureFailed(why): return "the procedure failed: \(why)"
        case let .att(code, handle): return "the peer answered \(code) for handle 0x\(String(handle, radix: 16, uppercase: true))"
        case .gattTimedOut: return "the peer did not answer within 30 seconds; its ATT bearer is closed"
        case let .invalidResponse(why): return "the peer's answer is invalid: \(why)"
        case let .valueTooLong(octets, maximum): return "a value of \(octets) octets is longer than the \(maximum) this write carries"
        case let .pairingFailed(reason): return "pairing failed: \(reason)"
        case .pairingTimedOut: return "pairing did not finish within 30 seconds"
        case let .bondStoreUnavailable(why): return "the bond store cannot be used: \(why)"
        }
    }
}

/// Why an L2CAP channel closed, in the front door's words (Core 5.4, Vol 3, Part A, §4.6,
/// §3.4.3, §10.1).
public enum L2CAPChannelCloseReason: Hashable, Sendable, CustomStringConvertible {
    /// This device closed it.
    case closedLocally
    /// The peer closed it with a Disconnection Request (§4.6).
    case closedByPeer
    /// The connection it ran on went down.
    case linkDisconnected
    /// The peer did not answer a signaling request in time (RTX, §6.2.1).
    case peerDidNotAnswer
    /// The peer broke the channel's rules (SDU or K-frame too long, credits); the text
    /// names the rule.
    case protocolViolation(String)

    /// The front door's reason for a host's close reason.
    init(_ reason: L2CAPCloseReason) {
        switch reason {
        case .localRequest: self = .closedLocally
        case .peerRequest: self = .closedByPeer
        case .linkDisconnected: self = .linkDisconnected
        case .responseTimeout: self = .peerDidNotAnswer
        case .requestRejected: self = .protocolViolation("the peer rejected the request")
        case .sduExceedsMTU: self = .protocolViolation("an SDU longer than the MTU")
        case .kFrameExceedsMPS: self = .protocolViolation("a K-frame longer than the MPS")
        case .sduLengthMismatch: self = .protocolViolation("segments longer than the SDU length")
        case .malformedKFrame: self = .protocolViolation("a malformed K-frame")
        case .kFrameWithoutCredit: self = .protocolViolation("a K-frame without credit")
        case .creditOverflow: self = .protocolViolation("credits past 65535")
        case .invalidConnectionResponse: self = .protocolViolation("an invalid connection response")
        }
    }

    /// A few words for logs.
    public var description: String {
        switch self {
        case .closedLocally: return "closed by this device"
        case .closedByPeer: return "closed by the peer"
        case .linkDisconnected: return "the connection went down"
        case .peerDidNotAnswer: return "the peer did not answer"
        case let .protocolViolation(rule): return "the peer sent \(rule)"
        }
    }
}

extension BLEError {
    /// The front door's error for what a GATT call throws.
    init(gatt error: any Error, closed: Bool) {
        switch error {
        case let error as GATTClientError:
            switch error {
            case let .att(code, handle): self = .att(code, handle: handle)
            case .timedOut: self = .gattTimedOut
            case .disconnected: self = .procedureFailed("the connection is gone")
            case let .invalidResponse(why): self = .invalidResponse(why)
            case let .valueTooLong(length, maximum): self = .valueTooLong(octets: length, maximum: maximum)
            case let .invalidRequest(why): self = .invalidParameters(why)
            }
        case let error as ATTBearerError:
            self = BLEError(gatt: GATTClientError(error), closed: closed)
        default:
            self = BLEError(error, closed: closed)
        }
    }

    /// The front door's error for anything the layers below throw. `closed` says whether
    /// the device was closed, which turns a closed transport into ``closed``.
    init(_ error: any Error, closed: Bool) {
        switch error {
        case let error as BLEError:
            self = error
        case is CancellationError:
            self = .cancelled
        case let error as AdapterError:
            self = .controllerUnavailable(error.description)
        case let error as HostError:
            self = BLEError(host: error, closed: closed)
        case let error as HostChannelError:
            switch error {
            case let .refused(result): self = .channelRefused(result)
            case let .closed(reason): self = .channelClosed(L2CAPChannelCloseReason(reason))
            case let .sduExceedsPeerMTU(octets, peerMTU): self = .sduTooLong(octets: octets, peerMTU: Int(peerMTU))
            case .unknownChannel: self = .channelClosed(.closedLocally)
            }
        case let error as GAPError:
            self = BLEError(gap: error)
        case let error as HostPairingError:
            switch error {
            case let .failed(.sent(reason)), let .failed(.received(reason)): self = .pairingFailed(reason)
            case .failed(.timedOut): self = .pairingTimedOut
            case .repeatedAttempts: self = .pairingFailed(.repeatedAttempts)
            case .encryptedWithStoredKey: self = .procedureFailed(error.description)  // Connection.pair() returns it as a result
            }
        default:
            self = .procedureFailed("\(error)")
        }
    }

    private init(host error: HostError, closed: Bool) {
        switch error {
        case .transportClosed where closed: self = .closed
        case .alreadyStarted, .notStarted, .startupFailed, .transportClosed: self = .controllerUnavailable(error.description)
        case let .gap(gap): self = BLEError(gap: gap)
        case .parameterUpdateRejected: self = .parametersRejected
        case let .disconnected(_, reason): self = .disconnected(reason)
        }
    }

    private init(gap error: GAPError) {
        switch error {
        case .timeout: self = .timeout
        case .cancelled: self = .cancelled
        case .scanningAlreadyEnabled: self = .scanInProgress
        case .advertisingAlreadyEnabled: self = .advertisingInProgress
        case let .advertisingDataTooLong(octets, maximum), let .scanResponseDataTooLong(octets, maximum):
            self = .advertisementTooLarge(octets: octets, maximum: maximum)
        case .invalidAdvertisingInterval, .invalidAdvertisingData, .directedAdvertisingWithoutPeer, .invalidRandomStaticAddress,
             .invalidResolvablePrivateAddress:
            self = .invalidParameters(error.description)
        case .alreadyConnected, .alreadyConnecting:
            self = .connectionFailed(error.description)
        default:
            self = .procedureFailed(error.description)
        }
    }
}
