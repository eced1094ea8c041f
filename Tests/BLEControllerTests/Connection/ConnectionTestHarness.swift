import BLEController
import BLEWire

/// Two Link Layers, a central and a peripheral, on a tiny deterministic air: a packet
/// reaches the other side when that side's receiver window is open on its channel, a PHY
/// that decodes it and its access address at the packet's first bit; it is delivered when its last bit
/// arrives, at a fixed RSSI. The loop always runs the earliest of the pending deliveries,
/// packet starts and the two connections' deadlines.
struct ConnectionPair {
    /// One packet that went on the air, and from which side.
    struct Sent {
        var from: HCI.Role
        var transmission: RadioTransmission
        var delivered: Bool
        /// The decoded header and payload (as on the air, encrypted or not).
        var pdu: LL.DataChannelPDU? { try? LL.DataChannelPDU(decoding: transmission.pdu) }
    }

    /// One output of a connection, with when it happened.
    struct Logged {
        var at: Microseconds
        var output: ConnectionOutput
    }

    var central: LinkLayerConnection
    var peripheral: LinkLayerConnection
    var now: Microseconds = 0
    var windows: [HCI.Role: ReceiverWindow] = [:]
    var starting: [(from: HCI.Role, index: Int)] = []
    var deliveries: [(at: Microseconds, to: HCI.Role, reception: RadioReception, index: Int)] = []
    var sent: [Sent] = []
    var log: [HCI.Role: [Logged]] = [.central: [], .peripheral: []]
    /// Drops a packet on the air when it returns `true` (its index in `sent`, and `sent`).
    var drop: (Int, [Sent]) -> Bool = { _, _ in false }
    /// Sees each delivery just before the receiving side gets it, with that side's state.
    var beforeDelivery: (HCI.Role, RadioReception, Microseconds, LinkLayerConnection) -> Void = { _, _, _, _ in }
    /// Rewrites a packet before it goes on the air.
    var rewrite: (Sent) -> RadioTransmission? = { _ in nil }
    /// A side that no longer transmits.
    var silenced: HCI.Role?
    /// Called with each side's outputs as they happen; returns inputs to feed back.
    var react: (HCI.Role, ConnectionOutput, Microseconds) -> [ConnectionInput] = { _, _, _ in [] }
    let rssi: Int8 = -42

    static let centralAddress = BluetoothAddress(0xC0_11_22_33_44_55)
    static let peripheralAddress = BluetoothAddress(0xC0_66_77_88_99_AA)
    static let connectIndicationEnd: Microseconds = 10_000

    /// A connection made by a CONNECT_IND that ended at 10 ms; with `codedPHY` both sides'
    /// controllers have the LE Coded PHY.
    init(
        interval: UInt16 = 6, latency: UInt16 = 0, timeout: UInt16 = 100, windowSize: UInt8 = 1, windowOffset: UInt16 = 0,
        channelMap: UInt64 = 0x1F_FFFF_FFFF, hopIncrement: UInt8 = 7,
        centralBufferSize: Int = 251, peripheralBufferSize: Int = 251, codedPHY: Bool = false
    ) {
        let request = LL.ConnectionRequestData(
            accessAddress: 0x5065_A1B2, crcInit: 0x12_3456, windowSize: windowSize, windowOffset: windowOffset,
            interval: interval, latency: latency, timeout: timeout, channelMap: channelMap,
            hopIncrement: hopIncrement, sleepClockAccuracy: 5)
        central = LinkLayerConnection(
            handle: 0x0040, role: .central, request: request, connectIndicationEnd: Self.connectIndicationEnd,
            localAddress: Self.centralAddress, peerAddress: Self.peripheralAddress,
            configuration: ControllerConfiguration(publicAddress: Self.centralAddress, seed: 1, leACLBufferSize: centralBufferSize,
                                                   claimsExtendedAdvertising: codedPHY),
            seed: 11)
        peripheral = LinkLayerConnection(
            handle: 0x0041, role: .peripheral, request: request, connectIndicationEnd: Self.connectIndicationEnd,
            localAddress: Self.peripheralAddress, peerAddress: Self.centralAddress,
            configuration: ControllerConfiguration(publicAddress: Self.peripheralAddress, seed: 2, leACLBufferSize: peripheralBufferSize,
                                                   claimsExtendedAdvertising: codedPHY),
            seed: 22)
        now = Self.connectIndicationEnd
        // Both sides start right after CONNECT_IND: the peripheral opens its first window.
        feed(.peripheral, .timer)
        feed(.central, .timer)
    }

    /// Gives `input` to one side now and carries out its outputs.
    mutating func feed(_ role: HCI.Role, _ input: ConnectionInput) {
        let outputs: [ConnectionOutput]
        if role == .central {
            outputs = central.handle(input, at: now)
        } else {
            outputs = peripheral.handle(input, at: now)
        }
        for output in outputs { carryOut(output, from: role) }
    }

    private mutating func carryOut(_ output: ConnectionOutput, from role: HCI.Role) {
        log[role, default: []].append(Logged(at: now, output: output))
        if case let .radio(action) = output {
            switch action {
            case var .transmit(transmission):
                guard silenced != role else { return }
                let proposal = Sent(from: role, transmission: transmission, delivered: false)
                if let replaced = rewrite(proposal) { transmission = replaced }
                sent.append(Sent(from: role, transmission: transmission, delivered: false))
                starting.append((role, sent.count - 1))
            case let .listen(window): windows[role] = window
            case .stopListening: windows[role] = nil
            case .hci, .linkData, .advertisingReport: break
            }
        }
        for input in react(role, output, now) { feed(role, input) }
    }

    /// Runs the air and both connections until `end` (or until both are closed).
    mutating func run(until end: Microseconds) {
        var steps = 0
        while steps < 5_000_000 {
            steps += 1
            let deliveryTime = deliveries.map(\.at).min()
            let startTime = starting.map { sent[$0.index].transmission.start }.min()
            let centralTime = central.nextDeadline
            let peripheralTime = peripheral.nextDeadline
            let candidates = [deliveryTime, startTime, centralTime, peripheralTime].compactMap { $0 }
            guard let earliest = candidates.min(), earliest <= end else { break }
            now = max(now, earliest)
            if let deliveryTime, deliveryTime <= now, let position = deliveries.firstIndex(where: { $0.at == deliveryTime }) {
                let delivery = deliveries.remove(at: position)
                sent[delivery.index].delivered = true
                beforeDelivery(delivery.to, delivery.reception, now, delivery.to == .central ? central : peripheral)
                feed(delivery.to, .radio(delivery.reception))
            } else if let startTime, startTime <= now, let position = starting.firstIndex(where: { sent[$0.index].transmission.start == startTime }) {
                let (from, index) = starting.remove(at: position)
                let to: HCI.Role = from == .central ? .peripheral : .central
                let packet = sent[index]
                let air = packet.transmission
                if let window = windows[to], window.channel == air.channel, window.phy.decodes(air.phy),
                   window.accessAddress == air.accessAddress, air.start >= window.opens,
                   window.closes.map({ air.start <= $0 }) ?? true, !drop(index, sent) {
                    deliveries.append((air.end, to, RadioReception(transmission: air, rssi: rssi), index))
                }
            } else if let centralTime, centralTime <= now {
                feed(.central, .timer)
            } else if let peripheralTime, peripheralTime <= now {
                feed(.peripheral, .timer)
            } else {
                break
            }
        }
    }

    /// Everything one side reported, in order.
    func outputs(_ role: HCI.Role) -> [Logged] { log[role] ?? [] }

    /// The HCI events one side sent its host.
    func events(_ role: HCI.Role) -> [HCI.Event] {
        outputs(role).compactMap { if case let .event(event) = $0.output { return event } else { return nil } }
    }

    /// The ACL packets one side gave its host.
    func received(_ role: HCI.Role) -> [HCI.ACLPacket] {
        outputs(role).compactMap { if case let .aclToHost(packet) = $0.output { return packet } else { return nil } }
    }

    /// The reassembled L2CAP octets one side gave its host.
    func receivedBytes(_ role: HCI.Role) -> [UInt8] { received(role).flatMap { Array($0.data) } }

    /// How many host packets one side reported complete.
    func completed(_ role: HCI.Role) -> Int {
        outputs(role).reduce(0) { total, logged in
            if case let .completedPackets(count) = logged.output { return total + count }
            return total
        }
    }

    /// Why a side closed, if it did.
    func closeReason(_ role: HCI.Role) -> HCI.StatusCode? {
        for logged in outputs(role) { if case let .closed(reason) = logged.output { return reason } }
        return nil
    }

    /// Sends `bytes` from one side's host as ACL packets of at most `fragment` octets.
    mutating func sendFromHost(_ role: HCI.Role, _ bytes: [UInt8], fragment: Int = 251) {
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + fragment, bytes.count)
            let packet = HCI.ACLPacket(
                connectionHandle: role == .central ? 0x0040 : 0x0041,
                packetBoundary: offset == 0 ? .firstNonAutomaticallyFlushable : .continuing,
                data: bytes[offset ..< end])
            feed(role, .hostData(packet))
            offset = end
        }
    }
}

/// An L2CAP-like message of `count` octets with a recognisable pattern.
func patternBytes(_ count: Int, seed: UInt8) -> [UInt8] {
    (0 ..< count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ Int(seed)) }
}
