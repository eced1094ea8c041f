import BLECrypto
import BLEWire

/// Link encryption state (Core 5.4, Vol 6, Part B, §5.1.3; Vol 6, Part E): the session's
/// CCM context, which directions are encrypted, the packet counters, and the progress of
/// an encryption start or key refresh.
struct EncryptionState: Sendable {
    var ccm: BLECrypto.LinkLayerCCM?
    var transmitEncrypted = false
    var receiveEncrypted = false
    var transmitCounter: UInt64 = 0
    var receiveCounter: UInt64 = 0
    /// An encryption start or pause runs: data is held back (§5.1.3.1).
    var inProgress = false
    /// The procedure restarts encryption on an encrypted link (key refresh, §5.1.3.2).
    var refreshing = false
    /// A central waits for LL_ENC_RSP, LL_START_ENC_REQ or LL_START_ENC_RSP.
    var awaitingPeer = false
    /// A peripheral waits for its host's LTK reply.
    var awaitingHostKey = false
    var longTermKey: UInt128 = 0
    var request = LL.EncryptionRequest(random: 0, encryptedDiversifier: 0, sessionKeyDiversifierCentral: 0, initializationVectorCentral: 0)
    var response = LL.EncryptionResponse(sessionKeyDiversifierPeripheral: 0, initializationVectorPeripheral: 0)
}

/// The encryption start, pause and key refresh procedures (§5.1.3) and CCM on the air.
extension LinkLayerConnection {
    var transmitDirection: BLECrypto.LinkLayerCCM.Direction { role == .central ? .centralToPeripheral : .peripheralToCentral }
    var receiveDirection: BLECrypto.LinkLayerCCM.Direction { role == .central ? .peripheralToCentral : .centralToPeripheral }

    /// The payload as it goes on the air: encrypted with its MIC when this side transmits
    /// encrypted and the payload is not empty (an empty PDU is never encrypted).
    mutating func encryptForAir(_ plain: [UInt8], llid: LL.DataChannelPDU.LLID) -> [UInt8] {
        guard encryption.transmitEncrypted, !plain.isEmpty, let ccm = encryption.ccm else { return plain }
        let counter = encryption.transmitCounter
        encryption.transmitCounter += 1
        // Only a packet counter past 2^39 − 1 can fail; the peer then fails the MIC and leaves.
        return (try? ccm.encrypt(payload: plain, header: llid.rawValue, counter: counter, direction: transmitDirection)) ?? plain
    }

    /// The decrypted payload of a new, non-empty received PDU, or `nil` for a MIC failure.
    func decrypt(_ pdu: LL.DataChannelPDU) -> [UInt8]? {
        guard let ccm = encryption.ccm else { return nil }
        return try? ccm.decrypt(pdu.payload, header: pdu.firstHeaderOctet, counter: encryption.receiveCounter, direction: receiveDirection)
    }

    /// A MIC failure ends the link with 0x3D (Vol 6, Part E, §1). This side sends one last
    /// LL_TERMINATE_IND with that reason as a new packet, which the peer cannot authenticate
    /// either, so both ends report the MIC failure.
    mutating func micFailure(acknowledging pdu: LL.DataChannelPDU, at now: Microseconds, into outputs: inout [ConnectionOutput]) {
        if pdu.nextExpectedSequenceNumber != transmitSequenceNumber, unacknowledged != nil {
            unacknowledged = nil
            transmitSequenceNumber.toggle()
        }
        let plain = LL.ControlPDU.terminateIndication(errorCode: .connectionTerminatedMICFailure).encoded()
        let packet = SentPDU(llid: .control, airPayload: encryptForAir(plain, llid: .control), completesHostPackets: 0, control: nil)
        sendAir(packet, moreData: false, at: now + Airtime.interFrameSpace, into: &outputs)
        close(reason: .connectionTerminatedMICFailure, into: &outputs)
    }

    /// HCI_LE_Enable_Encryption on a central: LL_ENC_REQ, or LL_PAUSE_ENC_REQ first when
    /// the link is already encrypted.
    mutating func startEncryption(random: UInt64, ediv: UInt16, longTermKey: UInt128, into outputs: inout [ConnectionOutput]) {
        guard role == .central, !encryption.inProgress else {
            outputs.append(.event(.encryptionChange(.init(
                status: .commandDisallowed, connectionHandle: handleValue, encryptionEnabled: encryption.transmitEncrypted ? .on : .off))))
            return
        }
        encryption.longTermKey = longTermKey
        encryption.request = LL.EncryptionRequest(
            random: random, encryptedDiversifier: ediv, sessionKeyDiversifierCentral: nextRandom(),
            initializationVectorCentral: UInt32(truncatingIfNeeded: nextRandom()))
        encryption.inProgress = true
        encryption.awaitingPeer = true
        encryption.refreshing = encryption.transmitEncrypted
        controlQueue.append(.pdu(encryption.refreshing ? .pauseEncryptionRequest : .encryptionRequest(encryption.request)))
    }

    /// The next value of the connection's random source.
    mutating func nextRandom() -> UInt64 { random.next() }

    /// Side effects of building a control PDU for its first transmission.
    mutating func controlBuilt(_ pdu: LL.ControlPDU) {
        switch pdu {
        case .startEncryptionRequest:
            // The peripheral receives encrypted from the central's next packet on.
            encryption.receiveEncrypted = true
            encryption.receiveCounter = 0
        case .pauseEncryptionResponse where role == .peripheral:
            encryption.receiveEncrypted = false
        default:
            break
        }
    }

    /// Peripheral: LL_ENC_REQ arrived. Answer with LL_ENC_RSP and ask the host for the LTK.
    mutating func receivedEncryptionRequest(_ request: LL.EncryptionRequest, into outputs: inout [ConnectionOutput]) {
        guard role == .peripheral else { return }
        encryption.request = request
        encryption.response = LL.EncryptionResponse(
            sessionKeyDiversifierPeripheral: nextRandom(), initializationVectorPeripheral: UInt32(truncatingIfNeeded: nextRandom()))
        encryption.inProgress = true
        encryption.awaitingHostKey = true
        controlQueue.append(.pdu(.encryptionResponse(encryption.response)))
        outputs.append(.event(.leMeta(.longTermKeyRequest(.init(
            connectionHandle: handleValue, randomNumber: request.random, encryptedDiversifier: request.encryptedDiversifier)))))
    }

    /// Peripheral: the host's LTK reply. A key derives the session and sends
    /// LL_START_ENC_REQ; a negative reply rejects with 0x06 PIN or Key Missing.
    mutating func longTermKeyReply(_ key: UInt128?, into outputs: inout [ConnectionOutput]) {
        guard role == .peripheral, encryption.awaitingHostKey else { return }
        encryption.awaitingHostKey = false
        if let key, let ccm = try? sessionContext(longTermKey: key) {
            encryption.ccm = ccm
            controlQueue.append(.pdu(.startEncryptionRequest))
        } else {
            encryption.inProgress = false
            controlQueue.append(.pdu(.rejectExtendedIndication(rejectOpcode: LL.ControlOpcode.encryptionRequest.rawValue, errorCode: .pinOrKeyMissing)))
        }
    }

    /// The CCM context from `longTermKey` and both halves of SKD and IV.
    func sessionContext(longTermKey: UInt128) throws(BLECrypto.Error) -> BLECrypto.LinkLayerCCM {
        try BLECrypto.LinkLayerCCM(
            longTermKey: longTermKey, skdCentral: encryption.request.sessionKeyDiversifierCentral,
            skdPeripheral: encryption.response.sessionKeyDiversifierPeripheral,
            ivCentral: encryption.request.initializationVectorCentral,
            ivPeripheral: encryption.response.initializationVectorPeripheral)
    }

    /// Central: LL_ENC_RSP arrived; derive the session key and wait for LL_START_ENC_REQ.
    mutating func receivedEncryptionResponse(_ response: LL.EncryptionResponse) {
        guard role == .central, encryption.inProgress else { return }
        encryption.response = response
        encryption.ccm = try? sessionContext(longTermKey: encryption.longTermKey)
    }

    /// Central: LL_START_ENC_REQ arrived; encrypt both ways and answer LL_START_ENC_RSP.
    mutating func receivedStartEncryptionRequest() {
        guard role == .central, encryption.inProgress else { return }
        encryption.transmitEncrypted = true
        encryption.receiveEncrypted = true
        encryption.transmitCounter = 0
        encryption.receiveCounter = 0
        controlQueue.append(.pdu(.startEncryptionResponse))
    }

    /// LL_START_ENC_RSP arrived (encrypted, so the keys match): the peripheral encrypts its
    /// own answer; both tell their host (Encryption Change, or Key Refresh Complete).
    mutating func receivedStartEncryptionResponse(into outputs: inout [ConnectionOutput]) {
        guard encryption.inProgress else { return }
        if role == .peripheral {
            encryption.transmitEncrypted = true
            encryption.transmitCounter = 0
            controlQueue.append(.pdu(.startEncryptionResponse))
        }
        encryption.inProgress = false
        encryption.awaitingPeer = false
        if encryption.refreshing {
            outputs.append(.event(.encryptionKeyRefreshComplete(.init(status: .success, connectionHandle: handleValue))))
        } else {
            outputs.append(.event(.encryptionChange(.init(status: .success, connectionHandle: handleValue, encryptionEnabled: .on))))
        }
        encryption.refreshing = false
    }

    /// Peripheral: LL_PAUSE_ENC_REQ arrived; answer (still encrypted) and stop decrypting.
    mutating func receivedPauseEncryptionRequest() {
        guard role == .peripheral, encryption.transmitEncrypted else { return }
        encryption.inProgress = true
        encryption.refreshing = true
        controlQueue.append(.pdu(.pauseEncryptionResponse))
    }

    /// LL_PAUSE_ENC_RSP arrived. The central stops encrypting, answers unencrypted and
    /// starts again with LL_ENC_REQ; the peripheral stops encrypting.
    mutating func receivedPauseEncryptionResponse() {
        encryption.transmitEncrypted = false
        encryption.receiveEncrypted = false
        if role == .central {
            controlQueue.append(.pdu(.pauseEncryptionResponse))
            controlQueue.append(.pdu(.encryptionRequest(encryption.request)))
        }
    }

    /// The peer rejected encryption: Encryption Change with its error code.
    mutating func encryptionRejected(status: HCI.StatusCode, into outputs: inout [ConnectionOutput]) {
        guard encryption.inProgress else { return }
        encryption.inProgress = false
        encryption.awaitingPeer = false
        encryption.refreshing = false
        encryption.ccm = nil
        outputs.append(.event(.encryptionChange(.init(status: status, connectionHandle: handleValue, encryptionEnabled: .off))))
    }
}
