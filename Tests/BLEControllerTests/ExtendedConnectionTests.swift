import BLEController
import BLEWire
import Testing

/// Connections from connectable extended advertising (Core 5.4, Vol 6, Part B, §2.3.3,
/// §4.4.2.8 and §4.5; Vol 4, Part E, §7.8.53 and §7.8.66): AUX_CONNECT_REQ answers the
/// AUX_ADV_IND T_IFS later on its channel and PHY, AUX_CONNECT_RSP answers it, and the
/// connection starts on that PHY with Channel Selection Algorithm #2.
@Suite("Connections over extended advertising")
struct ExtendedConnectionTests {
    /// Two claiming controllers; the peripheral advertises a connectable set on `secondary`
    /// (LE Coded on both channel kinds for Coded), the central initiates on LE 1M and Coded.
    static func connect(secondary: HCI.PHY) -> (TestAir, peripheral: Int, central: Int) {
        var air = TestAir()
        let peripheral = air.add(address: 0xA1, seed: 1, claimsExtendedAdvertising: true)
        let central = air.add(address: 0xB2, seed: 2, claimsExtendedAdvertising: true)
        for device in [peripheral, central] { air.command(device, HCI.LESetEventMask(leEventMask: TestAir.connectionTestEvents)) }
        air.startConnectableSet(peripheral, primaryPHY: secondary == .leCoded ? .leCoded : .le1M, secondaryPHY: secondary)
        air.command(central, TestAir.extendedCreateConnection(to: air.address(peripheral)))
        air.run(until: 2_000_000)
        return (air, peripheral, central)
    }

    static func radioPHY(_ phy: HCI.PHY) -> RadioPHY { RadioPHY(phy) }

    @Test("AUX_CONNECT_REQ starts T_IFS after the AUX_ADV_IND and AUX_CONNECT_RSP T_IFS after it, on the secondary channel and PHY",
          arguments: [HCI.PHY.le1M, .le2M, .leCoded])
    func exchangeTiming(secondary: HCI.PHY) throws {
        let (air, peripheral, central) = Self.connect(secondary: secondary)
        let phy = Self.radioPHY(secondary)
        let request = try #require(air.advertisingPDUs(from: central).first { $0.pdu.pduType == .connectInd })
        let response = try #require(air.advertisingPDUs(from: peripheral).first { $0.pdu.pduType == .auxConnectRsp })
        let auxiliary = try #require(air.advertisingPDUs(from: peripheral).last {
            $0.transmission.channel <= 36 && $0.pdu.pduType == .advExtInd && $0.transmission.end <= request.transmission.start
        })
        #expect(request.transmission.start == auxiliary.transmission.end + 150)
        #expect(response.transmission.start == request.transmission.end + 150)
        #expect(request.transmission.channel == auxiliary.transmission.channel && response.transmission.channel == auxiliary.transmission.channel)
        #expect(request.transmission.phy == phy && response.transmission.phy == phy)
        // Airtimes from §2.1 and §2.2: 36 and 16 PDU octets with preamble, access address and CRC.
        let expected: [HCI.PHY: (request: Microseconds, response: Microseconds)] = [
            .le1M: ((1 + 4 + 36 + 3) * 8, (1 + 4 + 16 + 3) * 8),
            .le2M: ((2 + 4 + 36 + 3) * 4, (2 + 4 + 16 + 3) * 4),
            .leCoded: (80 + 296 + ((36 + 3) * 8 + 3) * 8, 80 + 296 + ((16 + 3) * 8 + 3) * 8),
        ]
        #expect(request.transmission.duration == expected[secondary]?.request)
        #expect(response.transmission.duration == expected[secondary]?.response)
        // AUX_CONNECT_RSP: AdvA the advertiser, TargetA the initiator.
        guard case let .extended(_, bytes) = response.pdu.payload else {
            Issue.record("not an extended PDU")
            return
        }
        let payload = try LL.ExtendedAdvertisingPayload(
            decoding: bytes, txKind: .public, rxKind: .public)
        #expect(payload.advertiserAddress == air.address(peripheral) && payload.targetAddress == air.address(central))
        // The central's first packet opens the transmit window: 2.5 ms after the request, 3.75 ms on Coded.
        guard case let .connectInd(_, _, request0) = request.pdu.payload else {
            Issue.record("not a connect request")
            return
        }
        let first = try #require(air.log.first { $0.device == central && $0.transmission.accessAddress == request0.accessAddress })
        #expect(first.transmission.start == request.transmission.end + (secondary == .leCoded ? 3750 : 2500))
        #expect(first.transmission.phy.hciPHY == secondary)
    }

    @Test("The connection starts on the secondary PHY, with that PHY's parameters; LE Read PHY agrees on both sides",
          arguments: [HCI.PHY.le1M, .le2M, .leCoded])
    func connectsOnSecondaryPHY(secondary: HCI.PHY) throws {
        var (air, peripheral, central) = Self.connect(secondary: secondary)
        for device in [peripheral, central] {
            #expect(air.devices[device].controller.connectionHandles.count == 1, "the link survives its first 2 s")
            let phyRead = air.readPHY(device)
            let read = try #require(phyRead)
            #expect(read.tx == secondary && read.rx == secondary)
            let complete = try #require(air.leMetaEvents(device).compactMap { event -> HCI.LEEnhancedConnectionComplete? in
                if case let .enhancedConnectionComplete(done) = event { return done }
                return nil
            }.first)
            #expect(complete.connectionInterval == TestAir.connectionParameters(for: secondary).connectionIntervalMin)
        }
    }

    @Test("The advertiser's host gets Enhanced Connection Complete, Channel Selection Algorithm #2, then Advertising Set Terminated")
    func advertiserEvents() throws {
        let (air, peripheral, central) = Self.connect(secondary: .le2M)
        let handle = try #require(air.devices[peripheral].controller.connectionHandles.first)
        let events = air.leMetaEvents(peripheral).filter {
            switch $0 {
            case .enhancedConnectionComplete, .channelSelectionAlgorithm, .advertisingSetTerminated: true
            default: false
            }
        }
        guard events.count == 3, case let .enhancedConnectionComplete(complete) = events[0],
              case let .channelSelectionAlgorithm(algorithm) = events[1], case let .advertisingSetTerminated(terminated) = events[2]
        else {
            Issue.record("events: \(events)")
            return
        }
        #expect(complete.status == .success && complete.role == .peripheral && complete.peerAddress == air.address(central))
        #expect(algorithm == .init(connectionHandle: handle, channelSelectionAlgorithm: .algorithm2))
        #expect(terminated.status == .success && terminated.advertisingHandle == 0 && terminated.connectionHandle == handle)
        #expect(terminated.numCompletedExtendedAdvertisingEvents >= 1)
        #expect(!air.devices[peripheral].controller.isAdvertising)
    }

    @Test("The link hops with Channel Selection Algorithm #2 from the access address")
    func hopsWithAlgorithm2() throws {
        let (air, _, central) = Self.connect(secondary: .le1M)
        let request = try #require(air.advertisingPDUs(from: central).first { $0.pdu.pduType == .connectInd })
        guard case let .connectInd(_, _, data) = request.pdu.payload else {
            Issue.record("not a connect request")
            return
        }
        let interval = Microseconds(data.interval) * 1250
        let sent = air.log.filter { $0.device == central && $0.transmission.accessAddress == data.accessAddress }
        let anchor = try #require(sent.first?.transmission.start)
        // The central's first packet of each event starts at an anchor.
        let firstPackets = sent.filter { ($0.transmission.start - anchor) % interval == 0 }.prefix(6)
        let algorithm = ChannelSelectionAlgorithm2(accessAddress: data.accessAddress, channelMap: data.channelMap)
        #expect(firstPackets.count == 6)
        for packet in firstPackets {
            let counter = UInt16((packet.transmission.start - anchor) / interval)
            #expect(packet.transmission.channel == algorithm.channel(counter: counter))
        }
    }

    @Test("A directed connectable set is answered only by its target")
    func directed() {
        var air = TestAir()
        let peripheral = air.add(address: 0xA1, seed: 1, claimsExtendedAdvertising: true)
        let stranger = air.add(address: 0xC3, seed: 3, claimsExtendedAdvertising: true)
        let central = air.add(address: 0xB2, seed: 2, claimsExtendedAdvertising: true)
        air.startConnectableSet(peripheral, target: air.address(central), data: [])
        air.command(stranger, TestAir.extendedCreateConnection(to: air.address(peripheral)))
        air.run(until: 500_000)
        #expect(air.devices[stranger].controller.connectionHandles.isEmpty)
        #expect(air.advertisingPDUs(from: stranger).allSatisfy { $0.pdu.pduType != .connectInd })
        air.command(stranger, HCI.LECreateConnectionCancel())
        air.command(central, TestAir.extendedCreateConnection(to: air.address(peripheral)))
        air.run(until: 1_500_000)
        #expect(air.devices[central].controller.connectionHandles.count == 1)
    }

    @Test("Legacy connectable advertising still connects when initiating on LE 1M and LE Coded")
    func legacyWithCodedInitiating() throws {
        var air = TestAir()
        let peripheral = air.add(address: 0xA1, seed: 1)
        let central = air.add(address: 0xB2, seed: 2, claimsExtendedAdvertising: true)
        air.startAdvertising(peripheral)
        air.command(central, TestAir.extendedCreateConnection(to: air.address(peripheral)))
        air.run(until: 1_500_000)
        #expect(air.connectionCompletes(peripheral).map(\.peerAddress) == [air.address(central)])
        #expect(air.readPHY(central).map { [$0.tx, $0.rx] } == [.le1M, .le1M])
    }
}
