import BLEHost
import BLEWire

/// The link a GATT bench asks for: interval, PHY and data length.
public struct BenchLinkRequest: Sendable {
    /// connInterval in 1.25 ms units.
    public var intervalUnits: UInt16
    /// The PHY both directions are asked to use.
    public var phy: HCI.PHY
    /// connMaxTxOctets the sending side asks for.
    public var dataLength: Int
    /// Whether the bench's data goes from the peripheral (notifications) rather than from
    /// the central (writes): that side asks for the longer data PDUs.
    public var dataFromPeripheral: Bool

    /// A request for a link at `intervalUnits` × 1.25 ms on `phy` with `dataLength`-octet
    /// data PDUs in the direction the data goes.
    public init(intervalUnits: UInt16, phy: HCI.PHY, dataLength: Int, dataFromPeripheral: Bool) {
        self.intervalUnits = intervalUnits
        self.phy = phy
        self.dataLength = dataLength
        self.dataFromPeripheral = dataFromPeripheral
    }

    /// The connection interval in microseconds.
    public var intervalMicroseconds: Int { Int(intervalUnits) * 1250 }
}

/// The link two bench hosts made: the handle on each side and what the controllers agreed.
public struct BenchLink: Sendable {
    /// The connection handle on the central's side.
    public var centralHandle: UInt16
    /// The connection handle on the peripheral's side.
    public var peripheralHandle: UInt16
    /// The PHY the controllers moved to (LE 1M when they could not move).
    public var phy: HCI.PHY
    /// The peripheral's connMaxTxOctets (the direction notifications travel); 27 unless
    /// the data goes that way.
    public var peripheralTxOctets: Int
    /// The central's connMaxTxOctets (the direction writes travel); 27 unless the data
    /// goes that way.
    public var centralTxOctets: Int
    /// The connection interval in microseconds.
    public var intervalMicroseconds: Int

    /// The PHY as a figure prints it: "1M", "2M" or "coded".
    public var phyName: String { phy == .le2M ? "2M" : phy == .leCoded ? "coded" : "1M" }
    /// The connection interval in milliseconds.
    public var intervalMilliseconds: Double { Double(intervalMicroseconds) / 1000 }

    /// Starts both hosts of `world`, has the central connect to the advertising peripheral
    /// at the asked interval, then moves to the asked PHY (LE Set PHY, Vol 4, Part E,
    /// §7.8.49) and data length (LL_LENGTH_REQ through LE Set Data Length, §7.8.33) when
    /// both controllers support them.
    static func establish(in world: BenchWorld, _ request: BenchLinkRequest) async throws -> BenchLink {
        let peripheral = world.hosts[0], central = world.hosts[1]
        let peripheralInfo = try await peripheral.start()
        let centralInfo = try await central.start()
        let peripheralEvents = peripheral.events
        let centralEvents = central.events
        // 20 ms advertising: the connection comes within a few advertising events.
        try await peripheral.startAdvertising(GAPAdvertisingParameters(intervalMin: 32, intervalMax: 32))
        // Supervision timeout: 2 s, or six intervals when those are longer (§7.8.12 asks
        // for more than two), in 10 ms units.
        let timeout = UInt16(max(200, (request.intervalMicroseconds * 6 + 9_999) / 10_000))
        let parameters = HCI.LEConnectionParameters(connectionIntervalMin: request.intervalUnits, connectionIntervalMax: request.intervalUnits,
                                                    maxLatency: 0, supervisionTimeout: timeout)
        let link = try await central.connect(GAPConnectRequest(peer: world.addresses[0], parameters: parameters, timeout: 30_000_000))
        let peripheralHandle = try await connected(in: peripheralEvents)
        let both = peripheralInfo.leFeatures.intersection(centralInfo.leFeatures)
        var phy = HCI.PHY.le1M
        if request.phy == .le2M, both.contains(.le2MPHY) {
            phy = try await central.setPHY(link.handle, tx: [.le2M], rx: [.le2M]).tx
        }
        var centralTx = 27, peripheralTx = 27
        if request.dataLength > 27, both.contains(.leDataPacketLengthExtension) {
            // Only the side that carries the bench's data asks, and waits for its change.
            // Our controller starts every connection at 27 octets whatever LE Write
            // Suggested Default Data Length said, and a side asking after the peer's
            // LL_LENGTH_REQ/RSP already told it the peer's receive length gets the longer
            // PDUs at once but no LE Data Length Change event, so asking on both sides
            // would leave the second one waiting for an event that never comes.
            let octets = UInt16(request.dataLength)
            if request.dataFromPeripheral {
                try await peripheral.setDataLength(peripheralHandle, txOctets: octets, txTime: (octets + 14) * 8)
                peripheralTx = try await dataLengthChange(on: peripheralHandle, in: peripheralEvents, above: 27)
            } else {
                try await central.setDataLength(link.handle, txOctets: octets, txTime: (octets + 14) * 8)
                centralTx = try await dataLengthChange(on: link.handle, in: centralEvents, above: 27)
            }
        }
        return BenchLink(centralHandle: link.handle, peripheralHandle: peripheralHandle, phy: phy,
                         peripheralTxOctets: peripheralTx, centralTxOctets: centralTx,
                         intervalMicroseconds: request.intervalMicroseconds)
    }

    /// The handle of the first connection a host reports.
    private static func connected(in events: AsyncStream<GAPEvent>) async throws -> UInt16 {
        for await event in events {
            if case let .connected(link) = event { return link.handle }
        }
        throw BenchFailure("The peripheral's host closed before the connection came up.")
    }

    /// Waits for the LE Data Length Change of `handle` (Vol 4, Part E, §7.7.65.7) and
    /// returns the new connMaxTxOctets, skipping changes that leave it at `above` or less.
    static func dataLengthChange(on handle: UInt16, in events: AsyncStream<GAPEvent>, above floor: Int = 0) async throws -> Int {
        for await event in events {
            switch event {
            case let .dataLengthChanged(changed, lengths) where changed == handle && Int(lengths.maxTxOctets) > floor:
                return Int(lengths.maxTxOctets)
            case let .procedureFailed(.dataLengthUpdate(handle: failed), error) where failed == handle:
                throw BenchFailure("The controller refused longer data PDUs: \(error).")
            case let .disconnected(down, reason) where down == handle:
                throw BenchFailure("The link went down while setting the data length: \(reason).")
            default:
                continue
            }
        }
        throw BenchFailure("A host closed while setting the data length.")
    }
}
