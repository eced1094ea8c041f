extension HCI {
    /// Decoders of every command this module defines, by opcode.
    static let commandTypesByOpcode: [Opcode: any HCICommand.Type] = {
        var table: [Opcode: any HCICommand.Type] = [:]
        for type in commandTypes { table[type.opcode] = type }
        return table
    }()

    /// The typed command type for `opcode`, or `nil` if this module does not define it.
    public static func commandType(for opcode: Opcode) -> (any HCICommand.Type)? {
        commandTypesByOpcode[opcode]
    }

    /// Decodes a command packet into its typed command, as a controller (or a virtual one)
    /// receiving commands must.
    ///
    /// An opcode this module does not know throws ``WireError`` with field
    /// `"HCI.CommandPacket.opcode"` and reason ``WireError/Reason/unknownCode(_:)``, so the
    /// caller can answer Unknown HCI Command (0x01). Malformed parameters throw naming the
    /// field; parameters must span the packet exactly.
    public static func decodeCommand(_ packet: CommandPacket) throws(WireError) -> any HCICommand {
        guard let type = commandTypesByOpcode[packet.opcode] else {
            throw WireError(field: "HCI.CommandPacket.opcode", reason: .unknownCode(UInt64(packet.opcode.rawValue)))
        }
        return try type.init(decoding: packet.parameters)
    }

    /// Decodes the return parameters of a Command Complete event for `opcode` (Core 5.4,
    /// Vol 4, Part E, §7.7.14), for logs and tools.
    ///
    /// Controllers that reject a command may send only the status octet (Bumble does so
    /// for Read RSSI); a single non-success status octet therefore decodes as
    /// ``StatusReturnParameters``. An unknown opcode throws ``WireError/Reason/unknownCode(_:)``.
    public static func decodeReturnParameters(
        for opcode: Opcode, _ bytes: ArraySlice<UInt8>
    ) throws(WireError) -> any WireCodable {
        guard let type = commandTypesByOpcode[opcode] else {
            throw WireError(field: "HCI.CommandComplete.commandOpcode", reason: .unknownCode(UInt64(opcode.rawValue)))
        }
        if bytes.count == 1, let status = bytes.first, status != StatusCode.success.rawValue {
            return StatusReturnParameters(status: StatusCode(rawValue: status))
        }
        return try decodeReturnParameters(of: type, bytes)
    }

    private static func decodeReturnParameters<Command: HCICommand>(
        of type: Command.Type, _ bytes: ArraySlice<UInt8>
    ) throws(WireError) -> any WireCodable {
        try Command.ReturnParameters(decoding: bytes)
    }
}
extension HCI {
    /// Every typed command this module defines, one line each: the table behind
    /// ``decodeCommand(_:)`` and ``decodeReturnParameters(for:_:)``.
    public static let commandTypes: [any HCICommand.Type] = [
        Disconnect.self,
        ReadRemoteVersionInformation.self,
        SetEventMask.self,
        Reset.self,
        ReadTransmitPowerLevel.self,
        SetControllerToHostFlowControl.self,
        HostBufferSize.self,
        HostNumberOfCompletedPackets.self,
        SetEventMaskPage2.self,
        ReadLEHostSupport.self,
        WriteLEHostSupport.self,
        ReadAuthenticatedPayloadTimeout.self,
        WriteAuthenticatedPayloadTimeout.self,
        ReadLocalVersionInformation.self,
        ReadLocalSupportedCommands.self,
        ReadLocalSupportedFeatures.self,
        ReadLocalExtendedFeatures.self,
        ReadBufferSize.self,
        ReadBDADDR.self,
        ReadRSSI.self,
        ReadSimulatedLocation.self,
        ReadEncryptionKeySize.self,
        LESetEventMask.self,
        LEReadBufferSize.self,
        LEReadLocalSupportedFeatures.self,
        LESetRandomAddress.self,
        LESetAdvertisingParameters.self,
        LEReadAdvertisingPhysicalChannelTxPower.self,
        LESetAdvertisingData.self,
        LESetScanResponseData.self,
        LESetAdvertisingEnable.self,
        LESetScanParameters.self,
        LESetScanEnable.self,
        LECreateConnection.self,
        LECreateConnectionCancel.self,
        LEReadFilterAcceptListSize.self,
        LEClearFilterAcceptList.self,
        LEAddDeviceToFilterAcceptList.self,
        LERemoveDeviceFromFilterAcceptList.self,
        LEConnectionUpdate.self,
        LESetHostChannelClassification.self,
        LEReadChannelMap.self,
        LEReadRemoteFeatures.self,
        LEEncrypt.self,
        LERand.self,
        LEEnableEncryption.self,
        LELongTermKeyRequestReply.self,
        LELongTermKeyRequestNegativeReply.self,
        LEReadSupportedStates.self,
        LERemoteConnectionParameterRequestReply.self,
        LERemoteConnectionParameterRequestNegativeReply.self,
        LESetDataLength.self,
        LEReadSuggestedDefaultDataLength.self,
        LEWriteSuggestedDefaultDataLength.self,
        LEReadLocalP256PublicKey.self,
        LEGenerateDHKey.self,
        LEAddDeviceToResolvingList.self,
        LERemoveDeviceFromResolvingList.self,
        LEClearResolvingList.self,
        LEReadResolvingListSize.self,
        LEReadPeerResolvableAddress.self,
        LEReadLocalResolvableAddress.self,
        LESetAddressResolutionEnable.self,
        LESetResolvablePrivateAddressTimeout.self,
        LEReadMaximumDataLength.self,
        LEReadPHY.self,
        LESetDefaultPHY.self,
        LESetPHY.self,
        LESetAdvertisingSetRandomAddress.self,
        LESetExtendedAdvertisingParameters.self,
        LESetExtendedAdvertisingParametersV2.self,
        LESetExtendedAdvertisingData.self,
        LESetExtendedScanResponseData.self,
        LESetExtendedAdvertisingEnable.self,
        LEReadMaximumAdvertisingDataLength.self,
        LEReadNumberOfSupportedAdvertisingSets.self,
        LERemoveAdvertisingSet.self,
        LEClearAdvertisingSets.self,
        LESetExtendedScanParameters.self,
        LESetExtendedScanEnable.self,
        LEExtendedCreateConnection.self,
        LESetPeriodicAdvertisingParameters.self,
        LESetPeriodicAdvertisingData.self,
        LESetPeriodicAdvertisingEnable.self,
        LEPeriodicAdvertisingCreateSync.self,
        LEPeriodicAdvertisingCreateSyncCancel.self,
        LEPeriodicAdvertisingTerminateSync.self,
        LEReadTransmitPower.self,
        LESetPrivacyMode.self,
        LEReadBufferSizeV2.self,
    ]
}
