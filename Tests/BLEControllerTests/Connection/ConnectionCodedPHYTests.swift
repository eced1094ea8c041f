import BLEController
import BLEWire
import Testing

@Suite("Link Layer connection: PHY update to LE Coded")
struct ConnectionCodedPHYTests {
    /// A pair whose controllers have LE Coded, moved to it by the central's host with
    /// `options`; run until 300 ms.
    static func updatedToCoded(options: HCI.LESetPHY.CodedPHYOptions) -> ConnectionPair {
        var pair = ConnectionPair(codedPHY: true)
        pair.run(until: 30_000)
        pair.feed(.central, .command(.setPHY(HCI.LESetPHY(
            connectionHandle: 0x40, txPHYs: .leCoded, rxPHYs: .leCoded, phyOptions: options))))
        pair.run(until: 300_000)
        return pair
    }

    /// Whether a packet went on LE Coded, whatever its coding.
    static func isCoded(_ sent: ConnectionPair.Sent) -> Bool {
        if case .leCoded = sent.transmission.phy { true } else { false }
    }

    @Test("A link updated to LE Coded S=8 reports LE Coded (0x03) both ways on both sides (Vol 4, Part E, §7.7.65.12)")
    func updateReportsCoded() {
        let pair = Self.updatedToCoded(options: .s8)
        #expect(pair.controlPDUs(from: .central).contains {
            if case let .phyUpdateIndication(update) = $0 { update.centralToPeripheralPHY == 0x04 && update.peripheralToCentralPHY == 0x04 } else { false }
        })
        let coded = HCI.PHY.leCoded
        #expect(coded.rawValue == 0x03)
        #expect(pair.events(.central) == [.leMeta(.phyUpdateComplete(.init(status: .success, connectionHandle: 0x40, txPHY: coded, rxPHY: coded)))])
        #expect(pair.events(.peripheral) == [.leMeta(.phyUpdateComplete(.init(status: .success, connectionHandle: 0x41, txPHY: coded, rxPHY: coded)))])
        #expect(pair.central.transmitPHY == .leCoded(.s8) && pair.peripheral.transmitPHY == .leCoded(.s8))
    }

    @Test("After the instant every data PDU takes its LE Coded S=8 airtime (§2.2); an empty one 720 µs")
    func codedAirtimes() {
        var pair = Self.updatedToCoded(options: .s8)
        pair.sendFromHost(.central, patternBytes(100, seed: 3), fragment: 27)
        pair.run(until: 600_000)
        let coded = pair.sent.filter(Self.isCoded)
        #expect(coded.count > 20)
        for sent in coded {
            #expect(sent.transmission.phy == .leCoded(.s8))
            let duration = sent.transmission.end - sent.transmission.start
            #expect(duration == AirtimeTests.codedAirtime(pduOctets: sent.transmission.pdu.count, s: 8))
            if sent.transmission.pdu.count == 2 { #expect(duration == 720) }
        }
        #expect(pair.receivedBytes(.peripheral) == patternBytes(100, seed: 3))
        // Nothing on 1M after the first Coded packet.
        let firstCoded = pair.sent.firstIndex(where: Self.isCoded) ?? pair.sent.count
        #expect(pair.sent[firstCoded...].allSatisfy(Self.isCoded))
    }

    @Test("On LE Coded each answer starts T_IFS (150 µs) after the packet it answers and events fit their interval")
    func codedEventTiming() {
        var pair = Self.updatedToCoded(options: .s8)
        pair.sendFromHost(.central, patternBytes(200, seed: 5), fragment: 27)
        pair.run(until: 700_000)
        let coded = pair.sent.filter(Self.isCoded)
        // Anchors fall every 7.5 ms from the first, 1.25 ms after the CONNECT_IND (§4.5.1).
        func startsEvent(_ sent: ConnectionPair.Sent) -> Bool {
            sent.from == .central && (sent.transmission.start - ConnectionPair.connectIndicationEnd - 1_250) % 7_500 == 0
        }
        var answers = 0
        for (previous, next) in zip(coded, coded.dropFirst()) {
            let gap = next.transmission.start - previous.transmission.end
            if startsEvent(next) {
                // The event ended with room for T_IFS before the next anchor.
                #expect(gap >= Airtime.interFrameSpace)
            } else {
                #expect(next.from != previous.from)
                #expect(gap == Airtime.interFrameSpace)
                answers += 1
            }
        }
        #expect(answers > 20)
        #expect(pair.receivedBytes(.peripheral) == patternBytes(200, seed: 5))
        #expect(pair.closeReason(.central) == nil && pair.closeReason(.peripheral) == nil)
    }

    @Test("A host preferring S=2 gets S=2 from its own transmitter; the peer, with no preference, sends S=8")
    func codingIsTheTransmittersChoice() {
        var pair = Self.updatedToCoded(options: .s2)
        pair.sendFromHost(.central, patternBytes(60, seed: 1), fragment: 27)
        pair.sendFromHost(.peripheral, patternBytes(60, seed: 2), fragment: 27)
        pair.run(until: 600_000)
        let coded = pair.sent.filter(Self.isCoded)
        #expect(!coded.isEmpty)
        #expect(coded.filter { $0.from == .central }.allSatisfy { $0.transmission.phy == .leCoded(.s2) })
        #expect(coded.filter { $0.from == .peripheral }.allSatisfy { $0.transmission.phy == .leCoded(.s8) })
        #expect(pair.receivedBytes(.peripheral) == patternBytes(60, seed: 1))
        #expect(pair.receivedBytes(.central) == patternBytes(60, seed: 2))
        #expect(pair.events(.central).first == .leMeta(.phyUpdateComplete(.init(
            status: .success, connectionHandle: 0x40, txPHY: .leCoded, rxPHY: .leCoded))))
    }

    @Test("A peer whose host prefers only LE 1M keeps the link on 1M; only the asking host hears so")
    func peerPreferringOneMegabit() {
        var pair = ConnectionPair(codedPHY: true)
        pair.peripheral.adoptDefaultPHY(HCI.LESetDefaultPHY(txPHYs: .le1M, rxPHYs: .le1M))
        pair.run(until: 30_000)
        pair.feed(.central, .command(.setPHY(HCI.LESetPHY(connectionHandle: 0x40, txPHYs: .leCoded, rxPHYs: .leCoded))))
        pair.run(until: 300_000)
        #expect(pair.controlPDUs(from: .peripheral).contains(.phyResponse(.init(txPHYs: 0b001, rxPHYs: 0b001))))
        #expect(pair.events(.central) == [.leMeta(.phyUpdateComplete(.init(status: .success, connectionHandle: 0x40, txPHY: .le1M, rxPHY: .le1M)))])
        #expect(pair.events(.peripheral).isEmpty)
        #expect(pair.central.transmitPHY == .le1M && pair.peripheral.transmitPHY == .le1M)
        #expect(!pair.sent.contains(where: Self.isCoded))
    }

    @Test("A link layer with LE Coded offers LL feature bit 11 and LE Coded in its PHY preferences; one without offers neither")
    func featureAndPreferences() {
        var coded = ConnectionPair(codedPHY: true)
        coded.run(until: 30_000)
        coded.feed(.central, .command(.readRemoteFeatures))
        coded.run(until: 200_000)
        let withCoded = LinkLayerConnection.supportedFeatures | LinkLayerConnection.codedPHYFeature
        #expect(LinkLayerConnection.codedPHYFeature == 0x800)
        #expect(coded.events(.central) == [.leMeta(.readRemoteFeaturesComplete(.init(status: .success, connectionHandle: 0x40, leFeatures: withCoded)))])
        var plain = ConnectionPair()
        #expect(plain.peripheral.localFeatures & LinkLayerConnection.codedPHYFeature == 0)
        plain.run(until: 30_000)
        plain.feed(.central, .command(.setPHY(HCI.LESetPHY(connectionHandle: 0x40, allPHYs: [.noTransmitPreference, .noReceivePreference],
                                                           txPHYs: [], rxPHYs: []))))
        plain.run(until: 200_000)
        #expect(plain.controlPDUs(from: .central).contains(.phyRequest(.init(txPHYs: 0b011, rxPHYs: 0b011))))
        #expect(!plain.sent.contains(where: Self.isCoded))
    }
}
