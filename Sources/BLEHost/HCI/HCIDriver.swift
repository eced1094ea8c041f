import BLEWire

/// The host's HCI driver (Core 5.4, Vol 4, Part E): brings a controller up, paces commands
/// and ACL data by the controller's credits, reassembles incoming L2CAP frames and recovers
/// from hardware errors.
///
/// A sans-IO value (DESIGN.md, "Principles"): every input carries `now`, every effect is a
/// returned ``HCIDriverOutput``; the caller sends packets, arms a timer for
/// ``nextDeadline`` and calls ``timerFired(at:)``. Bytes from the controller never trap.
public struct HCIDriver: Sendable {
    /// Where the driver is in the controller's life.
    enum Phase: Sendable {
        case idle, starting, ready, failed
    }

    /// The configuration the driver was made with.
    public let configuration: HCIDriverConfiguration
    /// Packets dropped and why.
    public private(set) var counters = HCIDriverCounters()

    var phase = Phase.idle
    var commands = HCICommandQueue()
    var startup = HCIStartup()
    var info: ControllerInfo?
    var aclOut = ACLFlowControl()
    var aclIn = ACLReassembly()
    /// Connection handles the controller reported up and not yet down.
    var connections: Set<UInt16> = []

    /// A driver that does nothing until ``start(at:)``.
    public init(configuration: HCIDriverConfiguration = .init()) {
        self.configuration = configuration
        aclIn.maximumFrameLength = configuration.maximumIncomingFrameLength
    }

    /// What start-up learned, once the controller is ready; `nil` before and after a failure.
    public var controller: ControllerInfo? { phase == .ready ? info : nil }

    /// Whether start-up has finished and the controller takes commands and data.
    public var isReady: Bool { phase == .ready }

    /// When ``timerFired(at:)`` must be called next: the earliest command timeout.
    public var nextDeadline: HostTime? { commands.nextDeadline }

    /// Connection handles currently up, in ascending order.
    public var connectionHandles: [UInt16] { connections.sorted() }

    /// ACL fragments of `handle` waiting in the host for a controller buffer: what a
    /// sender that must not outrun the controller (GATT notifications, Core 5.4, Vol 4,
    /// Part E, §4.1.1) waits on before it hands over more.
    public func queuedACLFragments(handle: UInt16) -> Int { aclOut.queuedFragments(handle: handle) }

    /// ACL fragments of `handle` the controller has not completed yet, queued in the host
    /// or held in its buffers: what a disconnection now would lose, since the controller
    /// flushes a link's buffers when it goes down (Core 5.4, Vol 4, Part E, §4.3).
    public func uncompletedACLFragments(handle: UInt16) -> Int { aclOut.uncompletedFragments(handle: handle) }

    /// Begins the start-up sequence with HCI_Reset (§7.3.2). Commands submitted before the
    /// first start wait for it; a second start abandons what was sent or queued and reports
    /// every link lost, as the reset drops them.
    public mutating func start(at now: HostTime) -> [HCIDriverOutput] {
        var outputs: [HCIDriverOutput] = []
        if phase != .idle {
            abandonEverything(reason: .connectionTerminatedByLocalHost, into: &outputs)
        }
        beginStartup(at: now, into: &outputs)
        return outputs
    }

    /// Submits `command` for the controller; its Command Complete or Command Status (or a
    /// timeout) comes back as ``HCIDriverOutput/commandCompleted(_:_:)`` with `token`.
    /// Commands wait in order for a command credit and for start-up to finish.
    public mutating func submit<C: HCICommand>(_ command: C, token: HCICommandToken, at now: HostTime) -> [HCIDriverOutput] {
        let packet: HCI.CommandPacket
        do throws(WireError) {
            packet = try HCI.CommandPacket(command)
        } catch {
            return [.commandCompleted(token, .failure(.invalidCommand(C.opcode, error)))]
        }
        commands.enqueue(.init(owner: .user(token), packet: packet))
        return commands.drain(at: now, timeout: configuration.commandTimeout).map(HCIDriverOutput.send)
    }

    /// Sends a whole L2CAP B-frame on `handle`, cut to the controller's LE ACL length and
    /// paced by its buffers (§4.1.1). A frame for a handle that is not connected is refused
    /// and counted.
    public mutating func sendL2CAP(_ frame: [UInt8], handle: UInt16, at now: HostTime) -> [HCIDriverOutput] {
        guard phase == .ready, connections.contains(handle) else {
            counters.outgoingUnknownHandle += 1
            return []
        }
        aclOut.enqueue(frame, handle: handle)
        return aclOut.pump().map(HCIDriverOutput.send)
    }

    /// Fails every command whose timeout has passed; a start-up command's timeout fails
    /// start-up.
    public mutating func timerFired(at now: HostTime) -> [HCIDriverOutput] {
        var outputs: [HCIDriverOutput] = []
        for expired in commands.expire(at: now) {
            counters.commandTimeouts += 1
            switch expired.owner {
            case let .user(token):
                outputs.append(.commandCompleted(token, .failure(.timeout(expired.opcode))))
            case .startup:
                if phase == .starting {
                    phase = .failed
                    outputs.append(.failed(.timeout(expired.opcode)))
                }
            }
        }
        outputs += commands.drain(at: now, timeout: configuration.commandTimeout).map(HCIDriverOutput.send)
        return outputs
    }

    /// Takes one packet from the controller.
    public mutating func receive(_ packet: H4.Packet, at now: HostTime) -> [HCIDriverOutput] {
        switch packet {
        case let .event(eventPacket):
            let event: HCI.Event
            do throws(WireError) {
                event = try HCI.Event(decoding: eventPacket)
            } catch {
                counters.undecodableEvents += 1
                return []
            }
            return handle(event, at: now)
        case let .acl(aclPacket):
            return receiveACL(aclPacket)
        case .command, .sco, .iso:
            counters.unexpectedPackets += 1
            return []
        }
    }

    // MARK: Events

    private mutating func handle(_ event: HCI.Event, at now: HostTime) -> [HCIDriverOutput] {
        var outputs: [HCIDriverOutput] = []
        switch event {
        case let .commandComplete(complete):
            commandAnswered(event, opcode: complete.opcode, credits: complete.numHCICommandPackets, at: now, into: &outputs)
        case let .commandStatus(status):
            commandAnswered(event, opcode: status.opcode, credits: status.numHCICommandPackets, at: now, into: &outputs)
        case let .numberOfCompletedPackets(completed):
            for entry in completed.entries {
                aclOut.completed(Int(entry.numCompletedPackets), handle: entry.connectionHandle)
            }
            outputs += aclOut.pump().map(HCIDriverOutput.send)
        case let .disconnectionComplete(done):
            if done.status == .success, connections.remove(done.connectionHandle) != nil {
                counters.outgoingFragmentsDropped += aclOut.disconnected(done.connectionHandle)
                aclIn.disconnected(done.connectionHandle)
                outputs.append(.linkLost(handle: done.connectionHandle, reason: done.reason))
                outputs.append(.event(event))
                outputs += aclOut.pump().map(HCIDriverOutput.send)
            } else {
                outputs.append(.event(event))
            }
        case let .hardwareError(error):
            outputs.append(.failed(.hardwareError(code: error.hardwareCode)))
            abandonEverything(reason: .hardwareFailure, into: &outputs)
            beginStartup(at: now, into: &outputs)
        case let .leMeta(.connectionComplete(done)):
            if done.status == .success { connectionUp(done.connectionHandle) }
            outputs.append(.event(event))
        case let .leMeta(.enhancedConnectionComplete(done)):
            if done.status == .success { connectionUp(done.connectionHandle) }
            outputs.append(.event(event))
        case let .leMeta(.enhancedConnectionCompleteV2(done)):
            if done.connection.status == .success { connectionUp(done.connection.connectionHandle) }
            outputs.append(.event(event))
        default:
            outputs.append(.event(event))
        }
        return outputs
    }

    /// A connection came up; a handle reused without a disconnection starts clean.
    private mutating func connectionUp(_ handle: UInt16) {
        guard phase == .ready else { return }
        if connections.contains(handle) {
            counters.outgoingFragmentsDropped += aclOut.disconnected(handle)
            aclIn.disconnected(handle)
        }
        connections.insert(handle)
    }

    /// Command Complete or Command Status: credits, the waiting command, then the queue.
    private mutating func commandAnswered(
        _ event: HCI.Event, opcode: HCI.Opcode, credits: UInt8, at now: HostTime, into outputs: inout [HCIDriverOutput]
    ) {
        switch commands.answer(opcode: opcode, credits: credits) {
        case let .user(token)?:
            outputs.append(.commandCompleted(token, .success(event)))
        case .startup?:
            if phase == .starting { advanceStartup(event, at: now, into: &outputs) }
        case nil:
            if opcode.rawValue != 0 { counters.unexpectedCommandEvents += 1 }
        }
        outputs += commands.drain(at: now, timeout: configuration.commandTimeout).map(HCIDriverOutput.send)
    }

    private mutating func advanceStartup(_ event: HCI.Event, at now: HostTime, into outputs: inout [HCIDriverOutput]) {
        switch startup.answer(event, configuration: configuration) {
        case nil:
            // A pending Command Status: the command is still owed its Command Complete.
            let opcode = startup.packet(for: startup.step, configuration: configuration).opcode
            commands.awaitAgain(owner: .startup, opcode: opcode, deadline: now &+ configuration.commandTimeout)
        case let .send(_, packet)?:
            commands.enqueue(.init(owner: .startup, packet: packet))
        case let .finished(learned)?:
            info = learned
            aclOut.configure(fragmentLength: learned.leACLDataPacketLength, buffers: learned.totalNumLEACLDataPackets)
            phase = .ready
            commands.releasesUserCommands = true
            outputs.append(.ready(learned))
        case let .failed(error)?:
            phase = .failed
            outputs.append(.failed(error))
        }
    }

    // MARK: ACL in

    private mutating func receiveACL(_ packet: HCI.ACLPacket) -> [HCIDriverOutput] {
        guard phase == .ready, connections.contains(packet.connectionHandle) else {
            counters.unknownHandlePackets += 1
            return []
        }
        guard packet.broadcast == .pointToPoint else {
            counters.broadcastPackets += 1
            return []
        }
        let abandonedBefore = aclIn.abandoned
        let outcome = aclIn.receive(packet)
        counters.incompleteFrames += aclIn.abandoned - abandonedBefore
        switch outcome {
        case let .frame(frame): return [.l2capFrame(handle: packet.connectionHandle, frame: frame)]
        case .incomplete: return []
        case .continuationWithoutStart: counters.continuationWithoutStart += 1
        case .overlong: counters.overlongFrames += 1
        }
        return []
    }

    // MARK: Resets

    /// Rebuilds the state for a fresh controller and sends HCI_Reset.
    private mutating func beginStartup(at now: HostTime, into outputs: inout [HCIDriverOutput]) {
        phase = .starting
        startup = HCIStartup()
        info = nil
        commands.releasesUserCommands = false
        commands.enqueue(.init(owner: .startup, packet: startup.packet(for: .reset, configuration: configuration)))
        outputs += commands.drain(at: now, timeout: configuration.commandTimeout).map(HCIDriverOutput.send)
    }

    /// The controller is being reset: every link is lost with `reason`, every command sent
    /// or queued is abandoned, and the ACL state is cleared.
    private mutating func abandonEverything(reason: HCI.StatusCode, into outputs: inout [HCIDriverOutput]) {
        for handle in connections.sorted() {
            outputs.append(.linkLost(handle: handle, reason: reason))
        }
        connections = []
        for token in commands.reset() {
            outputs.append(.commandCompleted(token, .failure(.controllerReset)))
        }
        aclOut = ACLFlowControl()
        aclIn.reset()
    }
}
