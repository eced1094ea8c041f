import BLEController
import BLEWire
import Testing

@Suite("Controller HCI surface")
struct HCISurfaceTests {
    @Test("A typical host start-up sequence gets one successful Command Complete per command")
    func startUpSequence() throws {
        var air = TestAir()
        let device = air.add(address: 0xF0_00_00_00_00_01, seed: 1)
        let commands: [HCI.CommandPacket] = try [
            HCI.CommandPacket(HCI.Reset()),
            HCI.CommandPacket(HCI.ReadLocalSupportedCommands()),
            HCI.CommandPacket(HCI.ReadLocalVersionInformation()),
            HCI.CommandPacket(HCI.ReadLocalSupportedFeatures()),
            HCI.CommandPacket(HCI.ReadBDADDR()),
            HCI.CommandPacket(HCI.SetEventMask(eventMask: .defaultAfterReset)),
            HCI.CommandPacket(HCI.LESetEventMask(leEventMask: .defaultAfterReset)),
            HCI.CommandPacket(HCI.LEReadBufferSizeV2()),
            HCI.CommandPacket(HCI.LEReadBufferSize()),
            HCI.CommandPacket(HCI.ReadBufferSize()),
            HCI.CommandPacket(HCI.LEReadLocalSupportedFeatures()),
            HCI.CommandPacket(HCI.LEReadSupportedStates()),
            HCI.CommandPacket(HCI.WriteLEHostSupport(leSupportedHost: true)),
            HCI.CommandPacket(HCI.LEReadFilterAcceptListSize()),
            HCI.CommandPacket(HCI.LEClearFilterAcceptList()),
            HCI.CommandPacket(HCI.LEReadResolvingListSize()),
            HCI.CommandPacket(HCI.LEReadMaximumDataLength()),
            HCI.CommandPacket(HCI.LEReadSuggestedDefaultDataLength()),
            HCI.CommandPacket(HCI.LEWriteSuggestedDefaultDataLength(suggestedMaxTxOctets: 251, suggestedMaxTxTime: 2120)),
            HCI.CommandPacket(HCI.LESetDefaultPHY(txPHYs: [.le1M, .le2M], rxPHYs: [.le1M, .le2M])),
            HCI.CommandPacket(HCI.LERand()),
            HCI.CommandPacket(HCI.LEReadAdvertisingPhysicalChannelTxPower()),
            HCI.CommandPacket(HCI.SetEventMaskPage2(eventMaskPage2: 0)),
        ]
        for packet in commands {
            let events = air.raw(device, packet)
            #expect(events.count == 1, "one answer to \(packet.opcode)")
            guard case let .commandComplete(complete)? = events.first else {
                Issue.record("no Command Complete for \(packet.opcode)")
                continue
            }
            #expect(complete.opcode == packet.opcode)
            #expect(complete.numHCICommandPackets == 1)
            #expect(complete.returnParameters.first == 0x00, "status of \(packet.opcode)")
        }
        let version = try #require(air.command(device, HCI.ReadLocalVersionInformation()).first)
        guard case let .commandComplete(complete) = version else { return }
        let parameters = try complete.returnParameters(for: HCI.ReadLocalVersionInformation.self)
        #expect(parameters.hciVersion == 0x0D)
        #expect(parameters.companyIdentifier == 0xFFFF)
        guard case let .commandComplete(address)? = air.command(device, HCI.ReadBDADDR()).first else { return }
        #expect(try address.returnParameters(for: HCI.ReadBDADDR.self).bdAddr == air.address(device))
        guard case let .commandComplete(buffer)? = air.command(device, HCI.LEReadBufferSize()).first else { return }
        let sizes = try buffer.returnParameters(for: HCI.LEReadBufferSize.self)
        #expect(sizes.leACLDataPacketLength == 251)
        #expect(sizes.totalNumLEACLDataPackets == 8)
        guard case let .commandComplete(features)? = air.command(device, HCI.LEReadLocalSupportedFeatures()).first
        else { return }
        let leFeatures = try features.returnParameters(for: HCI.LEReadLocalSupportedFeatures.self).leFeatures
        #expect(leFeatures.contains(.leEncryption) && leFeatures.contains(.le2MPHY))
        #expect(!leFeatures.contains(.leExtendedAdvertising))
    }

    @Test("Supported Commands has exactly the implemented commands' bits")
    func supportedCommandsBitmap() throws {
        var air = TestAir()
        let device = air.add(address: 1, seed: 1)
        guard case let .commandComplete(event)? = air.command(device, HCI.ReadLocalSupportedCommands()).first else {
            Issue.record("no Command Complete")
            return
        }
        let field = try event.returnParameters(for: HCI.ReadLocalSupportedCommands.self).supportedCommands
        #expect(field.contains(.leSetAdvertisingEnable))
        #expect(field.contains(.leCreateConnectionCancel))
        #expect(field.contains(.leEncrypt))
        // The extended family is answered but claimed only with the extended feature: Linux
        // picks extended scanning from these bits alone.
        #expect(!field.contains(.leSetExtendedAdvertisingParameters))
        #expect(!field.contains(.leSetExtendedScanEnable))
        #expect(!field.contains(.leExtendedCreateConnection), "claimed only with the extended feature (ExtendedCreateConnectionTests)")
        #expect(!field.contains(.leGenerateDHKey))
        let claiming = air.add(address: 2, seed: 2, claimsExtendedAdvertising: true)
        guard case let .commandComplete(claimed)? = air.command(claiming, HCI.ReadLocalSupportedCommands()).first else {
            Issue.record("no Command Complete")
            return
        }
        let claimedField = try claimed.returnParameters(for: HCI.ReadLocalSupportedCommands.self).supportedCommands
        #expect(claimedField.contains(.leSetExtendedAdvertisingParameters))
        #expect(claimedField.contains(.leSetExtendedScanEnable))
        #expect(claimedField.contains(.leExtendedCreateConnection))
    }

    @Test("Unknown opcodes and periodic advertising get Unknown HCI Command")
    func unknownCommands() throws {
        var air = TestAir()
        let device = air.add(address: 1, seed: 1)
        let vendor = air.raw(device, HCI.CommandPacket(opcode: HCI.Opcode(rawValue: 0xFC01), parameters: [1, 2]))
        #expect(vendor.first?.commandResult?.status == 0x01)
        #expect(vendor.first?.commandResult?.opcode == HCI.Opcode(rawValue: 0xFC01))
        // LE Set Periodic Advertising Parameters (§7.8.61): not modelled.
        let extended = air.raw(device, HCI.CommandPacket(opcode: HCI.Opcode(ogf: 0x08, ocf: 0x003E), parameters: []))
        #expect(extended.count == 1)
        #expect(extended.first?.commandResult?.status == 0x01)
    }

    @Test("Malformed parameters get Invalid HCI Command Parameters in the command's completion form")
    func malformedParameters() {
        var air = TestAir()
        let device = air.add(address: 1, seed: 1)
        let badFlag = air.raw(device, HCI.CommandPacket(opcode: HCI.LESetAdvertisingEnable.opcode, parameters: [0x02]))
        guard case let .commandComplete(complete)? = badFlag.first else {
            Issue.record("no Command Complete")
            return
        }
        #expect(complete.returnParameters.first == 0x12)
        let truncated = air.raw(device, HCI.CommandPacket(opcode: HCI.LECreateConnection.opcode, parameters: [0x60, 0x00]))
        guard case let .commandStatus(status)? = truncated.first else {
            Issue.record("no Command Status")
            return
        }
        #expect(status.status == .invalidHCICommandParameters)
        // The controller keeps going.
        #expect(air.command(device, HCI.Reset()).first?.commandResult?.status == 0x00)
    }

    @Test("Commands disallowed in the current state get Command Disallowed")
    func disallowedCommands() {
        var air = TestAir()
        let device = air.add(address: 1, seed: 1)
        air.startAdvertising(device)
        let random = air.command(device, HCI.LESetRandomAddress(randomAddress: BluetoothAddress(0xC0_00_00_00_00_01, kind: .random)))
        #expect(random.first?.commandResult?.status == 0x0C)
        let parameters = air.command(device, HCI.LESetAdvertisingParameters(
            advertisingIntervalMin: 0x100, advertisingIntervalMax: 0x100, advertisingType: .nonConnectableUndirected,
            ownAddressType: .public))
        #expect(parameters.first?.commandResult?.status == 0x0C)
        let cancel = air.command(device, HCI.LECreateConnectionCancel())
        #expect(cancel.first?.commandResult?.status == 0x0C)
    }

    @Test("Connection commands for an unknown handle get Unknown Connection Identifier")
    func unknownHandle() throws {
        var air = TestAir()
        let device = air.add(address: 1, seed: 1)
        let disconnect = air.command(device, HCI.Disconnect(connectionHandle: 0x0040))
        guard case let .commandStatus(status)? = disconnect.first else {
            Issue.record("no Command Status")
            return
        }
        #expect(status.status == .unknownConnectionIdentifier)
        guard case let .commandComplete(rssi)? = air.command(device, HCI.ReadRSSI(connectionHandle: 0x0040)).first else {
            Issue.record("no Command Complete")
            return
        }
        let parameters = try rssi.returnParameters(for: HCI.ReadRSSI.self)
        #expect(parameters.status == .unknownConnectionIdentifier)
        #expect(parameters.connectionHandle == 0x0040)
    }

    @Test("ACL data for an unknown handle is dropped and counted")
    func aclUnknownHandle() {
        var air = TestAir()
        let device = air.add(address: 1, seed: 1)
        let packet = HCI.ACLPacket(connectionHandle: 0x0001, packetBoundary: .firstNonAutomaticallyFlushable, data: [1, 2, 3, 4][...])
        air.input(device, .hci(.acl(packet)))
        #expect(air.devices[device].controller.counters.aclUnknownHandle == 1)
        #expect(air.devices[device].events.isEmpty)
    }

    @Test("LE Encrypt computes AES-128 (FIPS-197 C.1 vector) and LE Rand is seeded")
    func encryptAndRand() throws {
        var air = TestAir()
        let device = air.add(address: 1, seed: 7)
        let key: UInt128 = 0x0001_0203_0405_0607_0809_0A0B_0C0D_0E0F
        let plaintext: UInt128 = 0x0011_2233_4455_6677_8899_AABB_CCDD_EEFF
        guard case let .commandComplete(event)? = air.command(device, HCI.LEEncrypt(key: key, plaintextData: plaintext)).first
        else {
            Issue.record("no Command Complete")
            return
        }
        #expect(try event.returnParameters(for: HCI.LEEncrypt.self).encryptedData == 0x69C4_E0D8_6A7B_0430_D8CD_B780_70B4_C55A)
        var other = TestAir()
        let twin = other.add(address: 1, seed: 7)
        let first = air.command(device, HCI.LERand())
        _ = other.command(twin, HCI.LEEncrypt(key: key, plaintextData: plaintext))
        #expect(first == other.command(twin, HCI.LERand()))
    }

    @Test("Reset stops advertising and restores the default event masks")
    func resetResets() {
        var air = TestAir()
        let advertiser = air.add(address: 1, seed: 1)
        let scanner = air.add(address: 2, seed: 2)
        air.command(scanner, HCI.LESetEventMask(leEventMask: []))
        air.command(scanner, HCI.Reset())
        air.enableLEMetaEvents(scanner)
        air.startAdvertising(advertiser)
        air.startScanning(scanner, active: false)
        air.run(until: 300_000)
        #expect(!air.reports(scanner).isEmpty, "the LE mask is back to its default after Reset")
        #expect(air.command(advertiser, HCI.Reset()).first?.commandResult?.status == 0)
        #expect(!air.devices[advertiser].controller.isAdvertising)
        let sent = air.log.count
        air.run(until: 1_000_000)
        #expect(air.log.count == sent, "nothing is sent after Reset")
    }

    @Test("Masked events are not sent")
    func maskedEvents() {
        var air = TestAir()
        let advertiser = air.add(address: 1, seed: 1)
        let scanner = air.add(address: 2, seed: 2)
        air.command(scanner, HCI.LESetEventMask(leEventMask: [.connectionComplete]))
        air.startAdvertising(advertiser)
        air.startScanning(scanner, active: false)
        air.run(until: 500_000)
        #expect(air.reports(scanner).isEmpty)
        air.command(scanner, HCI.LESetEventMask(leEventMask: [.advertisingReport]))
        air.command(scanner, HCI.SetEventMask(eventMask: [.disconnectionComplete]))
        air.run(until: 1_000_000)
        #expect(air.reports(scanner).isEmpty, "LE Meta is masked in the page 1 mask")
        air.enableLEMetaEvents(scanner)
        air.run(until: 1_500_000)
        #expect(!air.reports(scanner).isEmpty)
    }
}
