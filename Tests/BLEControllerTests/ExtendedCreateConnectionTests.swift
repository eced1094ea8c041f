import BLEController
import BLEWire
import Testing

/// LE Extended Create Connection towards legacy advertising (Core 5.4, Vol 4, Part E, §7.8.66).
@Suite("Extended create connection")
struct ExtendedCreateConnectionTests {
    static func command(to peer: BluetoothAddress, le1M: Bool = true, coded: Bool = false) -> HCI.LEExtendedCreateConnection {
        let phy = HCI.LEExtendedCreateConnection.PHYParameters(
            scanInterval: 0x0060, scanWindow: 0x0060,
            connectionParameters: HCI.LEConnectionParameters(
                connectionIntervalMin: 24, connectionIntervalMax: 40, maxLatency: 0, supervisionTimeout: 72))
        return HCI.LEExtendedCreateConnection(
            ownAddressType: .public, peerAddressType: .public, peerAddress: peer, le1M: le1M ? phy : nil,
            le2M: le1M ? nil : phy, leCoded: coded ? phy : nil)
    }

    @Test("An extended scanner connects on LE 1M to a legacy advertiser; its host gets Command Status, then Connection Complete")
    func connects() {
        var air = TestAir()
        let peripheral = air.add(address: 0xA1, seed: 1)
        let central = air.add(address: 0xB2, seed: 2, claimsExtendedAdvertising: true)
        air.startAdvertising(peripheral)
        let answer = air.command(central, Self.command(to: air.address(peripheral)))
        guard case let .commandStatus(status)? = answer.first else {
            Issue.record("no Command Status")
            return
        }
        #expect(status.status == .success && status.opcode == HCI.LEExtendedCreateConnection.opcode)
        air.run(until: 1_000_000)
        #expect(air.connectionCompletes(central).map(\.peerAddress) == [air.address(peripheral)])
        #expect(air.connectionCompletes(peripheral).map(\.peerAddress) == [air.address(central)])
        #expect(air.devices[central].controller.connectionHandles.count == 1)
    }

    @Test("No scannable PHY is refused as invalid, and the legacy command after it as disallowed")
    func refusals() {
        var air = TestAir()
        let central = air.add(address: 0xB2, seed: 2, claimsExtendedAdvertising: true)
        let peer = BluetoothAddress(0xA1)
        func status(_ events: [HCI.Event]) -> HCI.StatusCode? {
            if case let .commandStatus(status)? = events.first { return status.status }
            return nil
        }
        #expect(status(air.command(central, Self.command(to: peer, le1M: false))) == .invalidHCICommandParameters)
        #expect(status(air.command(central, Self.command(to: peer))) == .success)
        #expect(status(air.command(central, Self.command(to: peer))) == .commandDisallowed, "one initiation at a time")
        #expect(air.command(central, HCI.LECreateConnectionCancel()).first?.commandResult?.status == 0x00)
        #expect(status(air.command(central, TestAir.createConnection(to: peer))) == .commandDisallowed)
    }

    @Test("Only a controller configured to claim the extended feature reports it and LE Extended Create Connection")
    func claimedOnlyWhenConfigured() throws {
        var air = TestAir()
        let plain = air.add(address: 0xA1, seed: 1)
        let claiming = air.add(address: 0xB2, seed: 2, claimsExtendedAdvertising: true)
        func claims(_ device: Int) throws -> (features: Bool, command: Bool) {
            guard case let .commandComplete(features)? = air.command(device, HCI.LEReadLocalSupportedFeatures()).first,
                  case let .commandComplete(commands)? = air.command(device, HCI.ReadLocalSupportedCommands()).first
            else { return (false, false) }
            return (try features.returnParameters(for: HCI.LEReadLocalSupportedFeatures.self).leFeatures.contains(.leExtendedAdvertising),
                    try commands.returnParameters(for: HCI.ReadLocalSupportedCommands.self).supportedCommands.contains(.leExtendedCreateConnection))
        }
        #expect(try claims(plain) == (false, false))
        #expect(try claims(claiming) == (true, true))
        let unknown = air.command(plain, Self.command(to: BluetoothAddress(0xB2)))
        #expect(unknown.first?.commandResult?.status == 0x01, "Unknown HCI Command when not claimed")
    }
}
