import BLEController
import BLEWire
import Testing

/// Channel Selection Algorithm #2 on legacy connections (Core 5.4, Vol 6, Part B, §2.3.1.1,
/// §2.3.3.1, §4.5.8): used only when the ADV_IND and the CONNECT_IND both set ChSel, which
/// only a controller configured to claim the feature does.
@Suite("Channel selection of legacy connections")
struct LegacyChannelSelectionTests {
    static func connect(peripheralClaims: Bool, centralClaims: Bool) -> (TestAir, peripheral: Int, central: Int) {
        var air = TestAir()
        let peripheral = air.add(address: 0xA1, seed: 1, claimsChannelSelectionAlgorithm2: peripheralClaims)
        let central = air.add(address: 0xB2, seed: 2, claimsChannelSelectionAlgorithm2: centralClaims)
        for device in [peripheral, central] {
            air.command(device, HCI.LESetEventMask(leEventMask: HCI.LEEventMask.defaultAfterReset.union(.channelSelectionAlgorithm)))
        }
        air.startAdvertising(peripheral)
        air.command(central, TestAir.createConnection(to: air.address(peripheral)))
        air.run(until: 500_000)
        return (air, peripheral, central)
    }

    static func algorithms(_ air: TestAir, _ device: Int) -> [HCI.LEChannelSelectionAlgorithm.Algorithm] {
        air.leMetaEvents(device).compactMap { event in
            if case let .channelSelectionAlgorithm(selected) = event { return selected.channelSelectionAlgorithm }
            return nil
        }
    }

    @Test("By default nothing changes: ChSel is clear, no Channel Selection Algorithm event, the link hops with #1")
    func defaultUnchanged() throws {
        let (air, peripheral, central) = Self.connect(peripheralClaims: false, centralClaims: false)
        #expect(air.advertisingPDUs(from: peripheral).allSatisfy { !$0.pdu.channelSelection })
        #expect(air.advertisingPDUs(from: central).allSatisfy { !$0.pdu.channelSelection })
        #expect(Self.algorithms(air, peripheral).isEmpty && Self.algorithms(air, central).isEmpty)
        #expect(air.devices[central].controller.connectionHandles.count == 1)
    }

    @Test("Both sides claiming it: ChSel set in ADV_IND and CONNECT_IND, and both hosts told #2")
    func bothClaim() {
        let (air, peripheral, central) = Self.connect(peripheralClaims: true, centralClaims: true)
        #expect(air.advertisingPDUs(from: peripheral).contains { $0.pdu.pduType == .advInd && $0.pdu.channelSelection })
        #expect(air.advertisingPDUs(from: central).contains { $0.pdu.pduType == .connectInd && $0.pdu.channelSelection })
        #expect(Self.algorithms(air, peripheral) == [.algorithm2] && Self.algorithms(air, central) == [.algorithm2])
        #expect(air.devices[peripheral].controller.connectionHandles.count == 1)
    }

    @Test("Only the central claiming it: the advertiser's ChSel is clear, so both use #1")
    func oneSideClaims() {
        let (air, peripheral, central) = Self.connect(peripheralClaims: false, centralClaims: true)
        #expect(Self.algorithms(air, central) == [.algorithm1])
        #expect(Self.algorithms(air, peripheral).isEmpty)
        #expect(air.devices[peripheral].controller.connectionHandles.count == 1)
    }
}
