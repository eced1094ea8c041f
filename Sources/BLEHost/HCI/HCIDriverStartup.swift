import BLEWire

/// One command of the start-up sequence (Core 5.4, Vol 4, Part E, §7.3, §7.4 and §7.8),
/// in the order sent.
enum HCIStartupStep: Hashable, Sendable {
    case reset
    case readLocalVersionInformation
    case readLocalSupportedCommands
    case readLocalSupportedFeatures
    case readBDADDR
    case leReadBufferSizeV2
    case leReadBufferSize
    case readBufferSize
    case leReadLocalSupportedFeatures
    case setEventMask
    case leSetEventMask
    case leWriteSuggestedDefaultDataLength

    /// Whether start-up goes on without this command when the controller does not know it
    /// (answers 0x01 Unknown HCI Command).
    var isOptional: Bool {
        switch self {
        case .reset, .leReadBufferSize, .readBufferSize, .setEventMask: return false
        default: return true
        }
    }
}

/// What the start-up sequence has learned so far and which command it waits for.
struct HCIStartup: Sendable {
    var step: HCIStartupStep = .reset
    var info = ControllerInfo()

    /// What to do after one start-up answer.
    enum Progress: Sendable {
        /// Send this command next.
        case send(HCIStartupStep, HCI.CommandPacket)
        /// Start-up is complete.
        case finished(ControllerInfo)
        /// Start-up cannot go on.
        case failed(HCIDriverError)
    }

    /// The packet for `step`.
    func packet(for step: HCIStartupStep, configuration: HCIDriverConfiguration) -> HCI.CommandPacket {
        switch step {
        case .reset: return Self.packet(HCI.Reset())
        case .readLocalVersionInformation: return Self.packet(HCI.ReadLocalVersionInformation())
        case .readLocalSupportedCommands: return Self.packet(HCI.ReadLocalSupportedCommands())
        case .readLocalSupportedFeatures: return Self.packet(HCI.ReadLocalSupportedFeatures())
        case .readBDADDR: return Self.packet(HCI.ReadBDADDR())
        case .leReadBufferSizeV2: return Self.packet(HCI.LEReadBufferSizeV2())
        case .leReadBufferSize: return Self.packet(HCI.LEReadBufferSize())
        case .readBufferSize: return Self.packet(HCI.ReadBufferSize())
        case .leReadLocalSupportedFeatures: return Self.packet(HCI.LEReadLocalSupportedFeatures())
        case .setEventMask: return Self.packet(HCI.SetEventMask(eventMask: configuration.eventMask))
        case .leSetEventMask: return Self.packet(HCI.LESetEventMask(leEventMask: leEventMask(configuration)))
        case .leWriteSuggestedDefaultDataLength:
            let length = configuration.suggestedDataLength ?? HCIDriverConfiguration.SuggestedDataLength()
            return Self.packet(HCI.LEWriteSuggestedDefaultDataLength(
                suggestedMaxTxOctets: length.maxTxOctets, suggestedMaxTxTime: length.maxTxTime))
        }
    }

    /// The wanted LE subevents the controller can generate, judged from its LE features and
    /// supported commands (§7.8.1: the host enables only what it handles).
    func leEventMask(_ configuration: HCIDriverConfiguration) -> HCI.LEEventMask {
        let features = info.leFeatures
        var possible: HCI.LEEventMask = [
            .connectionComplete, .advertisingReport, .connectionUpdateComplete, .readRemoteFeaturesComplete,
        ]
        if features.contains(.leEncryption) { possible.insert(.longTermKeyRequest) }
        if features.contains(.connectionParametersRequestProcedure) { possible.insert(.remoteConnectionParameterRequest) }
        if features.contains(.leDataPacketLengthExtension) { possible.insert(.dataLengthChange) }
        if info.mayAnswer(.leReadLocalP256PublicKey) { possible.insert(.readLocalP256PublicKeyComplete) }
        if info.mayAnswer(.leGenerateDHKey) { possible.insert(.generateDHKeyComplete) }
        if features.contains(.llPrivacy) { possible.formUnion([.enhancedConnectionComplete, .directedAdvertisingReport]) }
        if !features.isDisjoint(with: [.le2MPHY, .leCodedPHY]) { possible.insert(.phyUpdateComplete) }
        if features.contains(.leExtendedAdvertising) {
            possible.formUnion([.enhancedConnectionComplete, .extendedAdvertisingReport, .scanTimeout,
                                .advertisingSetTerminated, .scanRequestReceived])
        }
        if features.contains(.channelSelectionAlgorithm2) { possible.insert(.channelSelectionAlgorithm) }
        if features.contains(.lePeriodicAdvertising) {
            possible.formUnion([.periodicAdvertisingSyncEstablished, .periodicAdvertisingReport, .periodicAdvertisingSyncLost])
        }
        return configuration.leEventMask.intersection(possible)
    }

    /// The command after `step`, skipping those the controller does not claim.
    func step(after step: HCIStartupStep, configuration: HCIDriverConfiguration) -> HCIStartupStep? {
        var candidate = Self.successor(of: step, info: info)
        while let next = candidate, !shouldSend(next, configuration: configuration) {
            candidate = Self.successor(of: next, info: info)
        }
        return candidate
    }

    private func shouldSend(_ step: HCIStartupStep, configuration: HCIDriverConfiguration) -> Bool {
        switch step {
        case .readLocalSupportedFeatures: return info.mayAnswer(.readLocalSupportedFeatures)
        case .readBDADDR: return info.mayAnswer(.readBDADDR)
        // v2 only when claimed: an unknown controller gets v1, which every LE controller has.
        case .leReadBufferSizeV2: return info.supportedCommands?.contains(.leReadBufferSizeV2) ?? false
        case .leReadLocalSupportedFeatures: return info.mayAnswer(.leReadLocalSupportedFeatures)
        case .leSetEventMask: return info.mayAnswer(.leSetEventMask)
        case .leWriteSuggestedDefaultDataLength:
            return configuration.suggestedDataLength != nil && info.mayAnswer(.leWriteSuggestedDefaultDataLength)
        default: return true
        }
    }

    private static func successor(of step: HCIStartupStep, info: ControllerInfo) -> HCIStartupStep? {
        switch step {
        case .reset: return .readLocalVersionInformation
        case .readLocalVersionInformation: return .readLocalSupportedCommands
        case .readLocalSupportedCommands: return .readLocalSupportedFeatures
        case .readLocalSupportedFeatures: return .readBDADDR
        case .readBDADDR: return .leReadBufferSizeV2
        case .leReadBufferSizeV2:
            // Answered: go on unless it returned zeros; not sent or refused: ask v1.
            return info.totalNumLEACLDataPackets > 0 ? .leReadLocalSupportedFeatures : .leReadBufferSize
        case .leReadBufferSize:
            // §7.8.2: zero length means the LE traffic shares the Read Buffer Size buffers.
            return info.leACLDataPacketLength == 0 || info.totalNumLEACLDataPackets == 0
                ? .readBufferSize : .leReadLocalSupportedFeatures
        case .readBufferSize: return .leReadLocalSupportedFeatures
        case .leReadLocalSupportedFeatures: return .setEventMask
        case .setEventMask: return .leSetEventMask
        case .leSetEventMask: return .leWriteSuggestedDefaultDataLength
        case .leWriteSuggestedDefaultDataLength: return nil
        }
    }

    /// Takes the answer to the current step and says what comes next.
    mutating func answer(_ event: HCI.Event, configuration: HCIDriverConfiguration) -> Progress? {
        let opcode = packet(for: step, configuration: configuration).opcode
        let status: HCI.StatusCode
        var returnParameters: ArraySlice<UInt8> = []
        switch event {
        case let .commandComplete(complete):
            returnParameters = complete.returnParameters
            var reader = ByteReader(complete.returnParameters)
            guard let decoded = try? HCI.StatusCode(from: &reader, field: "HCI.CommandComplete.status") else {
                return .failed(.malformedReturnParameters(opcode, WireError(
                    field: "HCI.CommandComplete.returnParameters", reason: .truncated(needed: 1, available: 0))))
            }
            status = decoded
        case let .commandStatus(commandStatus):
            // None of the start-up commands is answered by Command Status; a success here
            // only means "pending", so wait for the Command Complete.
            guard commandStatus.status != .success else { return nil }
            status = commandStatus.status
        default:
            return nil
        }
        if status == .success {
            do throws(WireError) {
                try learn(from: returnParameters, configuration: configuration)
            } catch {
                return .failed(.malformedReturnParameters(opcode, error))
            }
        } else if status == .unknownHCICommand, step.isOptional {
            if step == .leSetEventMask { info.leEventMask = nil }
        } else {
            return .failed(.startupCommandFailed(opcode, status))
        }
        guard let next = self.step(after: step, configuration: configuration) else {
            guard info.leACLDataPacketLength > 0, info.totalNumLEACLDataPackets > 0 else { return .failed(.noACLBuffers) }
            return .finished(info)
        }
        step = next
        return .send(next, packet(for: next, configuration: configuration))
    }

    /// Records what a successful answer to the current step says.
    private mutating func learn(from parameters: ArraySlice<UInt8>, configuration: HCIDriverConfiguration) throws(WireError) {
        switch step {
        case .reset, .setEventMask:
            break
        case .readLocalVersionInformation:
            let version = try HCI.ReadLocalVersionInformation.ReturnParameters(decoding: parameters)
            info.hciVersion = version.hciVersion
            info.lmpVersion = version.lmpVersion
            info.companyIdentifier = version.companyIdentifier
        case .readLocalSupportedCommands:
            info.supportedCommands = try HCI.ReadLocalSupportedCommands.ReturnParameters(decoding: parameters).supportedCommands
        case .readLocalSupportedFeatures:
            info.lmpFeatures = try HCI.ReadLocalSupportedFeatures.ReturnParameters(decoding: parameters).lmpFeatures
        case .readBDADDR:
            info.address = try HCI.ReadBDADDR.ReturnParameters(decoding: parameters).bdAddr
        case .leReadBufferSizeV2:
            let sizes = try HCI.LEReadBufferSizeV2.ReturnParameters(decoding: parameters)
            info.leACLDataPacketLength = Int(sizes.leACLDataPacketLength)
            info.totalNumLEACLDataPackets = Int(sizes.totalNumLEACLDataPackets)
            if info.leACLDataPacketLength == 0 { info.totalNumLEACLDataPackets = 0 }
        case .leReadBufferSize:
            let sizes = try HCI.LEReadBufferSize.ReturnParameters(decoding: parameters)
            info.leACLDataPacketLength = Int(sizes.leACLDataPacketLength)
            info.totalNumLEACLDataPackets = Int(sizes.totalNumLEACLDataPackets)
        case .readBufferSize:
            let sizes = try HCI.ReadBufferSize.ReturnParameters(decoding: parameters)
            info.leACLDataPacketLength = Int(sizes.aclDataPacketLength)
            info.totalNumLEACLDataPackets = Int(sizes.totalNumACLDataPackets)
        case .leReadLocalSupportedFeatures:
            info.leFeatures = try HCI.LEReadLocalSupportedFeatures.ReturnParameters(decoding: parameters).leFeatures
        case .leSetEventMask:
            // The mask sent is a function of what was learned before it.
            info.leEventMask = leEventMask(configuration)
        case .leWriteSuggestedDefaultDataLength:
            info.wroteSuggestedDataLength = true
        }
    }

    private static func packet<Command: HCICommand>(_ command: Command) -> HCI.CommandPacket {
        HCI.CommandPacket(opcode: Command.opcode, parameters: command.encoded()[...])
    }
}
