import BLEController
import BLEWire
import Testing

@Suite("LE Set PHY and LE Set Default PHY with LE Coded")
struct CodedPHYConnectionCommandTests {
    /// Two controllers, with or without the LE Coded PHY, connected on LE 1M.
    static func connectedPair(coded: Bool) -> (TestAir, peripheral: Int, central: Int) {
        var air = TestAir()
        let peripheral = air.add(address: 0xF0_00_00_00_00_01, seed: 1, claimsExtendedAdvertising: coded)
        let central = air.add(address: 0xF0_00_00_00_00_02, seed: 2, claimsExtendedAdvertising: coded)
        // LE PHY Update Complete is not in the LE event mask after reset (§7.8.1).
        for device in [peripheral, central] {
            air.command(device, HCI.LESetEventMask(leEventMask: HCI.LEEventMask(rawValue: 0x1F).union(.phyUpdateComplete)))
        }
        air.startAdvertising(peripheral)
        air.command(central, TestAir.createConnection(to: air.address(peripheral)))
        air.run(until: 300_000)
        return (air, peripheral, central)
    }

    /// The status of a Command Status event, first of `events`.
    static func status(_ events: [HCI.Event]) -> HCI.StatusCode? {
        if case let .commandStatus(status)? = events.first { return status.status }
        return nil
    }

    @Test("Without the LE Coded feature, LE Set PHY and LE Set Default PHY naming Coded get Unsupported Feature or Parameter Value (0x11)")
    func refusedWithoutFeature() throws {
        var (air, _, central) = Self.connectedPair(coded: false)
        let handle = try #require(air.devices[central].controller.connectionHandles.first)
        #expect(Self.status(air.command(central, HCI.LESetPHY(connectionHandle: handle, txPHYs: .leCoded, rxPHYs: .le1M)))
            == .unsupportedFeatureOrParameterValue)
        #expect(Self.status(air.command(central, HCI.LESetPHY(connectionHandle: handle, txPHYs: .le1M, rxPHYs: [.le1M, .leCoded])))
            == .unsupportedFeatureOrParameterValue)
        #expect(air.command(central, HCI.LESetDefaultPHY(txPHYs: [.le1M, .leCoded], rxPHYs: .le1M)).first?.commandResult?.status == 0x11)
        // A direction without a preference ignores its bits (§7.8.49).
        #expect(Self.status(air.command(central, HCI.LESetPHY(
            connectionHandle: handle, allPHYs: [.noTransmitPreference, .noReceivePreference], txPHYs: .leCoded, rxPHYs: .leCoded))) == .success)
        #expect(air.command(central, HCI.LESetDefaultPHY(txPHYs: .le2M, rxPHYs: .le2M)).first?.commandResult?.status == 0x00)
    }

    @Test("With the LE Coded feature the link moves to Coded: both hosts get LE PHY Update Complete and LE Read PHY answers 0x03")
    func updateThroughHCI() throws {
        var (air, peripheral, central) = Self.connectedPair(coded: true)
        let handle = try #require(air.devices[central].controller.connectionHandles.first)
        let peripheralHandle = try #require(air.devices[peripheral].controller.connectionHandles.first)
        #expect(Self.status(air.command(central, HCI.LESetPHY(
            connectionHandle: handle, txPHYs: .leCoded, rxPHYs: .leCoded, phyOptions: .s8))) == .success)
        air.run(until: air.now + 1_500_000)
        for (device, deviceHandle) in [(central, handle), (peripheral, peripheralHandle)] {
            let updates = air.devices[device].events.compactMap { item -> HCI.LEPHYUpdateComplete? in
                if case let .leMeta(.phyUpdateComplete(done)) = item.event { return done }
                return nil
            }
            #expect(updates == [.init(status: .success, connectionHandle: deviceHandle, txPHY: .leCoded, rxPHY: .leCoded)])
            guard case let .commandComplete(read)? = air.command(device, HCI.LEReadPHY(connectionHandle: deviceHandle)).first else {
                Issue.record("no Command Complete")
                return
            }
            let phys = try read.returnParameters(for: HCI.LEReadPHY.self)
            #expect(phys.txPHY.rawValue == 0x03 && phys.rxPHY.rawValue == 0x03)
        }
        // The connection's packets now go on LE Coded S=8 (no host asked for S=2).
        let last = try #require(air.log.last)
        #expect(last.transmission.phy == .leCoded(.s8))
    }
}
