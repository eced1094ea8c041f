import BLEWire

/// The data path (Core 5.4, Vol 6, Part B, §2.4 and §4.5.9; Vol 4, Part E, §5.4.2): host
/// ACL packets cut into LL data PDUs of at most the effective maximum payload, received
/// LL data handed to the host as ACL packets of at most the LE ACL buffer size.
extension LinkLayerConnection {
    /// The largest payload this side may send now: connEffectiveMaxTxOctets, further limited
    /// so the packet (with its MIC when encrypted) fits connEffectiveMaxTxTime (§4.5.10).
    var maximumTransmitPayload: Int {
        Self.maximumTransmitPayload(octets: min(localMaxTxOctets, remoteMaxRxOctets), time: effectiveMaxTxTime,
                                    encrypted: encryption.transmitEncrypted, phy: txPHY)
    }

    /// connEffectiveMaxTxTime (§4.5.10): the smaller of ours and the peer's, and on LE Coded
    /// at least 2,704 µs, room for 27 octets and a MIC at S=8, whatever the times exchanged
    /// for 1M say.
    var effectiveMaxTxTime: UInt16 {
        let time = min(localMaxTxTime, remoteMaxRxTime)
        if case .leCoded = txPHY { return max(time, 2704) }
        return time
    }

    /// ``maximumTransmitPayload`` from its parts: `octets` and `time` are the effective
    /// maximum transmit octets and time, `encrypted` adds the 4-octet MIC.
    static func maximumTransmitPayload(octets: UInt16, time: UInt16, encrypted: Bool, phy: RadioPHY) -> Int {
        let time = Int(time)
        let mic = encrypted ? 4 : 0
        let byTime: Int
        switch phy {
        case .le1M: byTime = (time - 80) / 8 - mic
        case .le2M: byTime = (time - 44) / 4 - mic
        case let .leCoded(coding):
            // 376 µs of preamble and FEC block 1, then header, CRC and TERM2 at S µs a bit (§2.2).
            let perBit = Int(coding.microsecondsPerBit)
            byTime = (time - 376 - 3 * perBit) / (8 * perBit) - 2 - 3 - mic
        }
        return max(1, min(Int(octets), byTime))
    }

    /// Queues a host ACL packet. An empty one has nothing to send and completes at once.
    mutating func enqueueHostData(_ packet: HCI.ACLPacket, at now: Microseconds, into outputs: inout [ConnectionOutput]) {
        guard !packet.data.isEmpty else {
            outputs.append(.completedPackets(1))
            return
        }
        if hostQueueHead > 64, hostQueueHead * 2 > hostQueue.count {
            hostQueue.removeFirst(hostQueueHead)
            hostQueueHead = 0
        }
        hostQueue.append(HostPacket(data: packet.data, startsL2CAPMessage: packet.packetBoundary != .continuing, offset: 0))
        wakeFromLatency(at: now, into: &outputs)
    }

    /// The index in the control queue of the next control PDU that may go now: while an
    /// encryption procedure runs only its own PDUs (and LL_TERMINATE_IND) may (§5.1.3).
    func nextControlIndex() -> Int? {
        guard encryption.inProgress else { return controlQueue.isEmpty ? nil : 0 }
        return controlQueue.firstIndex { pending in
            guard case let .pdu(pdu) = pending else { return false }
            switch pdu {
            case .encryptionRequest, .encryptionResponse, .startEncryptionRequest, .startEncryptionResponse,
                 .pauseEncryptionRequest, .pauseEncryptionResponse, .rejectExtendedIndication, .rejectIndication,
                 .terminateIndication, .unknownResponse:
                return true
            default:
                return false
            }
        }
    }

    /// The plaintext payload length of the next new PDU, or `nil` when there is nothing to send.
    func nextNewPayloadLength() -> Int? {
        if let index = nextControlIndex() {
            switch controlQueue[index] {
            case let .pdu(pdu): return pdu.encoded().count
            case .connectionUpdate: return 12
            case .phyUpdate: return 5
            case .channelMapUpdate: return 8
            }
        }
        guard terminating == nil, !encryption.inProgress, hostQueueHead < hostQueue.count else { return nil }
        let head = hostQueue[hostQueueHead]
        return min(head.data.count - head.offset, maximumTransmitPayload)
    }

    /// Takes the next new PDU off the queues (control first), encrypting it when the link
    /// is; an empty PDU when there is nothing to send.
    mutating func makeNewPDU(at now: Microseconds) -> SentPDU {
        if let index = nextControlIndex() {
            let pending = controlQueue.remove(at: index)
            let pdu = buildControl(pending, at: now)
            let plain = pdu.encoded()
            let packet = SentPDU(llid: .control, airPayload: encryptForAir(plain, llid: .control), completesHostPackets: 0, control: pdu)
            controlBuilt(pdu)
            return packet
        }
        guard terminating == nil, !encryption.inProgress, hostQueueHead < hostQueue.count else {
            return SentPDU(llid: .continuationOrEmpty, airPayload: [], completesHostPackets: 0, control: nil)
        }
        var head = hostQueue[hostQueueHead]
        let count = min(head.data.count - head.offset, maximumTransmitPayload)
        let start = head.data.startIndex + head.offset
        let fragment = Array(head.data[start ..< start + count])
        let llid: LL.DataChannelPDU.LLID = head.offset == 0 && head.startsL2CAPMessage ? .start : .continuationOrEmpty
        head.offset += count
        let completes = head.offset >= head.data.count
        if completes {
            hostQueue[hostQueueHead] = HostPacket(data: [], startsL2CAPMessage: false, offset: 0)
            hostQueueHead += 1
        } else {
            hostQueue[hostQueueHead] = head
        }
        return SentPDU(llid: llid, airPayload: encryptForAir(fragment, llid: llid), completesHostPackets: completes ? 1 : 0, control: nil)
    }

    /// Hands a received L2CAP fragment to the host, cut to the LE ACL buffer size: the first
    /// piece of an L2CAP start is PB 0b10, every other piece PB 0b01 (Vol 4, Part E, §5.4.2).
    mutating func deliverToHost(_ payload: ArraySlice<UInt8>, startsMessage: Bool, into outputs: inout [ConnectionOutput]) {
        let size = max(configuration.leACLBufferSize, 1)
        var position = payload.startIndex
        var first = true
        while position < payload.endIndex {
            let end = min(position + size, payload.endIndex)
            let boundary: HCI.ACLPacket.PacketBoundaryFlag = first && startsMessage ? .firstAutomaticallyFlushable : .continuing
            outputs.append(.aclToHost(HCI.ACLPacket(connectionHandle: handleValue, packetBoundary: boundary, data: payload[position ..< end])))
            position = end
            first = false
        }
    }
}
