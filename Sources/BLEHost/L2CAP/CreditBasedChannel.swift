import BLEWire

/// One LE credit-based channel's state inside an ``L2CAPLink`` (Core 5.4, Vol 3, Part A,
/// §3.4.3 K-frames, §10.1 credit-based flow control): the send queue, segmentation to the
/// peer's MPS, reassembly of incoming SDUs, and both credit counts.
struct CreditBasedChannel: Sendable {
    /// Where the channel is in its life.
    enum State: Hashable, Sendable {
        /// LE Credit Based Connection Request sent, no answer yet.
        case connecting
        /// The host called disconnect while connecting: it has been told the channel is
        /// closed; a late success is disconnected at once, anything else removes it.
        case abandoned
        /// Data flows both ways.
        case open
        /// Disconnection Request sent; the CID stays reserved until the answer or the RTX.
        case disconnecting
    }

    /// What one received K-frame led to.
    enum Reception: Sendable {
        /// A segment was stored; the SDU is not complete yet.
        case incomplete
        /// The K-frame completed an SDU.
        case complete([UInt8])
        /// The peer broke a rule; the channel must be closed.
        case violation(L2CAPCloseReason)
    }

    let id: L2CAPChannelID
    /// The SPSM the channel was opened to (§4.22).
    let psm: UInt16
    var state: State
    var remoteCID: L2CAP.ChannelIdentifier?
    let localMTU: UInt16
    let localMPS: UInt16
    /// The receive credits this device tops the peer up to (its announced initial credits).
    let receiveCreditTarget: Int
    var peerMTU: UInt16 = 0
    var peerMPS: UInt16 = 0
    /// K-frames this device may send (§10.1); kept wide so overflow can be detected.
    var sendCredits = 0
    /// K-frames the peer may still send here.
    var receiveCredits: Int

    /// SDUs waiting to be sent, oldest at `queueHead`.
    private var queue: [[UInt8]] = []
    private var queueHead = 0
    /// Octets of the SDU at `queueHead` already sent.
    private var sentOffset = 0
    /// Whether the first K-frame (with the SDU Length) of the head SDU has gone out.
    private var firstSegmentSent = false
    /// Whether ``L2CAPOutput/sendBlocked(_:)`` was reported and not yet resumed.
    private(set) var blocked = false

    /// Complete SDUs handed to the host and not yet consumed by the app
    /// (``L2CAPLink/sduConsumed(on:)``); counted only with a hold limit.
    var heldSDUs = 0
    /// With a limit, no credits are returned while this many SDUs are held: a slow reader
    /// stops the peer instead of filling memory (§10.1). `nil`: credits follow reception.
    let holdLimit: Int?

    /// The SDU being reassembled and the length its first K-frame announced.
    private var reassembly: [UInt8] = []
    private var expectedSDULength: Int?

    init(id: L2CAPChannelID, psm: UInt16, state: State, localMTU: UInt16, localMPS: UInt16, receiveCredits: Int,
         holdLimit: Int? = nil) {
        self.id = id
        self.psm = psm
        self.holdLimit = holdLimit
        self.state = state
        self.localMTU = localMTU
        self.localMPS = localMPS
        self.receiveCreditTarget = receiveCredits
        self.receiveCredits = receiveCredits
    }

    /// SDUs accepted but not completely sent.
    var queuedSDUs: Int { queue.count - queueHead }

    // MARK: Sending

    /// Accepts an SDU for sending; the caller has checked it against the peer's MTU.
    mutating func enqueue(_ sdu: [UInt8]) {
        queue.append(sdu)
    }

    /// Sends as many K-frames as the credits allow, one credit each (§10.1), then reports
    /// back-pressure changes: blocked when SDUs remain queued, resumed when a blocked
    /// queue has drained.
    mutating func drain(into outputs: inout [L2CAPOutput], counters: inout L2CAPCounters) {
        guard state == .open, let remote = remoteCID else { return }
        while sendCredits > 0, queueHead < queue.count {
            outputs.append(.sendFrame(nextKFrame(to: remote)))
            sendCredits -= 1
            counters.kFramesSent += 1
            counters.framesSent += 1
        }
        if queueHead < queue.count {
            if !blocked {
                blocked = true
                outputs.append(.sendBlocked(id))
            }
        } else if blocked {
            blocked = false
            outputs.append(.sendResumed(id))
        }
    }

    /// Builds the next K-frame of the head SDU as a whole B-frame: the first carries the
    /// SDU Length and up to MPS − 2 octets, later ones up to MPS octets (§3.4.3).
    private mutating func nextKFrame(to remote: L2CAP.ChannelIdentifier) -> [UInt8] {
        let sdu = queue[queueHead]
        let mps = Int(peerMPS)
        let header = firstSegmentSent ? 0 : 2
        let count = min(sdu.count - sentOffset, mps - header)
        var writer = ByteWriter(capacity: 4 + header + count)
        writer.write(UInt16(truncatingIfNeeded: header + count))
        writer.write(remote)
        if !firstSegmentSent {
            writer.write(UInt16(truncatingIfNeeded: sdu.count))
            firstSegmentSent = true
        }
        writer.write(contentsOf: sdu[sentOffset ..< sentOffset + count])
        sentOffset += count
        if sentOffset == sdu.count {
            queue[queueHead] = []
            queueHead += 1
            sentOffset = 0
            firstSegmentSent = false
            if queueHead == queue.count {
                queue.removeAll(keepingCapacity: true)
                queueHead = 0
            } else if queueHead >= 64, queueHead * 2 >= queue.count {
                queue.removeFirst(queueHead)
                queueHead = 0
            }
        }
        return writer.bytes
    }

    /// Adds credits granted by the peer; `false` when the total would pass 65 535, which
    /// §10.1 answers by disconnecting the channel.
    mutating func addSendCredits(_ credits: UInt16) -> Bool {
        let total = sendCredits + Int(credits)
        guard total <= Int(UInt16.max) else { return false }
        sendCredits = total
        return true
    }

    /// Forgets queued and partly received data when the channel starts closing.
    mutating func discardData() {
        queue = []
        queueHead = 0
        sentOffset = 0
        firstSegmentSent = false
        blocked = false
        reassembly = []
        expectedSDULength = nil
    }

    // MARK: Receiving

    /// Takes one K-frame's information payload: spends a credit, checks it against the
    /// MPS, and adds it to the SDU being reassembled (§3.4.3, §10.1).
    mutating func receive(_ payload: ArraySlice<UInt8>) -> Reception {
        guard receiveCredits > 0 else { return .violation(.kFrameWithoutCredit) }
        receiveCredits -= 1
        guard payload.count <= Int(localMPS) else { return .violation(.kFrameExceedsMPS) }
        var segment = payload
        let expected: Int
        if let announced = expectedSDULength {
            expected = announced
        } else {
            var reader = ByteReader(payload)
            guard let length = try? reader.readUInt16("L2CAP.KFrame.sduLength") else {
                return .violation(.malformedKFrame)
            }
            guard length <= localMTU else { return .violation(.sduExceedsMTU) }
            expected = Int(length)
            segment = reader.readRemaining()
            expectedSDULength = expected
            reassembly.reserveCapacity(expected)
        }
        guard reassembly.count + segment.count <= expected else { return .violation(.sduLengthMismatch) }
        reassembly.append(contentsOf: segment)
        guard reassembly.count == expected else { return .incomplete }
        let sdu = reassembly
        reassembly = []
        expectedSDULength = nil
        return .complete(sdu)
    }

    /// The credits to return to the peer now, under this policy: once the peer has used
    /// half or more of the credits this device announced, after the K-frame that crossed
    /// the half, it is topped back up to the announced number — unless the host holds
    /// ``holdLimit`` unread SDUs, in which case the credits wait for the app to read.
    mutating func creditsToReturn() -> UInt16? {
        if let holdLimit, heldSDUs >= holdLimit { return nil }
        guard receiveCredits * 2 <= receiveCreditTarget else { return nil }
        let grant = receiveCreditTarget - receiveCredits
        guard grant > 0 else { return nil }
        receiveCredits = receiveCreditTarget
        return UInt16(clamping: grant)
    }

    /// A snapshot for the host.
    var status: L2CAPChannelStatus {
        let publicState: L2CAPChannelStatus.State
        switch state {
        case .connecting: publicState = .connecting
        case .open: publicState = .open
        case .abandoned, .disconnecting: publicState = .disconnecting
        }
        return L2CAPChannelStatus(state: publicState, psm: psm, remoteCID: remoteCID, localMTU: localMTU, localMPS: localMPS,
                                  peerMTU: peerMTU, peerMPS: peerMPS, sendCredits: sendCredits,
                                  receiveCredits: receiveCredits, queuedSDUs: queuedSDUs)
    }
}
