import BLECrypto
import BLEWire

extension Controller {
    /// HCI version and LMP/LL version reported: 0x0D, Core 5.4 (Assigned Numbers).
    public static let coreVersion: UInt8 = 0x0D
    /// Company identifier reported: 0xFFFF, reserved for tests and unassigned use.
    public static let companyIdentifier: UInt16 = 0xFFFF
    /// The LE features this controller and its connection link layer implement (Core 5.4,
    /// Vol 6, Part B, §4.6).
    public static let leFeatures: HCI.LEFeatures = [
        .leEncryption, .extendedRejectIndication, .peripheralInitiatedFeaturesExchange, .lePing,
        .leDataPacketLengthExtension, .le2MPHY, .llPrivacy,
    ]
    /// LMP features page 0: BR/EDR Not Supported (bit 37) and LE Supported (Controller)
    /// (bit 38) (Core 5.4, Vol 2, Part C, §3.3).
    public static let lmpFeatures: UInt64 = 1 << 37 | 1 << 38

    /// The commands this controller answers with their own behaviour, and their bits in the
    /// Supported Commands field (Vol 4, Part E, §6.27). Everything else is Unknown HCI Command.
    static let supportedCommands: [(opcode: HCI.Opcode, entry: HCI.SupportedCommands.Entry)] = [
        (HCI.Disconnect.opcode, .disconnect),
        (HCI.ReadRemoteVersionInformation.opcode, .readRemoteVersionInformation),
        (HCI.SetEventMask.opcode, .setEventMask),
        (HCI.Reset.opcode, .reset),
        (HCI.ReadTransmitPowerLevel.opcode, .readTransmitPowerLevel),
        (HCI.SetControllerToHostFlowControl.opcode, .setControllerToHostFlowControl),
        (HCI.HostBufferSize.opcode, .hostBufferSize),
        (HCI.HostNumberOfCompletedPackets.opcode, .hostNumberOfCompletedPackets),
        (HCI.SetEventMaskPage2.opcode, .setEventMaskPage2),
        (HCI.ReadLEHostSupport.opcode, .readLEHostSupport),
        (HCI.WriteLEHostSupport.opcode, .writeLEHostSupport),
        (HCI.ReadAuthenticatedPayloadTimeout.opcode, .readAuthenticatedPayloadTimeout),
        (HCI.WriteAuthenticatedPayloadTimeout.opcode, .writeAuthenticatedPayloadTimeout),
        (HCI.ReadLocalVersionInformation.opcode, .readLocalVersionInformation),
        (HCI.ReadLocalSupportedFeatures.opcode, .readLocalSupportedFeatures),
        (HCI.ReadLocalExtendedFeatures.opcode, .readLocalExtendedFeatures),
        (HCI.ReadBufferSize.opcode, .readBufferSize),
        (HCI.ReadBDADDR.opcode, .readBDADDR),
        (HCI.ReadRSSI.opcode, .readRSSI),
        (HCI.ReadEncryptionKeySize.opcode, .readEncryptionKeySize),
        (HCI.LESetEventMask.opcode, .leSetEventMask),
        (HCI.LEReadBufferSize.opcode, .leReadBufferSize),
        (HCI.LEReadLocalSupportedFeatures.opcode, .leReadLocalSupportedFeatures),
        (HCI.LESetRandomAddress.opcode, .leSetRandomAddress),
        (HCI.LESetAdvertisingParameters.opcode, .leSetAdvertisingParameters),
        (HCI.LEReadAdvertisingPhysicalChannelTxPower.opcode, .leReadAdvertisingPhysicalChannelTxPower),
        (HCI.LESetAdvertisingData.opcode, .leSetAdvertisingData),
        (HCI.LESetScanResponseData.opcode, .leSetScanResponseData),
        (HCI.LESetAdvertisingEnable.opcode, .leSetAdvertisingEnable),
        (HCI.LESetScanParameters.opcode, .leSetScanParameters),
        (HCI.LESetScanEnable.opcode, .leSetScanEnable),
        (HCI.LECreateConnection.opcode, .leCreateConnection),
        (HCI.LECreateConnectionCancel.opcode, .leCreateConnectionCancel),
        (HCI.LEReadFilterAcceptListSize.opcode, .leReadFilterAcceptListSize),
        (HCI.LEClearFilterAcceptList.opcode, .leClearFilterAcceptList),
        (HCI.LEAddDeviceToFilterAcceptList.opcode, .leAddDeviceToFilterAcceptList),
        (HCI.LERemoveDeviceFromFilterAcceptList.opcode, .leRemoveDeviceFromFilterAcceptList),
        (HCI.LEConnectionUpdate.opcode, .leConnectionUpdate),
        (HCI.LESetHostChannelClassification.opcode, .leSetHostChannelClassification),
        (HCI.LEReadChannelMap.opcode, .leReadChannelMap),
        (HCI.LEReadRemoteFeatures.opcode, .leReadRemoteFeatures),
        (HCI.LEEncrypt.opcode, .leEncrypt),
        (HCI.LERand.opcode, .leRand),
        (HCI.LEEnableEncryption.opcode, .leEnableEncryption),
        (HCI.LELongTermKeyRequestReply.opcode, .leLongTermKeyRequestReply),
        (HCI.LELongTermKeyRequestNegativeReply.opcode, .leLongTermKeyRequestNegativeReply),
        (HCI.LEReadSupportedStates.opcode, .leReadSupportedStates),
        (HCI.LESetDataLength.opcode, .leSetDataLength),
        (HCI.LEReadSuggestedDefaultDataLength.opcode, .leReadSuggestedDefaultDataLength),
        (HCI.LEWriteSuggestedDefaultDataLength.opcode, .leWriteSuggestedDefaultDataLength),
        (HCI.LEAddDeviceToResolvingList.opcode, .leAddDeviceToResolvingList),
        (HCI.LERemoveDeviceFromResolvingList.opcode, .leRemoveDeviceFromResolvingList),
        (HCI.LEClearResolvingList.opcode, .leClearResolvingList),
        (HCI.LEReadResolvingListSize.opcode, .leReadResolvingListSize),
        (HCI.LEReadPeerResolvableAddress.opcode, .leReadPeerResolvableAddress),
        (HCI.LEReadLocalResolvableAddress.opcode, .leReadLocalResolvableAddress),
        (HCI.LESetAddressResolutionEnable.opcode, .leSetAddressResolutionEnable),
        (HCI.LESetResolvablePrivateAddressTimeout.opcode, .leSetResolvablePrivateAddressTimeout),
        (HCI.LEReadMaximumDataLength.opcode, .leReadMaximumDataLength),
        (HCI.LEReadPHY.opcode, .leReadPHY),
        (HCI.LESetDefaultPHY.opcode, .leSetDefaultPHY),
        (HCI.LESetPHY.opcode, .leSetPHY),
        (HCI.LEReadTransmitPower.opcode, .leReadTransmitPower),
        (HCI.LESetPrivacyMode.opcode, .leSetPrivacyMode),
        (HCI.LEReadBufferSizeV2.opcode, .leReadBufferSizeV2),
    ]

    /// The extended advertising and scanning commands: always answered, but claimed in the
    /// Supported Commands field only with ``ControllerConfiguration/claimsExtendedAdvertising``,
    /// beside the LE Extended Advertising feature they belong to (Vol 4, Part E, §3.1.1). Hosts
    /// choose the family from the field: Linux picks extended scanning from these bits alone,
    /// and then mixing it with its legacy advertising is refused with Command Disallowed.
    static let extendedAdvertisingCommands: [(opcode: HCI.Opcode, entry: HCI.SupportedCommands.Entry)] = [
        (HCI.LESetAdvertisingSetRandomAddress.opcode, .leSetAdvertisingSetRandomAddress),
        (HCI.LESetExtendedAdvertisingParameters.opcode, .leSetExtendedAdvertisingParameters),
        (HCI.LESetExtendedAdvertisingParametersV2.opcode, .leSetExtendedAdvertisingParametersV2),
        (HCI.LESetExtendedAdvertisingData.opcode, .leSetExtendedAdvertisingData),
        (HCI.LESetExtendedScanResponseData.opcode, .leSetExtendedScanResponseData),
        (HCI.LESetExtendedAdvertisingEnable.opcode, .leSetExtendedAdvertisingEnable),
        (HCI.LEReadMaximumAdvertisingDataLength.opcode, .leReadMaximumAdvertisingDataLength),
        (HCI.LEReadNumberOfSupportedAdvertisingSets.opcode, .leReadNumberOfSupportedAdvertisingSets),
        (HCI.LERemoveAdvertisingSet.opcode, .leRemoveAdvertisingSet),
        (HCI.LEClearAdvertisingSets.opcode, .leClearAdvertisingSets),
        (HCI.LESetExtendedScanParameters.opcode, .leSetExtendedScanParameters),
        (HCI.LESetExtendedScanEnable.opcode, .leSetExtendedScanEnable),
    ]

    /// The Supported Commands field this controller reports by default.
    public static let supportedCommandsField = HCI.SupportedCommands(supportedCommands.map(\.entry))

    /// The commands claimed only with ``ControllerConfiguration/claimsExtendedAdvertising``.
    static let extendedFeatureCommands: [(opcode: HCI.Opcode, entry: HCI.SupportedCommands.Entry)] = [
        (HCI.LEExtendedCreateConnection.opcode, .leExtendedCreateConnection),
        (HCI.LESetPeriodicAdvertisingParameters.opcode, .leSetPeriodicAdvertisingParameters),
        (HCI.LESetPeriodicAdvertisingData.opcode, .leSetPeriodicAdvertisingData),
        (HCI.LESetPeriodicAdvertisingEnable.opcode, .leSetPeriodicAdvertisingEnable),
        (HCI.LEPeriodicAdvertisingCreateSync.opcode, .lePeriodicAdvertisingCreateSync),
        (HCI.LEPeriodicAdvertisingCreateSyncCancel.opcode, .lePeriodicAdvertisingCreateSyncCancel),
        (HCI.LEPeriodicAdvertisingTerminateSync.opcode, .lePeriodicAdvertisingTerminateSync),
    ]

    /// The Supported Commands field this controller reports with its configuration.
    var reportedSupportedCommands: HCI.SupportedCommands {
        guard configuration.claimsExtendedAdvertising else { return Controller.supportedCommandsField }
        return HCI.SupportedCommands((Controller.supportedCommands + Controller.extendedAdvertisingCommands
                                      + Controller.extendedFeatureCommands).map(\.entry))
    }

    /// The LE features this controller reports with its configuration: a controller that
    /// claims extended advertising also has the LE Coded PHY (bit 11) for its advertising
    /// sets, extended scans and connections (Vol 6, Part B, §4.6.12), which move to it by the
    /// PHY update procedure, and LE Periodic Advertising (bit 13) for its sets' trains.
    var reportedLEFeatures: HCI.LEFeatures {
        var features = configuration.claimsExtendedAdvertising
            ? Controller.leFeatures.union([.leExtendedAdvertising, .leCodedPHY, .lePeriodicAdvertising]) : Controller.leFeatures
        if configuration.claimsChannelSelectionAlgorithm2 { features.insert(.channelSelectionAlgorithm2) }
        return features
    }

    /// Whether this controller, with its configuration, implements the command with `opcode`.
    func supports(_ opcode: HCI.Opcode) -> Bool {
        Controller.isSupported(opcode)
            || configuration.claimsExtendedAdvertising && Controller.extendedFeatureCommands.contains { $0.opcode == opcode }
    }

    /// Whether the controller implements the command with `opcode`.
    static func isSupported(_ opcode: HCI.Opcode) -> Bool {
        // Read Local Supported Commands has no bit of its own: every controller has it.
        opcode == HCI.ReadLocalSupportedCommands.opcode || supportedCommands.contains { $0.opcode == opcode }
            || extendedAdvertisingCommands.contains { $0.opcode == opcode }
    }

    /// The transmit power as the HCI reports it, in whole dBm.
    var txPowerLevel: Int8 { Int8(clamping: Int(configuration.txPowerDBm.rounded())) }

    /// Commands answered at once with return parameters from the controller's own state;
    /// `nil` if `command` is not one of them (or answered on its own).
    mutating func handleControllerCommand(_ command: any HCICommand) -> [UInt8]? {
        let ok = HCI.StatusCode.success
        let okOnly = [ok.rawValue]
        switch command {
        case is HCI.Reset:
            reset()
            return okOnly
        case let command as HCI.SetEventMask:
            eventMask = command.eventMask
            return okOnly
        case let command as HCI.SetEventMaskPage2:
            eventMaskPage2 = command.eventMaskPage2
            return okOnly
        case let command as HCI.LESetEventMask:
            leEventMask = command.leEventMask
            return okOnly
        case let command as HCI.SetControllerToHostFlowControl:
            controllerToHostFlowControl = command.flowControlEnable
            return okOnly
        case is HCI.HostBufferSize:
            return okOnly
        case is HCI.HostNumberOfCompletedPackets:
            // §7.3.40: no event on success (flow control towards the host is not enforced).
            return nil
        case is HCI.ReadLEHostSupport:
            return HCI.ReadLEHostSupport.ReturnParameters(status: ok, leSupportedHost: leHostSupported ? 1 : 0).encoded()
        case let command as HCI.WriteLEHostSupport:
            leHostSupported = command.leSupportedHost
            return okOnly
        case is HCI.ReadLocalVersionInformation:
            return HCI.ReadLocalVersionInformation.ReturnParameters(
                status: ok, hciVersion: Controller.coreVersion, hciSubversion: 0, lmpVersion: Controller.coreVersion,
                companyIdentifier: Controller.companyIdentifier, lmpSubversion: 0).encoded()
        case is HCI.ReadLocalSupportedCommands:
            return HCI.ReadLocalSupportedCommands.ReturnParameters(
                status: ok, supportedCommands: reportedSupportedCommands).encoded()
        case is HCI.ReadLocalSupportedFeatures:
            return HCI.ReadLocalSupportedFeatures.ReturnParameters(status: ok, lmpFeatures: Controller.lmpFeatures).encoded()
        case let command as HCI.ReadLocalExtendedFeatures:
            let features = command.pageNumber == 0 ? Controller.lmpFeatures : 0
            return HCI.ReadLocalExtendedFeatures.ReturnParameters(
                status: ok, pageNumber: command.pageNumber, maximumPageNumber: 0, extendedLMPFeatures: features).encoded()
        case is HCI.ReadBufferSize:
            return HCI.ReadBufferSize.ReturnParameters(
                status: ok, aclDataPacketLength: UInt16(clamping: configuration.leACLBufferSize),
                synchronousDataPacketLength: 0,
                totalNumACLDataPackets: UInt16(clamping: configuration.leACLBufferCount),
                totalNumSynchronousDataPackets: 0).encoded()
        case is HCI.ReadBDADDR:
            return HCI.ReadBDADDR.ReturnParameters(status: ok, bdAddr: configuration.publicAddress).encoded()
        case is HCI.LEReadBufferSize:
            return HCI.LEReadBufferSize.ReturnParameters(
                status: ok, leACLDataPacketLength: UInt16(clamping: configuration.leACLBufferSize),
                totalNumLEACLDataPackets: UInt8(clamping: configuration.leACLBufferCount)).encoded()
        case is HCI.LEReadBufferSizeV2:
            return HCI.LEReadBufferSizeV2.ReturnParameters(
                status: ok, leACLDataPacketLength: UInt16(clamping: configuration.leACLBufferSize),
                totalNumLEACLDataPackets: UInt8(clamping: configuration.leACLBufferCount),
                isoDataPacketLength: 0, totalNumISODataPackets: 0).encoded()
        case is HCI.LEReadLocalSupportedFeatures:
            return HCI.LEReadLocalSupportedFeatures.ReturnParameters(status: ok, leFeatures: reportedLEFeatures).encoded()
        case is HCI.LEReadSupportedStates:
            // Every state and combination of Core 5.4, Vol 4, Part E, §7.8.27 (bits 0–41):
            // the one radio is shared by priority, so no combination is refused.
            return HCI.LEReadSupportedStates.ReturnParameters(status: ok, leStates: 0x3FF_FFFF_FFFF).encoded()
        case is HCI.LEReadAdvertisingPhysicalChannelTxPower:
            return HCI.LEReadAdvertisingPhysicalChannelTxPower.ReturnParameters(status: ok, txPowerLevel: txPowerLevel).encoded()
        case is HCI.LEReadTransmitPower:
            return HCI.LEReadTransmitPower.ReturnParameters(status: ok, minTxPower: txPowerLevel, maxTxPower: txPowerLevel).encoded()
        case is HCI.LEReadFilterAcceptListSize:
            return HCI.LEReadFilterAcceptListSize.ReturnParameters(
                status: ok, filterAcceptListSize: UInt8(clamping: configuration.filterAcceptListSize)).encoded()
        case let command as HCI.LESetHostChannelClassification:
            // §7.8.19: at least two channels must stay usable.
            guard command.channelMap.rawValue.nonzeroBitCount >= 2, command.channelMap.rawValue >> 37 == 0 else {
                return [HCI.StatusCode.invalidHCICommandParameters.rawValue]
            }
            hostChannelClassification = command.channelMap.rawValue
            return okOnly
        case let command as HCI.LEEncrypt:
            guard let encrypted = try? BLECrypto.e(key: command.key, plaintext: command.plaintextData) else {
                return [HCI.StatusCode.unspecifiedError.rawValue]
            }
            return HCI.LEEncrypt.ReturnParameters(status: ok, encryptedData: encrypted).encoded()
        case is HCI.LERand:
            return HCI.LERand.ReturnParameters(status: ok, randomNumber: random.next()).encoded()
        case is HCI.LEReadSuggestedDefaultDataLength:
            return HCI.LEReadSuggestedDefaultDataLength.ReturnParameters(
                status: ok, suggestedMaxTxOctets: suggestedMaxTxOctets, suggestedMaxTxTime: suggestedMaxTxTime).encoded()
        case let command as HCI.LEWriteSuggestedDefaultDataLength:
            guard (27 ... 251).contains(command.suggestedMaxTxOctets), (328 ... 17040).contains(command.suggestedMaxTxTime)
            else { return [HCI.StatusCode.invalidHCICommandParameters.rawValue] }
            suggestedMaxTxOctets = command.suggestedMaxTxOctets
            suggestedMaxTxTime = command.suggestedMaxTxTime
            return okOnly
        case is HCI.LEReadMaximumDataLength:
            return HCI.LEReadMaximumDataLength.ReturnParameters(
                status: ok, supportedMaxTxOctets: 251, supportedMaxTxTime: 2120,
                supportedMaxRxOctets: 251, supportedMaxRxTime: 2120).encoded()
        case let command as HCI.LESetDefaultPHY:
            guard !namesUnsupportedPHY(allPHYs: command.allPHYs, tx: command.txPHYs, rx: command.rxPHYs)
            else { return [HCI.StatusCode.unsupportedFeatureOrParameterValue.rawValue] }
            defaultPHY = command
            return okOnly
        default:
            return handlePrivacyCommand(command)
        }
    }

    /// HCI_Reset (§7.3.2): every state back to its default; connections are dropped without
    /// events, advertising, scanning and initiating stop, masks return to their defaults.
    mutating func reset() {
        var fresh = Controller(configuration: configuration)
        fresh.random = random
        fresh.now = now
        fresh.counters = counters
        fresh.currentWindow = currentWindow
        self = fresh
    }
}
