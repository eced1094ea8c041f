import BLEController
import BLEWire
import Testing

extension ConnectionPair {
    /// The control PDUs one side put on the air (plaintext links only).
    func controlPDUs(from role: HCI.Role) -> [LL.ControlPDU] {
        sent.filter { $0.from == role }.compactMap(\.pdu).filter { $0.llid == .control }
            .compactMap { try? LL.ControlPDU(decoding: $0.payload) }
    }
}

@Suite("Link Layer connection: control procedures")
struct ConnectionProcedureTests {
    @Test("Connection update switches both sides to the new interval at the instant, at least six events on")
    func connectionUpdate() throws {
        var pair = ConnectionPair(interval: 6)
        pair.run(until: 50_000)
        let parameters = HCI.LEConnectionParameters(connectionIntervalMin: 12, connectionIntervalMax: 12, maxLatency: 0, supervisionTimeout: 200)
        pair.feed(.central, .command(.updateParameters(HCI.LEConnectionUpdate(connectionHandle: 0x40, connectionParameters: parameters))))
        pair.run(until: 400_000)
        #expect(pair.events(.central) == [.leMeta(.connectionUpdateComplete(.init(status: .success, connectionHandle: 0x40, connectionInterval: 12, peripheralLatency: 0, supervisionTimeout: 200)))])
        #expect(pair.events(.peripheral) == [.leMeta(.connectionUpdateComplete(.init(status: .success, connectionHandle: 0x41, connectionInterval: 12, peripheralLatency: 0, supervisionTimeout: 200)))])
        let anchors = pair.centralAnchors
        let indicationIndex = try #require(pair.sent.firstIndex {
            $0.from == .central && $0.pdu?.llid == .control && $0.pdu?.payload.first == 0x00
        })
        let sentInEvent = try #require(anchors.lastIndex { $0.start <= pair.sent[indicationIndex].transmission.start })
        guard case let .connectionUpdateIndication(update)? = pair.controlPDUs(from: .central).first else {
            Issue.record("no LL_CONNECTION_UPDATE_IND")
            return
        }
        let instant = Int(update.instant)
        #expect(instant - sentInEvent >= 6)
        #expect(update.interval == 12 && update.timeout == 200)
        for index in 1 ..< anchors.count {
            let gap = anchors[index].start - anchors[index - 1].start
            #expect(gap == (index <= instant ? 7500 : 15_000), "gap before event \(index)")
        }
        // The peripheral stays in step after the instant.
        #expect(pair.sent.last { $0.from == .peripheral }.map { $0.transmission.start > anchors[instant + 3].start } == true)
    }

    @Test("A peripheral's connection update request is answered 0x1A Unsupported Remote Feature")
    func peripheralUpdateRejected() {
        var pair = ConnectionPair()
        pair.run(until: 30_000)
        let parameters = HCI.LEConnectionParameters(connectionIntervalMin: 12, connectionIntervalMax: 12, maxLatency: 0, supervisionTimeout: 200)
        pair.feed(.peripheral, .command(.updateParameters(HCI.LEConnectionUpdate(connectionHandle: 0x41, connectionParameters: parameters))))
        #expect(pair.events(.peripheral) == [.leMeta(.connectionUpdateComplete(.init(status: .unsupportedRemoteFeature, connectionHandle: 0x41, connectionInterval: 6, peripheralLatency: 0, supervisionTimeout: 100)))])
    }

    @Test("Central terminates: local side reports 0x16, the peer the reason sent")
    func centralTerminates() {
        var pair = ConnectionPair()
        pair.run(until: 40_000)
        pair.feed(.central, .command(.disconnect(reason: .remoteUserTerminatedConnection)))
        pair.run(until: 200_000)
        #expect(pair.controlPDUs(from: .central).contains(.terminateIndication(errorCode: .remoteUserTerminatedConnection)))
        #expect(pair.closeReason(.central) == .connectionTerminatedByLocalHost)
        #expect(pair.closeReason(.peripheral) == .remoteUserTerminatedConnection)
        #expect(pair.events(.central) == [.disconnectionComplete(.init(status: .success, connectionHandle: 0x40, reason: .connectionTerminatedByLocalHost))])
        #expect(pair.events(.peripheral) == [.disconnectionComplete(.init(status: .success, connectionHandle: 0x41, reason: .remoteUserTerminatedConnection))])
        #expect(pair.central.isClosed && pair.peripheral.isClosed)
    }

    @Test("Peripheral terminates: local side reports 0x16, the peer the reason sent")
    func peripheralTerminates() {
        var pair = ConnectionPair()
        pair.run(until: 40_000)
        pair.feed(.peripheral, .command(.disconnect(reason: .remoteDeviceTerminatedConnectionPowerOff)))
        pair.run(until: 200_000)
        #expect(pair.closeReason(.peripheral) == .connectionTerminatedByLocalHost)
        #expect(pair.closeReason(.central) == .remoteDeviceTerminatedConnectionPowerOff)
        // Both left promptly, not by supervision timeout.
        let closedAt = pair.outputs(.peripheral).first { if case .closed = $0.output { true } else { false } }?.at ?? .max
        #expect(closedAt < 40_000 + 3 * 7500)
    }

    @Test("Feature exchange from either side ends in LE Read Remote Features Complete with the peer's features")
    func featureExchange() {
        var pair = ConnectionPair()
        pair.run(until: 30_000)
        pair.feed(.peripheral, .command(.readRemoteFeatures))
        pair.run(until: 100_000)
        pair.feed(.central, .command(.readRemoteFeatures))
        pair.run(until: 200_000)
        let expected = LinkLayerConnection.supportedFeatures
        #expect(pair.controlPDUs(from: .peripheral).contains(.peripheralFeatureRequest(featureSet: expected)))
        #expect(pair.events(.peripheral) == [.leMeta(.readRemoteFeaturesComplete(.init(status: .success, connectionHandle: 0x41, leFeatures: expected)))])
        #expect(pair.events(.central) == [.leMeta(.readRemoteFeaturesComplete(.init(status: .success, connectionHandle: 0x40, leFeatures: expected)))])
        #expect(expected & 0x01 != 0 && expected & 0x20 != 0 && expected & 0x100 != 0)
    }

    @Test("Version exchange: one LL_VERSION_IND each way, Read Remote Version Information Complete on both")
    func versionExchange() {
        var pair = ConnectionPair()
        pair.run(until: 30_000)
        pair.feed(.central, .command(.readRemoteVersion))
        pair.run(until: 100_000)
        pair.feed(.peripheral, .command(.readRemoteVersion))
        pair.feed(.central, .command(.readRemoteVersion))
        pair.run(until: 200_000)
        let version = LL.ControlPDU.versionIndication(.init(version: 0x0D, companyIdentifier: 0xFFFF, subversion: 1))
        #expect(pair.controlPDUs(from: .central).filter { $0 == version }.count == 1)
        #expect(pair.controlPDUs(from: .peripheral).filter { $0 == version }.count == 1)
        let central = HCI.Event.readRemoteVersionInformationComplete(.init(status: .success, connectionHandle: 0x40, version: 0x0D, companyIdentifier: 0xFFFF, subversion: 1))
        #expect(pair.events(.central) == [central, central])
        #expect(pair.events(.peripheral) == [.readRemoteVersionInformationComplete(.init(status: .success, connectionHandle: 0x41, version: 0x0D, companyIdentifier: 0xFFFF, subversion: 1))])
    }

    @Test("An unknown control opcode is answered with LL_UNKNOWN_RSP naming it")
    func unknownOpcode() {
        var pair = ConnectionPair()
        pair.run(until: 30_000)
        // Turn the central's LL_VERSION_IND into opcode 0x3F on the air, keeping its length.
        pair.rewrite = { packet in
            guard packet.from == .central, let pdu = packet.pdu, pdu.llid == .control, pdu.payload.first == 0x0C else { return nil }
            var air = packet.transmission
            air.pdu[2] = 0x3F
            return air
        }
        pair.feed(.central, .command(.readRemoteVersion))
        pair.run(until: 100_000)
        #expect(pair.controlPDUs(from: .peripheral) == [.unknownResponse(unknownType: 0x3F)])
        #expect(pair.events(.central).isEmpty)
        #expect(!pair.central.isClosed)
    }

    @Test("A procedure the peer never answers ends the link after 40 s with 0x22 LL Response Timeout")
    func responseTimeout() {
        var pair = ConnectionPair(timeout: 3200)
        pair.run(until: 30_000)
        // The peripheral's LL_FEATURE_RSP never makes it: rewrite it into an LL_PING_RSP.
        pair.rewrite = { packet in
            guard packet.from == .peripheral, let pdu = packet.pdu, pdu.llid == .control, pdu.payload.first == 0x09 else { return nil }
            var air = packet.transmission
            air.pdu = [air.pdu[0], 1, 0x13]
            return air
        }
        let requested = pair.now
        pair.feed(.central, .command(.readRemoteFeatures))
        pair.run(until: 41_000_000)
        #expect(pair.closeReason(.central) == .lmpOrLLResponseTimeout)
        let closedAt = pair.outputs(.central).first { if case .closed = $0.output { true } else { false } }?.at ?? 0
        #expect(closedAt == requested + 40_000_000)
    }
}

@Suite("Link Layer connection: peripheral-initiated procedures and determinism")
struct ConnectionPeripheralProcedureTests {
    @Test("A peripheral's PHY request is answered by the central's LL_PHY_UPDATE_IND; both report LE 2M")
    func peripheralPHYRequest() {
        var pair = ConnectionPair()
        pair.run(until: 30_000)
        pair.feed(.peripheral, .command(.setPHY(HCI.LESetPHY(connectionHandle: 0x41, txPHYs: .le2M, rxPHYs: .le2M))))
        pair.run(until: 200_000)
        #expect(pair.controlPDUs(from: .central).contains { if case .phyUpdateIndication = $0 { true } else { false } })
        #expect(pair.events(.peripheral) == [.leMeta(.phyUpdateComplete(.init(status: .success, connectionHandle: 0x41, txPHY: .le2M, rxPHY: .le2M)))])
        #expect(pair.events(.central) == [.leMeta(.phyUpdateComplete(.init(status: .success, connectionHandle: 0x40, txPHY: .le2M, rxPHY: .le2M)))])
        #expect(pair.peripheral.transmitPHY == .le2M && pair.central.transmitPHY == .le2M)
    }

    @Test("A PHY request that changes nothing completes at once for the asking host only")
    func phyNoChange() {
        var pair = ConnectionPair()
        pair.run(until: 30_000)
        pair.feed(.central, .command(.setPHY(HCI.LESetPHY(connectionHandle: 0x40, txPHYs: .le1M, rxPHYs: .le1M))))
        pair.run(until: 200_000)
        #expect(pair.events(.central) == [.leMeta(.phyUpdateComplete(.init(status: .success, connectionHandle: 0x40, txPHY: .le1M, rxPHY: .le1M)))])
        #expect(pair.events(.peripheral).isEmpty)
        #expect(pair.controlPDUs(from: .central).contains(.phyUpdateIndication(.init(centralToPeripheralPHY: 0, peripheralToCentralPHY: 0, instant: 0))))
    }

    @Test("A peripheral's data length request raises what it may send; both hosts hear of the change")
    func peripheralDataLength() {
        var pair = ConnectionPair()
        pair.run(until: 30_000)
        pair.feed(.peripheral, .command(.setDataLength(txOctets: 200, txTime: 1712)))
        pair.run(until: 200_000)
        #expect(pair.events(.peripheral) == [.leMeta(.dataLengthChange(.init(connectionHandle: 0x41, maxTxOctets: 200, maxTxTime: 1712, maxRxOctets: 27, maxRxTime: 328)))])
        #expect(pair.events(.central) == [.leMeta(.dataLengthChange(.init(connectionHandle: 0x40, maxTxOctets: 27, maxTxTime: 328, maxRxOctets: 200, maxRxTime: 1712)))])
        let message = patternBytes(400, seed: 3)
        pair.sendFromHost(.peripheral, message, fragment: 200)
        pair.run(until: 300_000)
        #expect(pair.receivedBytes(.central) == message)
        #expect(pair.sent.filter { $0.from == .peripheral }.compactMap(\.pdu).map(\.payload.count).max() == 200)
    }

    @Test("When the second side also raises its data length, both hosts hear of that change too (§4.5.10)")
    func bothSidesDataLength() {
        var pair = ConnectionPair()
        pair.run(until: 30_000)
        pair.feed(.peripheral, .command(.setDataLength(txOctets: 251, txTime: 2120)))
        pair.run(until: 200_000)
        #expect(pair.events(.central).count == 1)
        pair.feed(.central, .command(.setDataLength(txOctets: 251, txTime: 2120)))
        pair.run(until: 400_000)
        // The central's own exchange leaves the peer's parameters as they were; what changed
        // is the central's transmit side, which its host and the peripheral's must both hear.
        #expect(pair.events(.central).dropFirst() == [.leMeta(.dataLengthChange(.init(connectionHandle: 0x40, maxTxOctets: 251, maxTxTime: 2120, maxRxOctets: 251, maxRxTime: 2120)))])
        #expect(pair.events(.peripheral).dropFirst() == [.leMeta(.dataLengthChange(.init(connectionHandle: 0x41, maxTxOctets: 251, maxTxTime: 2120, maxRxOctets: 251, maxRxTime: 2120)))])
    }

    @Test("The same inputs give the same packets at the same times")
    func deterministic() {
        func run() -> [RadioTransmission] {
            var pair = ConnectionPair(latency: 2)
            pair.react = { role, output, _ in
                guard role == .peripheral, case .event(.leMeta(.longTermKeyRequest)) = output else { return [] }
                return [.command(.longTermKeyReply(0x1234))]
            }
            pair.run(until: 30_000)
            pair.feed(.central, .command(.startEncryption(random: 1, ediv: 2, longTermKey: 0x1234)))
            pair.sendFromHost(.peripheral, patternBytes(500, seed: 1))
            pair.run(until: 400_000)
            return pair.sent.map(\.transmission)
        }
        let first = run()
        #expect(first.count > 50)
        #expect(first == run())
    }
}

@Suite("Link Layer connection: channel map update")
struct ConnectionChannelMapTests {
    @Test("A peripheral hops on the new channel map from the LL_CHANNEL_MAP_IND's instant on")
    func channelMapAtInstant() throws {
        var pair = ConnectionPair(hopIncrement: 7)
        pair.run(until: 30_000)
        let instant = UInt16(pair.centralAnchors.count + 8)
        let newMap: UInt64 = 0x3FF
        // The central's LL_VERSION_IND becomes an LL_CHANNEL_MAP_IND on the air.
        pair.rewrite = { packet in
            guard packet.from == .central, let pdu = packet.pdu, pdu.llid == .control, pdu.payload.first == 0x0C else { return nil }
            var air = packet.transmission
            air.pdu = [air.pdu[0], 8, 0x01, 0xFF, 0x03, 0x00, 0x00, 0x00, UInt8(instant & 0xFF), UInt8(instant >> 8)]
            return air
        }
        pair.feed(.central, .command(.readRemoteVersion))
        pair.run(until: 300_000)
        let ownEnds = Set(pair.sent.filter { $0.from == .peripheral }.map(\.transmission.end))
        let anchorWindows: [ReceiverWindow] = pair.outputs(.peripheral).compactMap {
            guard case let .radio(.listen(window)) = $0.output, !ownEnds.contains(window.opens) else { return nil }
            return window
        }
        let count = Int(instant) + 10
        try #require(anchorWindows.count >= count)
        let oldChannels = expectedChannels(events: count, hop: 7, map: 0x1F_FFFF_FFFF)
        let newChannels = expectedChannels(events: count, hop: 7, map: newMap)
        for index in 0 ..< count {
            let expected = index < Int(instant) ? oldChannels[index] : newChannels[index]
            #expect(anchorWindows[index].channel == expected, "event \(index)")
        }
        #expect(newChannels[Int(instant)...].allSatisfy { $0 < 10 })
    }
}
