import BLEController
import BLEWire

/// The `controller` stateful fuzz target (docs/fuzzing.md): our virtual ``Controller``
/// facing arbitrary HCI commands and ACL data from its host, and an air where an honest peer
/// (a second ``Controller``) advertises, connects and sends data while a forger injects any
/// advertising or data channel PDU (LL control PDUs included) into the open receiver. After
/// each step:
///
/// - every command gets exactly one Command Complete or Command Status (Core 5.4, Vol 4,
///   Part E, §4.4), in answer to that command, with a status the specification lists;
///   Host Number Of Completed Packets normally gets none (§7.3.40);
/// - no event is larger than the HCI maximum of 255 parameter octets (§5.4.4);
/// - ACL flow control: Number Of Completed Packets never reports more packets of a handle
///   than the host sent on it and were not yet reported (§4.1.1, §7.7.19);
/// - connection handles consistent: no event names a handle that was never created or was
///   already disconnected, and no connection completes on a handle in use;
/// - nothing held after a disconnection or a Reset: the handle is gone from the controller;
/// - the world always advances: no deadline of either controller stays due.
struct ControllerFuzzDriver {
    /// A transmission on the air: who sent it (−1 for the forger).
    struct Sent {
        var device: Int
        var transmission: RadioTransmission
    }

    static let addresses: [UInt64] = [0xC0_11_22_33_44_55, 0xC0_66_77_88_99_AA]
    static let hostNumberOfCompletedPackets: UInt16 = 0x0C35

    var controllers: [Controller]
    /// Each device's receiver windows, last few, with the time each was set.
    var windows: [[(at: Microseconds, window: ReceiverWindow?)]] = [[], []]
    /// How many windows the device under test has opened so far.
    var windowsOpened = 0
    var inFlight: [Sent] = []
    var now: Microseconds = 0
    var step = 0
    /// Handles the device under test reported connected and not disconnected.
    var live: Set<UInt16> = []
    /// Handles the peer reported connected.
    var peerLive: Set<UInt16> = []
    /// Host ACL packets sent on each live handle and not reported completed.
    var outstanding: [UInt16: Int] = [:]
    /// The command being handed to the device under test, while it is.
    var commandInHand: UInt16?
    var answersToCommand = 0
    /// Connections the device under test completed: how deep the input reached.
    var connectionsMade = 0

    init() {
        controllers = ControllerFuzzDriver.addresses.enumerated().map { index, address in
            Controller(configuration: ControllerConfiguration(publicAddress: BluetoothAddress(address), seed: UInt64(index + 1)))
        }
    }

    /// Runs one input; throws the first broken invariant.
    /// - Returns: how many connections the device under test completed.
    @discardableResult
    static func run(_ octets: [UInt8]) throws(StatefulFuzzViolation) -> Int {
        var input = StatefulFuzzInput(octets)
        var fuzz = ControllerFuzzDriver()
        // Both hosts start as every LE host does: all events unmasked.
        for device in 0 ..< 2 {
            try fuzz.command(device, 0x0C01, [UInt8](repeating: 0xFF, count: 8))
            try fuzz.command(device, 0x2001, [UInt8](repeating: 0xFF, count: 8))
        }
        while !input.isAtEnd, fuzz.step < 160 {
            try fuzz.perform(&input)
            fuzz.step += 1
        }
        return fuzz.connectionsMade
    }

    func fail(_ message: String) -> StatefulFuzzViolation {
        StatefulFuzzViolation(step: step, message: message)
    }

    /// A handle from the input: a live one, or one that never existed.
    mutating func pickHandle(_ input: inout StatefulFuzzInput, peer: Bool = false) -> UInt16 {
        let known = (peer ? peerLive : live).sorted()
        let pick = Int(input.byte())
        return pick < 200 && !known.isEmpty ? known[pick % known.count] : [0x0000, 0x0001, 0x0EFF, 0x0040][pick % 4]
    }

    /// Reads one operation from `input`, applies it and checks the invariants.
    mutating func perform(_ input: inout StatefulFuzzInput) throws(StatefulFuzzViolation) {
        switch input.byte() % 16 {
        case 0 ... 3:  // the host sends a command, plausible or mangled
            let (opcode, plausible) = plausibleCommand(&input)
            var parameters = plausible
            let mangle = input.byte()
            if mangle & 0xC0 == 0xC0, !parameters.isEmpty { parameters[Int(mangle) % parameters.count] ^= input.byte() }
            if mangle & 0xF0 == 0x30 { parameters = Array(parameters.prefix(Int(mangle & 0x0F))) }
            try command(0, opcode, parameters)
        case 4:  // any command at all, masks excepted (a host that masks out its own events cannot follow its links)
            let opcode = input.uint16()
            guard ![0x0C01, 0x2001, 0x0C63].contains(opcode) else { return }
            try command(0, opcode, input.chunk(limit: 64))
        case 5, 6:  // ACL data from the host
            let handle = pickHandle(&input)
            let data = input.chunk(limit: 255)
            let packet = HCI.ACLPacket(connectionHandle: handle, packetBoundary: input.byte() & 1 == 0 ? .firstNonAutomaticallyFlushable : .continuing, data: data[...])
            if live.contains(handle) { outstanding[handle, default: 0] += 1 }
            try feed(0, .hci(.acl(packet)))
        case 7:  // the peer advertises, connectable
            try command(1, 0x2006, [0x20, 0x00, 0x20, 0x00, 0x00, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0x07, 0x00])
            try command(1, 0x200A, [0x01])
        case 8:  // the peer connects to us
            try command(1, 0x200D, ControllerFuzzDriver.createConnection(to: ControllerFuzzDriver.addresses[0], interval: input.byte()))
        case 9:  // the peer sends data or disconnects
            let handle = pickHandle(&input, peer: true)
            if input.byte() & 3 == 0 {
                try command(1, 0x0406, littleEndian16(handle) + [0x13])
            } else {
                let payload = input.chunk(limit: 60)
                let frame = littleEndian16(UInt16(payload.count)) + [0x04, 0x00] + payload
                try feed(1, .hci(.acl(HCI.ACLPacket(connectionHandle: handle, packetBoundary: .firstNonAutomaticallyFlushable, data: frame[...]))))
            }
        case 10, 11:  // a forger puts any PDU into our receiver's window
            try forge(&input)
        default:  // time passes, up to 0.5 s
            try run(until: now + Microseconds(input.byte()) * 2_000 + 1)
        }
    }

    /// LE Create Connection parameters to a public address, 7.5 ms–320 ms intervals.
    static func createConnection(to address: UInt64, interval: UInt8) -> [UInt8] {
        let connectionInterval = UInt16(6 + interval % 64)
        let peer = (0 ..< 6).map { UInt8(truncatingIfNeeded: address >> (8 * $0)) }
        return littleEndian16(0x0060) + littleEndian16(0x0060) + [0x00, 0x00] + peer + [0x00]
            + littleEndian16(connectionInterval) + littleEndian16(connectionInterval) + littleEndian16(0) + littleEndian16(200)
            + littleEndian16(0) + littleEndian16(0)
    }

    /// A command the controller supports with plausible parameters from the input.
    mutating func plausibleCommand(_ input: inout StatefulFuzzInput) -> (UInt16, [UInt8]) {
        let handle = littleEndian16(pickHandle(&input))
        switch input.byte() % 24 {
        case 0: return (0x0C03, [])  // Reset
        case 1: return (0x2006, [0x20, 0x00, 0x40, 0x00, input.byte() % 5, 0x00, 0x00, 0x55, 0x44, 0x33, 0x22, 0x11, 0xC0, 0x07, input.byte() % 4])
        case 2: return (0x2008, [UInt8](repeating: input.byte(), count: 32))
        case 3: return (0x200A, [input.byte() & 1])
        case 4: return (0x200B, [input.byte() & 1, 0x10, 0x00, 0x10, 0x00, 0x00, input.byte() % 4])
        case 5: return (0x200C, [input.byte() & 1, input.byte() & 1])
        case 6: return (0x200D, ControllerFuzzDriver.createConnection(to: ControllerFuzzDriver.addresses[1], interval: input.byte()))
        case 7: return (0x200E, [])  // LE Create Connection Cancel
        case 8: return (0x0406, handle + [input.pick([0x13, 0x05, 0x16, 0x00])])  // Disconnect
        case 9: return (0x2013, handle + littleEndian16(UInt16(6 + input.byte() % 40)) + littleEndian16(60) + littleEndian16(UInt16(input.byte() % 4))
                        + littleEndian16(300) + [0, 0, 0, 0])  // LE Connection Update
        case 10: return (0x2016, handle)  // LE Read Remote Features
        case 11: return (0x041D, handle)  // Read Remote Version Information
        case 12: return (0x2019, handle + [UInt8](repeating: input.byte(), count: 26))  // LE Enable Encryption
        case 13: return input.byte() & 1 == 0 ? (0x201A, handle + [UInt8](repeating: 0x42, count: 16)) : (0x201B, handle)  // LTK reply
        case 14: return (0x2022, handle + littleEndian16(27 + UInt16(input.byte() % 225)) + littleEndian16(2120))  // LE Set Data Length
        case 15: return (0x2032, handle + [input.byte() % 4, 0x03, 0x03, 0x00, 0x00])  // LE Set PHY
        case 16: return (input.pick([0x1405, 0x2015, 0x2030, 0x0C2D, 0x0C7B]), handle + (input.byte() & 1 == 0 ? [] : [0x00]))  // reads on a handle
        case 17: return (0x2014, [input.byte(), 0xFF, 0xFF, 0xFF, 0x1F])  // LE Set Host Channel Classification
        case 18: return (input.pick([0x1009, 0x2002, 0x1002, 0x1001, 0x2018, 0x2003, 0x200F, 0x202F, 0x1005]), [])  // informational
        case 19: return (0x0C35, [0x01] + handle + littleEndian16(UInt16(input.byte() % 4)))  // Host Number Of Completed Packets
        case 20: return (input.pick([0x0C31, 0x0C33]), [input.byte() % 2, 0xFB, 0x00, 0x08, 0x00, 0x00])  // host flow control
        case 21: return (input.pick([0x2011, 0x2012, 0x2010]), [0x00, 0xAA, 0x99, 0x88, 0x77, 0x66, 0xC0])  // filter accept list
        case 22: return (0x2005, [0x01, 0x02, 0x03, 0x04, 0x05, 0xC0 | input.byte()])  // LE Set Random Address
        default: return (0x0C7C, handle + littleEndian16(UInt16(input.byte())))  // Write Authenticated Payload Timeout
        }
    }

    /// Sends a command from device `device`'s host and checks it is answered exactly once.
    mutating func command(_ device: Int, _ opcode: UInt16, _ parameters: [UInt8]) throws(StatefulFuzzViolation) {
        let packet = HCI.CommandPacket(opcode: HCI.Opcode(rawValue: opcode), parameters: parameters[...])
        guard device == 0 else { return try feed(1, .hci(.command(packet))) }
        commandInHand = opcode
        answersToCommand = 0
        try feed(0, .hci(.command(packet)))
        commandInHand = nil
        let allowed = opcode == ControllerFuzzDriver.hostNumberOfCompletedPackets ? 0 ... 1 : 1 ... 1
        if !allowed.contains(answersToCommand) { throw fail("command 0x\(String(opcode, radix: 16)) got \(answersToCommand) Command Complete/Status events") }
        if opcode == 0x0C03 {  // a Reset restores the default masks; the host unmasks its events again
            try command(0, 0x0C01, [UInt8](repeating: 0xFF, count: 8))
            try command(0, 0x2001, [UInt8](repeating: 0xFF, count: 8))
        }
    }

    /// The forger's PDU, sent into the device under test's open window (if any) from the input.
    mutating func forge(_ input: inout StatefulFuzzInput) throws(StatefulFuzzViolation) {
        // Into the window open now, or the next one within 200 ms.
        if windows[0].last?.window.map({ $0.closes.map { $0 >= now } ?? true }) != true {
            try run(until: now + 200_000, stopAtNewWindow: true)
        }
        guard let window = windows[0].last?.window else { return }
        let pdu: [UInt8]
        let ours = (0 ..< 6).map { UInt8(truncatingIfNeeded: ControllerFuzzDriver.addresses[0] >> (8 * $0)) }
        let forger: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x05, 0xC6]
        if window.accessAddress == RadioTransmission.advertisingAccessAddress {
            switch input.byte() % 4 {
            case 0: pdu = [0x03, 12] + forger + ours  // SCAN_REQ
            case 1:  // CONNECT_IND with LLData from the input
                var llData: [UInt8] = [input.byte(), 0x5A, 0x3C, 0x71, 0x55, 0x55, 0x55, input.byte() % 4 + 1]  // AA, CRCInit, WinSize
                llData += littleEndian16(UInt16(input.byte() % 4))  // WinOffset
                llData += littleEndian16(UInt16(6 + input.byte() % 40))  // Interval
                llData += littleEndian16(UInt16(input.byte() % 3))  // Latency
                llData += littleEndian16(10 + UInt16(input.byte()))  // Timeout
                llData += [0xFF, 0xFF, 0xFF, 0xFF, input.byte() | 0x10, 0x05 + input.byte() % 12]  // ChM, Hop and SCA
                let header: [UInt8] = [0x05 | 0x40, 34]
                pdu = header + forger + ours + llData
            case 2: pdu = [0x00, 6 + 3] + forger + [0x02, 0x01, 0x06]  // ADV_IND
            default: pdu = input.chunk(limit: 45)
            }
        } else {
            let llid = input.byte() % 4
            var payload: [UInt8]
            if llid == 3 {
                payload = [input.byte() % 0x2A] + input.chunk(limit: 26)
            } else {
                payload = input.chunk(limit: 40)
            }
            if input.byte() & 0x0F == 0 { payload = input.chunk(limit: 255) }
            pdu = [llid | (input.byte() & 0x1C), UInt8(payload.count)] + payload
        }
        let transmission = RadioTransmission(channel: window.channel, phy: window.phy, accessAddress: window.accessAddress, pdu: pdu,
                                             start: max(now, window.opens) + Microseconds(input.byte() % 16), txPowerDBm: 0)
        inFlight.append(Sent(device: -1, transmission: transmission))
        try run(until: transmission.end)
    }

    /// Gives `input` to device `device` now and applies its outputs.
    mutating func feed(_ device: Int, _ input: ControllerInput) throws(StatefulFuzzViolation) {
        let outputs = controllers[device].handle(input, at: now)
        for output in outputs {
            switch output {
            case let .hci(packet) where device == 0:
                try check(packet)
            case let .hci(.event(packet)):
                guard let code = packet.parameters.first, packet.eventCode.rawValue == 0x3E, [0x01, 0x0A].contains(code),
                      packet.parameters.count >= 4 else { break }
                let handle = (UInt16(packet.parameters[packet.parameters.startIndex + 2]) | UInt16(packet.parameters[packet.parameters.startIndex + 3]) << 8) & 0x0FFF
                if packet.parameters[packet.parameters.startIndex + 1] == 0 { peerLive.insert(handle) }
            case .hci, .linkData, .advertisingReport:
                break
            case let .transmit(transmission):
                inFlight.append(Sent(device: device, transmission: transmission))
            case let .listen(window):
                windows[device].append((now, window))
                if device == 0 { windowsOpened += 1 }
            case .stopListening:
                windows[device].append((now, nil))
            }
            if windows[device].count > 8 { windows[device].removeFirst(windows[device].count - 8) }
        }
        if device == 0 { try checkState() }
    }

    /// Runs the air until `end`: deliveries and both controllers' timers, in time order; or,
    /// with `stopAtNewWindow`, until the device under test opens a receiver window.
    mutating func run(until end: Microseconds, stopAtNewWindow: Bool = false) throws(StatefulFuzzViolation) {
        let opened = windowsOpened
        var stalled = 0
        while true {
            let nextDelivery = inFlight.map(\.transmission.end).min()
            let nextTimer = controllers.compactMap(\.nextDeadline).min()
            guard let next = [nextDelivery, nextTimer].compactMap({ $0 }).min(), next <= end else { break }
            // A controller that keeps asking for the time it was just given never lets the world advance.
            stalled = next <= now ? stalled + 1 : 0
            if stalled > 1_000 { throw fail("the world does not advance at \(now) µs: a deadline stays due") }
            now = max(now, next)
            if let delivery = nextDelivery, delivery <= now {
                let due = inFlight.filter { $0.transmission.end <= now }
                inFlight.removeAll { $0.transmission.end <= now }
                for sent in due { try deliver(sent) }
            } else {
                for device in controllers.indices {
                    if let deadline = controllers[device].nextDeadline, deadline <= now { try feed(device, .timer) }
                }
            }
            if stopAtNewWindow, windowsOpened != opened, windows[0].last?.window != nil { return }
        }
        now = max(now, end)
    }

    /// Delivers `sent` to every other device whose window was open for its first bit.
    mutating func deliver(_ sent: Sent) throws(StatefulFuzzViolation) {
        let transmission = sent.transmission
        for device in controllers.indices where device != sent.device {
            guard let window = windows[device].last(where: { $0.at <= transmission.start })?.window,
                  window.channel == transmission.channel, window.accessAddress == transmission.accessAddress,
                  window.phy == transmission.phy, window.opens <= transmission.start,
                  window.closes.map({ transmission.start <= $0 }) ?? true
            else { continue }
            try feed(device, .radio(RadioReception(transmission: transmission, rssi: -50)))
        }
    }
}

/// The octets of `value`, little-endian.
func littleEndian16(_ value: UInt16) -> [UInt8] {
    [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
}
