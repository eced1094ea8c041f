import BLEController
import BLEHost
import BLEWire
import BLEWorld
import Testing

@Suite("HCI driver start-up")
struct HCIDriverStartupTests {
    @Test("Start-up against a real simulated controller learns its address, version, features and 251 × 8 buffers")
    func realController() throws {
        let harness = DriverWorld(seed: 1)
        let device = harness.add("alpha", address: 0xC0FF_EE00_0001, x: 0)
        harness.start(device)
        #expect(harness.run(for: 1_000_000) { harness.driver(device).isReady })
        let info = try #require(harness.driver(device).controller)
        #expect(info.address == BluetoothAddress(0xC0FF_EE00_0001))
        #expect(info.leACLDataPacketLength == 251)
        #expect(info.totalNumLEACLDataPackets == 8)
        #expect(info.hciVersion == 0x0D)
        #expect(info.companyIdentifier == 0xFFFF)
        #expect(info.leFeatures == Controller.leFeatures)
        #expect(info.supportedCommands == Controller.supportedCommandsField)
        #expect(info.wroteSuggestedDataLength)
        let mask = try #require(info.leEventMask)
        #expect(mask.contains(.connectionComplete))
        #expect(mask.contains(.dataLengthChange))
        #expect(mask.contains(.phyUpdateComplete))
        // Extended advertising is not a feature of this controller, so its subevents stay off.
        #expect(!mask.contains(.extendedAdvertisingReport))
        let ready = harness.recorded(device).filter { if case .ready = $0 { return true } else { return false } }
        #expect(ready.count == 1)
        #expect(harness.driver(device).nextDeadline == nil)
    }

    @Test("Start-up sends the specified sequence, LE Read Buffer Size v2 when the controller claims it")
    func sequenceWithV2() {
        var host = ScriptedHost(controller: .typical())
        host.start()
        #expect(host.controller.received == [
            HCI.Reset.opcode, HCI.ReadLocalVersionInformation.opcode, HCI.ReadLocalSupportedCommands.opcode,
            HCI.ReadLocalSupportedFeatures.opcode, HCI.ReadBDADDR.opcode, HCI.LEReadBufferSizeV2.opcode,
            HCI.LEReadLocalSupportedFeatures.opcode, HCI.SetEventMask.opcode, HCI.LESetEventMask.opcode,
            HCI.LEWriteSuggestedDefaultDataLength.opcode,
        ])
        #expect(host.driver.controller?.address == BluetoothAddress(0x1122_3344_5566))
        #expect(host.driver.controller?.hciVersion == 0x0C)
    }

    @Test("Commands the Supported Commands field lacks are skipped: v1 buffer size, no BD_ADDR, no data length")
    func skipsUnsupported() {
        let supported = HCI.SupportedCommands([.reset, .readLocalVersionInformation, .setEventMask, .leSetEventMask,
                                           .leReadBufferSize, .leReadLocalSupportedFeatures, .readLocalSupportedFeatures])
        var host = ScriptedHost(controller: .typical(supported: supported))
        host.start()
        #expect(host.controller.received == [
            HCI.Reset.opcode, HCI.ReadLocalVersionInformation.opcode, HCI.ReadLocalSupportedCommands.opcode,
            HCI.ReadLocalSupportedFeatures.opcode, HCI.LEReadBufferSize.opcode,
            HCI.LEReadLocalSupportedFeatures.opcode, HCI.SetEventMask.opcode, HCI.LESetEventMask.opcode,
        ])
        #expect(host.driver.isReady)
        #expect(host.driver.controller?.address == nil)
        #expect(host.driver.controller?.wroteSuggestedDataLength == false)
    }

    @Test("Optional commands answered Unknown HCI Command are tolerated; zero LE buffers fall back to Read Buffer Size")
    func adaptsToUnknownCommands() throws {
        var controller = ScriptedController.typical(supported: nil)
        controller.answers[HCI.ReadBDADDR.opcode] = nil
        controller.answers[HCI.LESetEventMask.opcode] = nil
        controller.answers[HCI.LEWriteSuggestedDefaultDataLength.opcode] = nil
        controller.answers[HCI.LEReadBufferSize.opcode] = HCI.LEReadBufferSize.ReturnParameters(
            status: .success, leACLDataPacketLength: 0, totalNumLEACLDataPackets: 0).encoded()
        controller.answers[HCI.ReadBufferSize.opcode] = HCI.ReadBufferSize.ReturnParameters(
            status: .success, aclDataPacketLength: 1021, synchronousDataPacketLength: 0,
            totalNumACLDataPackets: 5, totalNumSynchronousDataPackets: 0).encoded()
        var host = ScriptedHost(controller: controller)
        host.start()
        #expect(host.controller.received == [
            HCI.Reset.opcode, HCI.ReadLocalVersionInformation.opcode, HCI.ReadLocalSupportedCommands.opcode,
            HCI.ReadLocalSupportedFeatures.opcode, HCI.ReadBDADDR.opcode, HCI.LEReadBufferSize.opcode,
            HCI.ReadBufferSize.opcode, HCI.LEReadLocalSupportedFeatures.opcode, HCI.SetEventMask.opcode,
            HCI.LESetEventMask.opcode, HCI.LEWriteSuggestedDefaultDataLength.opcode,
        ])
        let info = try #require(host.driver.controller)
        #expect(info.supportedCommands == nil)
        #expect(info.address == nil)
        #expect(info.leEventMask == nil)
        #expect(!info.wroteSuggestedDataLength)
        #expect(info.leACLDataPacketLength == 1021)
        #expect(info.totalNumLEACLDataPackets == 5)
    }

    @Test("A required command refused fails start-up with its opcode and status")
    func requiredCommandFails() {
        var controller = ScriptedController.typical()
        controller.answers[HCI.SetEventMask.opcode] = [HCI.StatusCode.hardwareFailure.rawValue]
        var host = ScriptedHost(controller: controller)
        host.start()
        #expect(!host.driver.isReady)
        guard case let .failed(error)? = host.outputs.last else {
            Issue.record("expected a failure, got \(host.outputs)")
            return
        }
        #expect(error == .startupCommandFailed(HCI.SetEventMask.opcode, .hardwareFailure))
        #expect(error.description.contains("Set Event Mask"))
    }

    @Test("Malformed return parameters during start-up fail it with the field named")
    func malformedReturnParameters() {
        var controller = ScriptedController.typical()
        controller.answers[HCI.ReadBDADDR.opcode] = [0x00, 0x01, 0x02]
        var host = ScriptedHost(controller: controller)
        host.start()
        guard case let .failed(.malformedReturnParameters(opcode, error))? = host.outputs.last else {
            Issue.record("expected a malformed-parameters failure, got \(host.outputs)")
            return
        }
        #expect(opcode == HCI.ReadBDADDR.opcode)
        #expect(error.field.hasPrefix("HCI.ReadBDADDR"))
    }

    @Test("A start-up command left unanswered fails start-up after the command timeout")
    func startupTimeout() {
        var controller = ScriptedController.typical()
        controller.silent = [HCI.Reset.opcode]
        var host = ScriptedHost(controller: controller, configuration: HCIDriverConfiguration(commandTimeout: 500_000))
        host.start()
        #expect(host.driver.nextDeadline == 500_000)
        host.now = 499_999
        host.carryOut(host.driver.timerFired(at: host.now))
        #expect(host.outputs.isEmpty)
        host.now = 500_000
        host.carryOut(host.driver.timerFired(at: host.now))
        guard case let .failed(error)? = host.outputs.last else {
            Issue.record("expected a failure, got \(host.outputs)")
            return
        }
        #expect(error == .timeout(HCI.Reset.opcode))
        #expect(error.description.contains("Reset"))
        #expect(error.description.contains("timeout"))
    }
}
