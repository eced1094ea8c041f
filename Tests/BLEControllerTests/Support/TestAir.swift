import BLEController
import BLEWire
import Testing

/// A small air for tests: real controllers on every end, a virtual clock, and delivery of
/// each transmission (at its end) to every other device whose receiver window was open on
/// the same channel and access address when the transmission began. No path loss: every
/// reception has the same RSSI.
struct TestAir {
    struct Device {
        var controller: Controller
        /// Receiver windows in the order they were set: (time set, window or nil for closed).
        var windows: [(at: Microseconds, window: ReceiverWindow?)] = []
        /// Events the host received, with their time.
        var events: [(at: Microseconds, event: HCI.Event)] = []
        /// ACL packets the host received.
        var acl: [HCI.ACLPacket] = []
    }

    /// A transmission on the air and who sent it.
    struct Sent {
        var device: Int
        var transmission: RadioTransmission
    }

    static let rssi: Int8 = -60

    var devices: [Device] = []
    var now: Microseconds = 0
    /// Every transmission so far, in the order sent.
    var log: [Sent] = []
    /// Transmissions for which this returns `true` reach nobody (a lost packet).
    var loses: @Sendable (RadioTransmission) -> Bool = { _ in false }
    private var inFlight: [Sent] = []

    /// Adds a controller with public address `address` and returns its index.
    @discardableResult
    mutating func add(
        address: UInt64, seed: UInt64, claimsExtendedAdvertising: Bool = false, claimsChannelSelectionAlgorithm2: Bool = false
    ) -> Int {
        let configuration = ControllerConfiguration(
            publicAddress: BluetoothAddress(address), seed: seed, claimsExtendedAdvertising: claimsExtendedAdvertising,
            claimsChannelSelectionAlgorithm2: claimsChannelSelectionAlgorithm2)
        devices.append(Device(controller: Controller(configuration: configuration)))
        enableLEMetaEvents(devices.count - 1)
        return devices.count - 1
    }

    /// The page 1 mask after reset leaves LE Meta out (Core 5.4, Vol 4, Part E, §7.3.1), so a
    /// host that wants LE events sets it, as every LE host does at start-up.
    mutating func enableLEMetaEvents(_ index: Int) {
        command(index, HCI.SetEventMask(eventMask: HCI.EventMask.defaultAfterReset.union(.leMeta)))
        devices[index].events.removeAll()
    }

    /// The public address of device `index`.
    func address(_ index: Int) -> BluetoothAddress { devices[index].controller.configuration.publicAddress }

    /// Sends a typed command from device `index`'s host now; returns the events it produced.
    @discardableResult
    mutating func command<Command: HCICommand>(_ index: Int, _ command: Command) -> [HCI.Event] {
        let packet = HCI.CommandPacket(opcode: Command.opcode, parameters: command.encoded()[...])
        return raw(index, packet)
    }

    /// Sends a raw command packet from device `index`'s host now.
    @discardableResult
    mutating func raw(_ index: Int, _ packet: HCI.CommandPacket) -> [HCI.Event] {
        let before = devices[index].events.count
        input(index, .hci(.command(packet)))
        return devices[index].events[before...].map(\.event)
    }

    /// Gives an input to device `index` at the current time and applies its outputs.
    mutating func input(_ index: Int, _ input: ControllerInput) {
        let outputs = devices[index].controller.handle(input, at: now)
        apply(outputs, from: index)
    }

    private mutating func apply(_ outputs: [ControllerOutput], from index: Int) {
        for output in outputs {
            switch output {
            case let .hci(.event(packet)):
                if let event = try? HCI.Event(decoding: packet) { devices[index].events.append((now, event)) }
            case let .hci(.acl(packet)):
                devices[index].acl.append(packet)
            case .hci, .linkData, .advertisingReport:
                break
            case let .transmit(transmission):
                #expect(transmission.start >= now, "a transmission must not start in the past")
                let sent = Sent(device: index, transmission: transmission)
                log.append(sent)
                inFlight.append(sent)
            case let .listen(window):
                devices[index].windows.append((now, window))
            case .stopListening:
                devices[index].windows.append((now, nil))
            }
        }
    }

    /// The window device `index` had open at `time`.
    private func window(of index: Int, at time: Microseconds) -> ReceiverWindow? {
        devices[index].windows.last(where: { $0.at <= time })?.window
    }

    /// Runs the world until `end`.
    mutating func run(until end: Microseconds) {
        var stalled = 0
        while true {
            let nextDelivery = inFlight.map(\.transmission.end).min()
            let nextTimer = devices.compactMap(\.controller.nextDeadline).min()
            guard let next = [nextDelivery, nextTimer].compactMap({ $0 }).min(), next <= end else { break }
            stalled = next <= now ? stalled + 1 : 0
            if stalled > 10_000 {
                Issue.record("the world does not advance at \(now)")
                return
            }
            now = max(now, next)
            if let delivery = nextDelivery, delivery <= now {
                let due = inFlight.filter { $0.transmission.end <= now }
                inFlight.removeAll { $0.transmission.end <= now }
                for sent in due { deliver(sent) }
                continue
            }
            for index in devices.indices {
                if let deadline = devices[index].controller.nextDeadline, deadline <= now {
                    input(index, .timer)
                }
            }
        }
        now = max(now, end)
    }

    private mutating func deliver(_ sent: Sent) {
        let transmission = sent.transmission
        if loses(transmission) { return }
        for index in devices.indices where index != sent.device {
            guard let window = window(of: index, at: transmission.start),
                  window.channel == transmission.channel, window.accessAddress == transmission.accessAddress,
                  window.phy.decodes(transmission.phy), window.opens <= transmission.start,
                  window.closes.map({ transmission.start <= $0 }) ?? true
            else { continue }
            input(index, .radio(RadioReception(transmission: transmission, rssi: TestAir.rssi)))
        }
    }

    /// The transmissions of device `index`, decoded as advertising-channel PDUs.
    func advertisingPDUs(from index: Int) -> [(transmission: RadioTransmission, pdu: LL.AdvertisingPDU)] {
        log.filter { $0.device == index }.compactMap { sent in
            (try? LL.AdvertisingPDU(decoding: sent.transmission.pdu)).map { (sent.transmission, $0) }
        }
    }

    /// The LE Advertising Report entries device `index`'s host received.
    func reports(_ index: Int) -> [HCI.LEAdvertisingReport.Report] {
        devices[index].events.flatMap { item -> [HCI.LEAdvertisingReport.Report] in
            if case let .leMeta(.advertisingReport(event)) = item.event { return event.reports }
            return []
        }
    }

    /// The LE Connection Complete events device `index`'s host received.
    func connectionCompletes(_ index: Int) -> [HCI.LEConnectionComplete] {
        devices[index].events.compactMap { item in
            if case let .leMeta(.connectionComplete(event)) = item.event { return event }
            return nil
        }
    }
}

extension HCI.Event {
    /// The status and opcode of a Command Complete (status = first return octet) or Command
    /// Status event, for assertions.
    var commandResult: (opcode: HCI.Opcode, status: UInt8?)? {
        switch self {
        case let .commandComplete(event): return (event.opcode, event.returnParameters.first)
        case let .commandStatus(event): return (event.opcode, event.status.rawValue)
        default: return nil
        }
    }
}
