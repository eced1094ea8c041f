import BLEHost
import BLEWire

/// The `hci-driver` stateful fuzz target (docs/fuzzing.md): a controller that answers
/// the ``HCIDriver``'s start-up and commands plausibly or not at all, sends arbitrary
/// events (Command Complete and Status with any credits, Number Of Completed Packets,
/// connections, disconnections, hardware errors, anything) and ACL fragments, while the
/// host submits commands and L2CAP frames and time passes. After each step:
///
/// - one answer per command (Core 5.4, Vol 4, Part E, §4.4): a submitted command's token
///   completes exactly once, and nothing completes that was not submitted;
/// - command credits never negative: no more commands are sent than the last Command
///   Complete or Command Status allowed (§7.7.14), except the one a timeout frees;
/// - ACL credits never negative, fragments bounded (§4.1.1): fragments in flight never
///   exceed the controller's LE ACL buffers, none is longer than its buffer length, and
///   no reassembled frame is longer than the configured maximum or disagrees with its
///   L2CAP length;
/// - nothing left behind after a disconnection: the link is reported lost once, its
///   queued and unacknowledged fragments are gone, and its ACL data is no longer
///   delivered; a reset loses every link.
struct HCIDriverFuzzDriver {
    static let handles: [UInt16] = [0x0001, 0x0002, 0x0EFF]
    static let maximumFrame = 300

    var driver = HCIDriver(configuration: HCIDriverConfiguration(maximumIncomingFrameLength: HCIDriverFuzzDriver.maximumFrame))
    var now: HostTime = 0
    var step = 0
    var nextToken: UInt64 = 1
    /// Tokens submitted and not yet completed.
    var submitted: Set<UInt64> = []
    /// Opcodes sent and not yet answered, oldest first.
    var sentOpcodes: [UInt16] = []
    /// Commands the controller may still take (§7.7.14).
    var commandAllowance = 1
    /// Links the driver reported up (through their events) and not lost.
    var connected: Set<UInt16> = []
    /// ACL fragments sent and not completed, by handle.
    var inFlight: [UInt16: Int] = [:]

    /// Links that came up so far: how deep the input reached (start-up must finish first).
    var linksUp = 0

    /// Runs one input; throws the first broken invariant.
    /// - Returns: how many links came up.
    @discardableResult
    static func run(_ octets: [UInt8]) throws(StatefulFuzzViolation) -> Int {
        var input = StatefulFuzzInput(octets)
        var fuzz = HCIDriverFuzzDriver()
        try fuzz.check(fuzz.driver.start(at: 0), event: nil)
        while !input.isAtEnd, fuzz.step < 512 {
            try fuzz.perform(&input)
            fuzz.step += 1
        }
        return fuzz.linksUp
    }

    func fail(_ message: String) -> StatefulFuzzViolation {
        StatefulFuzzViolation(step: step, message: message)
    }

    /// Return parameters a controller could give for `opcode`, with buffer sizes from the input.
    static func plausibleReturn(_ opcode: UInt16, _ input: inout StatefulFuzzInput) -> [UInt8] {
        switch opcode {
        case 0x1001: return [0x00, 0x0D, 0x00, 0x00, 0x0D, 0x5F, 0x00, 0x00, 0x00]  // Read Local Version Information
        case 0x1002: return [0x00] + [UInt8](repeating: input.byte() | 0x20, count: 64)  // Read Local Supported Commands
        case 0x1003, 0x2003: return [0x00] + [UInt8](repeating: input.byte(), count: 8)  // supported features
        case 0x1009: return [0x00, 0x55, 0x44, 0x33, 0x22, 0x11, 0xC0]  // Read BD_ADDR
        case 0x2002: return [0x00] + littleEndian(UInt16(input.byte())) + [input.byte() % 8]  // LE Read Buffer Size
        case 0x2060: return [0x00] + littleEndian(UInt16(input.byte())) + [input.byte() % 8, 0x00, 0x00, 0x00]
        case 0x1005: return [0x00] + littleEndian(UInt16(input.byte())) + [0x00] + littleEndian(UInt16(input.byte() % 8)) + [0x00, 0x00]
        default: return [0x00]
        }
    }

    /// Reads one operation from `input`, applies it and checks the invariants.
    mutating func perform(_ input: inout StatefulFuzzInput) throws(StatefulFuzzViolation) {
        let operation = input.byte() % 16
        var event: [UInt8]?
        switch operation {
        case 0 ... 2:  // Command Complete for the oldest command sent (or NOP)
            let opcode = sentOpcodes.first ?? 0
            let credits = input.byte() % 4
            let parameters = input.byte() & 0x0F == 0x0F ? input.chunk(limit: 80) : HCIDriverFuzzDriver.plausibleReturn(opcode, &input)
            event = [0x0E, UInt8(3 + parameters.count), credits] + littleEndian(opcode) + parameters
        case 3:  // Command Status
            event = [0x0F, 4, input.byte(), input.byte() % 4] + littleEndian(sentOpcodes.first ?? input.uint16())
        case 4:  // Number Of Completed Packets
            let handle = input.pick(HCIDriverFuzzDriver.handles)
            event = [0x13, 5, 1] + littleEndian(handle) + littleEndian(UInt16(input.byte() % 8))
        case 5:  // LE Connection Complete
            let handle = input.pick(HCIDriverFuzzDriver.handles)
            event = [0x3E, 19, 0x01, input.byte() & 0x01 == 0 ? 0x00 : 0x3E] + littleEndian(handle)
                + [0x00, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x18, 0x00, 0x00, 0x00, 0x48, 0x00, 0x00]
        case 6:  // Disconnection Complete
            event = [0x05, 4, input.byte() & 0x01 == 0 ? 0x00 : 0x0C] + littleEndian(input.pick(HCIDriverFuzzDriver.handles)) + [0x13]
        case 7:  // Hardware Error
            event = [0x10, 1, input.byte()]
        case 8:  // any event
            let code = input.byte()
            let parameters = input.chunk(limit: 64)
            event = [code, UInt8(parameters.count)] + parameters
        case 9, 10:  // an ACL fragment from the controller
            let handle = input.pick(HCIDriverFuzzDriver.handles)
            let flags = input.byte() & 0x3F
            let data = input.chunk(limit: 120)
            let bytes = [0x02] + littleEndian(handle | UInt16(flags) << 12) + littleEndian(UInt16(data.count)) + data
            guard let packet = try? H4.Packet(decoding: bytes) else { return }
            try check(driver.receive(packet, at: now), event: nil)
            return
        case 11:  // the host submits a command
            let token = nextToken
            nextToken += 1
            submitted.insert(token)
            let outputs = input.byte() & 1 == 0 ? driver.submit(HCI.ReadBDADDR(), token: HCICommandToken(token), at: now)
                : driver.submit(HCI.LEReadBufferSize(), token: HCICommandToken(token), at: now)
            try check(outputs, event: nil)
            return
        case 12:  // the host sends an L2CAP frame
            let payload = [UInt8](repeating: 0xAB, count: Int(input.uint16() % 600))
            let frame = littleEndian(UInt16(payload.count)) + [0x04, 0x00] + payload
            try check(driver.sendL2CAP(frame, handle: input.pick(HCIDriverFuzzDriver.handles), at: now), event: nil)
            return
        case 13:
            now += HostTime(input.byte()) * 200_000
            // A command past its deadline frees a credit (the controller will not answer it).
            if let deadline = driver.nextDeadline, deadline <= now { commandAllowance = max(commandAllowance, 1) }
            try check(driver.timerFired(at: now), event: nil)
            return
        case 14:
            commandAllowance = 1
            sentOpcodes = []
            try check(driver.start(at: now), event: nil, reset: true)
            return
        default:
            event = [0x0E, 3, 1, 0x00, 0x00]  // a NOP Command Complete: one credit
        }
        guard let event, let packet = try? H4.Packet(decoding: [0x04] + event) else { return }
        try check(driver.receive(packet, at: now), event: packet)
    }

    /// Applies the model of what `packet` does, then checks the outputs against it.
    mutating func check(_ outputs: [HCIDriverOutput], event packet: H4.Packet?, reset: Bool = false) throws(StatefulFuzzViolation) {
        var decoded: HCI.Event?
        if case let .event(eventPacket)? = packet { decoded = try? HCI.Event(decoding: eventPacket) }
        switch decoded {
        case let .commandComplete(complete)?:
            commandAllowance = Int(complete.numHCICommandPackets)
            if let index = sentOpcodes.firstIndex(of: complete.opcode.rawValue), complete.opcode.rawValue != 0 { sentOpcodes.remove(at: index) }
        case let .commandStatus(status)?:
            commandAllowance = Int(status.numHCICommandPackets)
            if status.status != .success, let index = sentOpcodes.firstIndex(of: status.opcode.rawValue) { sentOpcodes.remove(at: index) }
        case let .numberOfCompletedPackets(completed)?:
            for entry in completed.entries {
                inFlight[entry.connectionHandle] = max(0, inFlight[entry.connectionHandle, default: 0] - Int(entry.numCompletedPackets))
            }
        case .hardwareError?:
            commandAllowance = 1
            sentOpcodes = []
        default:
            break
        }
        var lost: [UInt16] = []
        for output in outputs {
            switch output {
            case let .send(.command(command)):
                commandAllowance -= 1
                if commandAllowance < 0 { throw fail("command \(command.opcode) sent without a command credit") }
                sentOpcodes.append(command.opcode.rawValue)
            case let .send(.acl(fragment)):
                guard let info = driver.controller else { throw fail("ACL data sent before start-up finished") }
                if fragment.data.count > info.leACLDataPacketLength { throw fail("a \(fragment.data.count)-octet fragment exceeds the buffer length \(info.leACLDataPacketLength)") }
                if !connected.contains(fragment.connectionHandle) { throw fail("ACL data sent on handle \(fragment.connectionHandle), which is not connected") }
                inFlight[fragment.connectionHandle, default: 0] += 1
                let total = inFlight.values.reduce(0, +)
                if total > info.totalNumLEACLDataPackets { throw fail("\(total) fragments in flight, \(info.totalNumLEACLDataPackets) buffers") }
            case .send:
                throw fail("the host sent a packet that is neither a command nor ACL data: \(output)")
            case let .commandCompleted(token, _):
                if submitted.remove(token.rawValue) == nil { throw fail("token \(token) completed twice or was never submitted") }
            case let .l2capFrame(handle, frame):
                if !connected.contains(handle) { throw fail("a frame was delivered on handle \(handle), which is not connected") }
                if frame.count > HCIDriverFuzzDriver.maximumFrame { throw fail("a \(frame.count)-octet frame exceeds the maximum") }
                if frame.count < 4 || Int(frame[0]) | Int(frame[1]) << 8 != frame.count - 4 { throw fail("a delivered frame disagrees with its length: \(frame.prefix(8))") }
            case let .linkLost(handle, _):
                if connected.remove(handle) == nil { throw fail("link \(handle) was lost twice or was never up") }
                inFlight[handle] = nil
                lost.append(handle)
            case let .event(event):
                if case let .leMeta(.connectionComplete(done)) = event, done.status == .success, driver.isReady {
                    // A handle reused without a disconnection starts clean.
                    connected.insert(done.connectionHandle)
                    linksUp += 1
                    inFlight[done.connectionHandle] = nil
                }
            case .ready, .failed:
                break
            }
        }
        if reset || decoded.map({ if case .hardwareError = $0 { true } else { false } }) == true {
            if !connected.isEmpty { throw fail("links \(connected) survived a reset") }
            inFlight = [:]
        }
        for handle in lost where driver.queuedACLFragments(handle: handle) != 0 || driver.uncompletedACLFragments(handle: handle) != 0 {
            throw fail("fragments of lost link \(handle) were left behind")
        }
        if Set(driver.connectionHandles) != connected { throw fail("the driver's links \(driver.connectionHandles) are not the ones it reported \(connected.sorted())") }
    }
}
