import BLEHost
import BLEWire
import BLEWorld

/// What one run of the L2CAP send scenario measured.
public struct L2CAPThroughputResult: Sendable {
    /// SDUs the peripheral read.
    public var sdus: Int
    /// Octets in those SDUs.
    public var octets: Int
    /// Wall-clock seconds from the first send to the last SDU read by the receiver.
    public var wallSeconds: Double
    /// The world's simulated seconds over the same span.
    public var simulatedSeconds: Double
    /// The link the data crossed: PHY, data length, connection interval.
    public var phy: HCI.PHY
    /// The central's connMaxTxOctets.
    public var maxTxOctets: Int
    /// The connection interval in milliseconds.
    public var intervalMilliseconds: Double
}

/// Bumble-bench's L2CAP "send" scenario on two of our hosts (Core 5.4, Vol 3, Part A,
/// §3.4 and §10.1): the central opens an LE credit-based channel to the peripheral and
/// sends `count` SDUs of `size` octets as fast as credits allow; the peripheral reads them.
public struct L2CAPThroughput: Sendable {
    /// Octets in each SDU.
    public let size: Int
    /// How many SDUs the central sends.
    public let count: Int
    /// The credits each side announces for the channel.
    public let credits: UInt16
    /// The channel's LE_PSM, from the dynamic range (Vol 3, Part A, §4.22).
    public let psm: UInt16 = 0x0080

    /// A run of `count` SDUs of `size` octets on a channel with `credits` credits each way.
    public init(size: Int, count: Int, credits: UInt16) {
        self.size = size
        self.count = count
        self.credits = credits
    }

    /// Connects the two hosts at a 7.5 ms interval, moves to 2M PHY and 251-octet data
    /// PDUs when both controllers support them, then runs and times the scenario.
    public func run(in world: BenchWorld) async throws -> L2CAPThroughputResult {
        let peripheral = world.hosts[0], central = world.hosts[1]
        let peripheralInfo = try await peripheral.start()
        let centralInfo = try await central.start()
        let events = central.events
        let mtu = UInt16(max(size, 23))
        let incoming = await peripheral.listen(psm: psm, parameters: HostChannelParameters(mtu: mtu, mps: 247, initialCredits: credits))
        // 20 ms advertising: the connection comes within a few advertising events.
        try await peripheral.startAdvertising(GAPAdvertisingParameters(intervalMin: 32, intervalMax: 32))
        let interval = HCI.LEConnectionParameters(connectionIntervalMin: 6, connectionIntervalMax: 6, maxLatency: 0,
                                                  supervisionTimeout: 200)
        let link = try await central.connect(GAPConnectRequest(peer: world.addresses[0], parameters: interval, timeout: 30_000_000))
        let both = peripheralInfo.leFeatures.intersection(centralInfo.leFeatures)
        var phy = HCI.PHY.le1M
        if both.contains(.le2MPHY) {
            phy = try await central.setPHY(link.handle, tx: [.le2M], rx: [.le2M]).tx
        }
        var maxTxOctets = 27
        if both.contains(.leDataPacketLengthExtension) {
            try await central.setDataLength(link.handle, txOctets: 251, txTime: 2120)
            maxTxOctets = try await BenchLink.dataLengthChange(on: link.handle, in: events)
        }
        let channel = try await central.openChannel(psm: psm, on: link.handle, parameters: HostChannelParameters(
            mtu: mtu, mps: 247, initialCredits: credits))
        var accepted = incoming.makeAsyncIterator()
        guard let served = await accepted.next() else { throw BenchFailure("The peripheral's host closed before the channel opened.") }

        let size = self.size, count = self.count
        let payload = [UInt8]((0 ..< size).map { UInt8(truncatingIfNeeded: $0) })
        // The wall-clock edge: the bench measures what this machine's processor achieves.
        let clock = ContinuousClock()
        let simulatedStart = await world.runner.now
        let start = clock.now
        let sender = Task {
            for _ in 0 ..< count { try await central.send(payload, on: channel.id) }
        }
        var sdus = 0, octets = 0
        while sdus < count, let sdu = try await peripheral.receive(on: served.id) {
            sdus += 1
            octets += sdu.count
        }
        let elapsed = clock.now - start
        let simulatedEnd = await world.runner.now
        try await sender.value
        guard sdus == count else {
            throw BenchFailure("The channel closed after \(sdus) of \(count) SDUs; capture both hosts' traffic (ble bench --snoop DIR) to see why.")
        }
        await central.closeChannel(channel.id)
        return L2CAPThroughputResult(
            sdus: sdus, octets: octets,
            wallSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
            simulatedSeconds: Double(simulatedEnd - simulatedStart) / 1e6,
            phy: phy, maxTxOctets: maxTxOctets, intervalMilliseconds: 7.5)
    }
}
