import BLEWire
import Testing

/// Known bytes. Unless noted, captures come from /work/shared/interop/NOTES.md §5.2 (a raw H4
/// host talking to a Bumble 0.0.236 virtual controller); the leading 0x01 there is the H4
/// packet type and is stripped before decoding an `HCI.CommandPacket`. Bytes marked "Bumble"
/// were produced by Bumble 0.0.236's own HCI command encoder (bumble/hci.py), an independent
/// implementation of the same layouts.
@Suite("HCI commands: known bytes")
struct CommandKnownBytesTests {
    /// Decodes H4 command bytes (type octet first) into a packet and its typed command.
    private func command<Command: HCICommand>(_ hex: String, as type: Command.Type) throws -> Command {
        let bytes = try #require(Hex.decode(hex))
        #expect(bytes.first == 0x01, "H4 command packet type")
        let packet = try HCI.CommandPacket(decoding: Array(bytes.dropFirst()))
        #expect(packet.opcode == Command.opcode)
        let typed = try #require(try HCI.decodeCommand(packet) as? Command)
        #expect(try HCI.CommandPacket(typed).encoded() == Array(bytes.dropFirst()), "re-encodes to the same bytes")
        return typed
    }

    @Test("Reset is 03 0C 00 after the H4 type octet")
    func reset() throws {
        _ = try command("01030c00", as: HCI.Reset.self)
        #expect(HCI.Opcode.reset.rawValue == 0x0C03)
        #expect(HCI.Opcode.reset.name == "Reset")
    }

    @Test("Set Event Mask from the capture enables LE Meta and Disconnection Complete")
    func setEventMask() throws {
        let mask = try command("01010c08fffffbff07f8bf3d", as: HCI.SetEventMask.self).eventMask
        #expect(mask.rawValue == 0x3DBF_F807_FFFB_FFFF)
        #expect(mask.contains(.leMeta))
        #expect(mask.contains(.disconnectionComplete))
        #expect(mask.contains(.encryptionKeyRefreshComplete))
    }

    @Test("LE Set Event Mask from the capture enables subevents 0x01 to 0x13")
    func leSetEventMask() throws {
        let mask = try command("01012008ffff070000000000", as: HCI.LESetEventMask.self).leEventMask
        #expect(mask.rawValue == 0x7FFFF)
        #expect(mask.contains([.connectionComplete, .advertisingReport, .longTermKeyRequest, .extendedAdvertisingReport]))
        #expect(mask.contains(.scanRequestReceived))
        #expect(!mask.contains(.channelSelectionAlgorithm))
    }

    @Test("LE Set Scan Parameters from the capture: active, 10 ms interval and window")
    func leSetScanParameters() throws {
        let parameters = try command("010b200701100010000000", as: HCI.LESetScanParameters.self)
        #expect(parameters == HCI.LESetScanParameters(
            leScanType: .active, leScanInterval: 0x0010, leScanWindow: 0x0010,
            ownAddressType: .public, scanningFilterPolicy: .basicUnfiltered))
    }

    @Test("LE Set Scan Enable from the capture: enabled without duplicate filtering")
    func leSetScanEnable() throws {
        let enable = try command("010c20020100", as: HCI.LESetScanEnable.self)
        #expect(enable == HCI.LESetScanEnable(leScanEnable: true, filterDuplicates: false))
        #expect(HCI.Opcode.leSetScanEnable.name == "LE Set Scan Enable")
    }

    @Test("Read Local Version Information return parameters from the captured Command Complete")
    func readLocalVersionReturn() throws {
        // 04 0e 0c: event code and length; 01: packets; 01 10: opcode; then the return parameters
        let event = try #require(Hex.decode("040e0c0101100009000009ffff0000"))
        let opcode = HCI.Opcode(rawValue: UInt16(event[4]) | UInt16(event[5]) << 8)
        #expect(opcode == .readLocalVersionInformation)
        let returned = try HCI.ReadLocalVersionInformation.ReturnParameters(decoding: event[6...])
        #expect(returned == HCI.ReadLocalVersionInformation.ReturnParameters(
            status: .success, hciVersion: 0x09, hciSubversion: 0x0000, lmpVersion: 0x09,
            companyIdentifier: 0xFFFF, lmpSubversion: 0x0000))
        #expect(returned.encoded() == Array(event[6...]))
        let logged = try HCI.decodeReturnParameters(for: opcode, event[6...])
        #expect(logged as? HCI.ReadLocalVersionInformation.ReturnParameters == returned)
    }

    @Test("LE Read Buffer Size return parameters from the capture: 27 octets, 64 packets")
    func leReadBufferSizeReturn() throws {
        let bytes = try #require(Hex.decode("001b0040"))
        let returned = try HCI.LEReadBufferSize.ReturnParameters(decoding: bytes)
        #expect(returned == HCI.LEReadBufferSize.ReturnParameters(
            status: .success, leACLDataPacketLength: 27, totalNumLEACLDataPackets: 64))
        #expect(returned.encoded() == bytes)
    }

    @Test("Read BD_ADDR return parameters from the capture: F0:00:00:00:00:03")
    func readBDADDRReturn() throws {
        // From 040e0a 01 0910 | 00 030000 0000f0
        let bytes = try #require(Hex.decode("000300000000f0"))
        let returned = try HCI.ReadBDADDR.ReturnParameters(decoding: bytes)
        #expect(returned.bdAddr.description == "F0:00:00:00:00:03")
        #expect(returned.bdAddr.kind == .public)
        #expect(returned.encoded() == bytes)
    }

    @Test("A status-only Command Complete for Read RSSI (as Bumble sends) is logged as a status")
    func statusOnlyReturn() throws {
        let logged = try HCI.decodeReturnParameters(for: .readRSSI, [0x01][...])
        #expect(logged as? HCI.StatusReturnParameters == HCI.StatusReturnParameters(status: .unknownHCICommand))
        #expect(throws: WireError.self) { try HCI.decodeReturnParameters(for: .readRSSI, [0x00][...]) }
        #expect(throws: WireError.self) { try HCI.decodeReturnParameters(for: HCI.Opcode(rawValue: 0xFC01), [0x00][...]) }
    }

    @Test("LE Set Advertising Data is always 31 data octets on the wire; decode keeps the significant part")
    func leSetAdvertisingData() throws {
        // Bumble: HCI_LE_Set_Advertising_Data_Command(advertising_data=020106)
        let data = try command(
            "0108202003020106" + String(repeating: "00", count: 28), as: HCI.LESetAdvertisingData.self)
        #expect(Array(data.advertisingData) == [0x02, 0x01, 0x06])
        #expect(HCI.LESetAdvertisingData(advertisingData: []).encoded().count == 32)
        var tooLong = [UInt8](repeating: 0, count: 32)
        tooLong[0] = 32
        #expect(throws: WireError(field: "HCI.LESetAdvertisingData.dataLength", reason: .invalidValue(32))) {
            try HCI.LESetAdvertisingData(decoding: tooLong)
        }
        #expect(throws: WireError.self) { try HCI.LESetScanResponseData(decoding: [0x03, 0x02, 0x01, 0x06]) }
    }

    @Test("LE Set Extended Advertising Data carries a length-prefixed fragment (Bumble bytes)")
    func leSetExtendedAdvertisingData() throws {
        let data = try command("0137200701030103020106", as: HCI.LESetExtendedAdvertisingData.self)
        #expect(data.advertisingHandle == 1)
        #expect(data.operation == .complete)
        #expect(data.fragmentPreference == .shouldNotFragment)
        #expect(Array(data.advertisingData) == [0x02, 0x01, 0x06])
        var tooLong: [UInt8] = [0x01, 0x03, 0x00, 252]
        tooLong += [UInt8](repeating: 0, count: 252)
        #expect(throws: WireError.self) { try HCI.LESetExtendedAdvertisingData(decoding: tooLong) }
    }

    @Test("LE Set Extended Advertising Parameters (Bumble bytes): legacy connectable scannable set")
    func leSetExtendedAdvertisingParameters() throws {
        let parameters = try command(
            "01362019011300a00000f00000070100000000000000007f0100010000",
            as: HCI.LESetExtendedAdvertisingParameters.self)
        #expect(parameters.advertisingHandle == 1)
        #expect(parameters.advertisingEventProperties == [.connectable, .scannable, .legacy])
        #expect(parameters.primaryAdvertisingIntervalMin == 0xA0)
        #expect(parameters.primaryAdvertisingIntervalMax == 0xF0)
        #expect(parameters.primaryAdvertisingChannelMap == .all)
        #expect(parameters.ownAddressType == .random)
        #expect(parameters.peerAddress == BluetoothAddress(0, kind: .public))
        #expect(parameters.advertisingTxPower == 127)
        #expect(parameters.primaryAdvertisingPHY == .le1M)
        #expect(parameters.secondaryAdvertisingPHY == .le1M)
        #expect(!parameters.scanRequestNotificationEnable)
    }

    @Test("LE Set Extended Advertising Parameters [v2] is [v1]'s 25 octets, then the primary and secondary PHY options")
    func leSetExtendedAdvertisingParametersV2() throws {
        // Opcode 0x207F, 27 octets: set 0 on LE Coded both ways, SID 5, requiring S=2 on the primary, preferring S=8 on the secondary.
        let command = try command(
            "017f201b000000a00000a00000070000000000000000007f03000305000302",
            as: HCI.LESetExtendedAdvertisingParametersV2.self)
        #expect(command.parameters.primaryAdvertisingPHY == .leCoded && command.parameters.secondaryAdvertisingPHY == .leCoded)
        #expect(command.parameters.advertisingSID == 5 && command.parameters.primaryAdvertisingIntervalMin == 0xA0)
        #expect(command.primaryAdvertisingPHYOptions == .requireS2 && command.secondaryAdvertisingPHYOptions == .preferS8)
        #expect(HCI.LESetExtendedAdvertisingParametersV2.opcode.name == "LE Set Extended Advertising Parameters [v2]")
        // 0x05 and above are reserved options: they throw, naming the field.
        #expect(throws: WireError.self) {
            try HCI.LESetExtendedAdvertisingParametersV2(decoding: Array(command.parameters.encoded()) + [0x05, 0x00])
        }
    }

    @Test("LE Set Extended Advertising Enable interleaves handle, duration and events per set (Bumble bytes)")
    func leSetExtendedAdvertisingEnable() throws {
        let enable = try command("0139200a01020100000002640005", as: HCI.LESetExtendedAdvertisingEnable.self)
        #expect(enable == HCI.LESetExtendedAdvertisingEnable(enable: true, sets: [
            .init(advertisingHandle: 1, duration: 0, maxExtendedAdvertisingEvents: 0),
            .init(advertisingHandle: 2, duration: 0x64, maxExtendedAdvertisingEvents: 5),
        ]))
        // A count of 3 with only two sets' octets must throw, not trap.
        #expect(throws: WireError.self) {
            try HCI.LESetExtendedAdvertisingEnable(decoding: [0x01, 0x03, 0x01, 0x00, 0x00, 0x00, 0x02, 0x64, 0x00, 0x05])
        }
    }

    @Test("LE Set Extended Scan Parameters carries one block per Scanning_PHYs bit (Bumble bytes)")
    func leSetExtendedScanParameters() throws {
        let parameters = try command("0141200d01000501600030000020019000", as: HCI.LESetExtendedScanParameters.self)
        #expect(parameters.scanningPHYs == [.le1M, .leCoded])
        #expect(parameters.le1M == .init(scanType: .active, scanInterval: 0x60, scanWindow: 0x30))
        #expect(parameters.leCoded == .init(scanType: .passive, scanInterval: 0x120, scanWindow: 0x90))
        // The 2M bit is reserved for scanning.
        #expect(throws: WireError(field: "HCI.LESetExtendedScanParameters.scanningPHYs", reason: .invalidValue(0x02))) {
            try HCI.LESetExtendedScanParameters(decoding: [0x00, 0x00, 0x02, 0x01, 0x60, 0x00, 0x30, 0x00])
        }
        // Two PHY bits but one block.
        #expect(throws: WireError.self) {
            try HCI.LESetExtendedScanParameters(decoding: [0x00, 0x00, 0x05, 0x01, 0x60, 0x00, 0x30, 0x00])
        }
    }

    @Test("LE Create Connection and LE Extended Create Connection to a random address (Bumble bytes)")
    func createConnection() throws {
        let expectedParameters = HCI.LEConnectionParameters(
            connectionIntervalMin: 0x18, connectionIntervalMax: 0x28, maxLatency: 0, supervisionTimeout: 0x48)
        let peer = try #require(BluetoothAddress("C0:AD:00:00:00:01", kind: .random))
        let legacy = try command(
            "010d201960006000000101000000adc001180028000000480000000000", as: HCI.LECreateConnection.self)
        #expect(legacy == HCI.LECreateConnection(
            leScanInterval: 0x60, leScanWindow: 0x60, initiatorFilterPolicy: .usePeerAddress,
            peerAddressType: .random, peerAddress: peer, ownAddressType: .random,
            connectionParameters: expectedParameters))
        #expect(HCI.LECreateConnection.completion == .commandStatus)

        let extended = try command(
            "0143201a00010101000000adc00160006000180028000000480000000000", as: HCI.LEExtendedCreateConnection.self)
        #expect(extended == HCI.LEExtendedCreateConnection(
            initiatorFilterPolicy: .usePeerAddress, ownAddressType: .random, peerAddressType: .random,
            peerAddress: peer,
            le1M: .init(scanInterval: 0x60, scanWindow: 0x60, connectionParameters: expectedParameters)))
        #expect(extended.initiatingPHYs == .le1M)
    }

    @Test("Host Number Of Completed Packets interleaves handle and count, and checks its count")
    func hostNumberOfCompletedPackets() throws {
        let command = HCI.HostNumberOfCompletedPackets(entries: [
            .init(connectionHandle: 0x0001, hostNumCompletedPackets: 3),
            .init(connectionHandle: 0x0002, hostNumCompletedPackets: 4),
        ])
        #expect(command.encoded() == [0x02, 0x01, 0x00, 0x03, 0x00, 0x02, 0x00, 0x04, 0x00])
        #expect(throws: WireError.self) {
            try HCI.HostNumberOfCompletedPackets(decoding: [0x03, 0x01, 0x00, 0x03, 0x00, 0x02, 0x00, 0x04, 0x00])
        }
    }

    @Test("Reserved connection handles and address types are rejected")
    func reservedValues() {
        #expect(throws: WireError(field: "HCI.Disconnect.connectionHandle", reason: .invalidValue(0x0F00))) {
            try HCI.Disconnect(decoding: [0x00, 0x0F, 0x13])
        }
        #expect(throws: WireError(field: "HCI.LESetPrivacyMode.peerIdentityAddressType", reason: .invalidValue(0x02))) {
            try HCI.LESetPrivacyMode(decoding: [0x02, 1, 2, 3, 4, 5, 6, 0x00])
        }
        #expect(throws: WireError.self) {
            try HCI.LEAddDeviceToFilterAcceptList(decoding: [0x02, 1, 2, 3, 4, 5, 6])
        }
        #expect(throws: WireError.self) { try HCI.LESetAdvertisingEnable(decoding: [0x02]) }
    }

    @Test("Supported Commands: octet 36 bit 2 is LE Set Extended Advertising Parameters (§6.27)")
    func supportedCommands() throws {
        var bytes = [UInt8](repeating: 0, count: 65)
        bytes[0] = 0x00  // status
        bytes[1 + 36] = 0b0000_0100
        bytes[1 + 26] = 0b0000_1000  // octet 26 bit 3: LE Set Scan Enable
        bytes[1 + 63] = 0b1000_0000
        let returned = try HCI.ReadLocalSupportedCommands.ReturnParameters(decoding: bytes)
        let commands = returned.supportedCommands
        #expect(commands.contains(.leSetExtendedAdvertisingParameters))
        #expect(commands.contains(opcode: .leSetExtendedAdvertisingParameters))
        #expect(commands.contains(opcode: .leSetScanEnable))
        #expect(!commands.contains(opcode: .leSetScanParameters))
        #expect(!commands.contains(.leExtendedCreateConnection))
        #expect(commands.contains(octet: 63, bit: 7))
        #expect(!commands.contains(octet: 64, bit: 0))
        #expect(returned.encoded() == bytes)
        #expect(HCI.SupportedCommands([.leSetExtendedAdvertisingParameters, .leSetScanEnable]).contains(octet: 36, bit: 2))
        #expect(HCI.SupportedCommands.Entry.leReadBufferSizeV2 == .init(octet: 41, bit: 5))
    }

    @Test("LE features name the bits of Vol 6, Part B, §4.6 (Bumble's controller reports 0x179FF)")
    func leFeatures() throws {
        let returned = try HCI.LEReadLocalSupportedFeatures.ReturnParameters(
            decoding: [0x00, 0xFF, 0x79, 0x01, 0, 0, 0, 0, 0])
        let features = returned.leFeatures
        #expect(features.rawValue == 0x179FF)
        #expect(features.contains([.leEncryption, .llPrivacy, .le2MPHY, .leCodedPHY, .leExtendedAdvertising]))
        #expect(features.contains([.lePeriodicAdvertising, .channelSelectionAlgorithm2, .minimumNumberOfUsedChannelsProcedure]))
        #expect(!features.contains(.stableModulationIndexTransmitter))
    }
}
