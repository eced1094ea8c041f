import BLEWire

/// Random valid values for the command round-trip tests: one of every command and of every
/// return-parameters type, drawn from a seeded generator so failures are reproducible.
extension SeededGenerator {
    mutating func u8() -> UInt8 { UInt8.random(in: .min ... .max, using: &self) }
    mutating func u16() -> UInt16 { UInt16.random(in: .min ... .max, using: &self) }
    mutating func u24() -> UInt32 { UInt32.random(in: 0 ... 0xFF_FFFF, using: &self) }
    mutating func u32() -> UInt32 { UInt32.random(in: .min ... .max, using: &self) }
    mutating func u64() -> UInt64 { next() }
    mutating func u128() -> UInt128 { UInt128(next()) << 64 | UInt128(next()) }
    mutating func i8() -> Int8 { Int8(bitPattern: u8()) }
    mutating func bool() -> Bool { Bool.random(using: &self) }
    mutating func handle() -> UInt16 { UInt16.random(in: 0 ... HCI.maximumConnectionHandle, using: &self) }
    mutating func status() -> HCI.StatusCode { HCI.StatusCode(rawValue: u8()) }
    mutating func pick<T: CaseIterable>(_ type: T.Type = T.self) -> T {
        let all = Array(T.allCases)
        return all[Int.random(in: 0 ..< all.count, using: &self)]
    }
    mutating func address(_ kind: BluetoothAddress.Kind) -> BluetoothAddress {
        BluetoothAddress(next(), kind: kind)
    }
    /// An address with a random public/random kind (for 0x00/0x01 Address_Type fields).
    mutating func typedAddress() -> BluetoothAddress { address(bool() ? .public : .random) }
    mutating func slice(upTo count: Int) -> ArraySlice<UInt8> { bytes(in: 0 ... count)[...] }
    mutating func optional<T>(_ make: (inout SeededGenerator) -> T) -> T? {
        bool() ? make(&self) : nil
    }
    mutating func connectionParameters() -> HCI.LEConnectionParameters {
        HCI.LEConnectionParameters(
            connectionIntervalMin: u16(), connectionIntervalMax: u16(), maxLatency: u16(),
            supervisionTimeout: u16(), minCELength: u16(), maxCELength: u16())
    }
    /// LE Set Extended Advertising Parameters [v1]'s fields, which [v2] carries too.
    mutating func extendedAdvertisingParameters() -> HCI.LESetExtendedAdvertisingParameters {
        HCI.LESetExtendedAdvertisingParameters(
            advertisingHandle: u8(), advertisingEventProperties: HCI.AdvertisingEventProperties(rawValue: u16()),
            primaryAdvertisingIntervalMin: u24(), primaryAdvertisingIntervalMax: u24(),
            primaryAdvertisingChannelMap: HCI.AdvertisingChannelMap(rawValue: u8()), ownAddressType: pick(),
            peerAddress: typedAddress(), advertisingFilterPolicy: pick(), advertisingTxPower: i8(),
            primaryAdvertisingPHY: pick(), secondaryAdvertisingMaxSkip: u8(), secondaryAdvertisingPHY: pick(),
            advertisingSID: u8(), scanRequestNotificationEnable: bool())
    }
    mutating func peer() -> (HCI.AddressType, BluetoothAddress) {
        let type = pick([HCI.AddressType.public, .random, .publicIdentity, .randomIdentity])
        return (type, address(type.addressKind))
    }
    mutating func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0 ..< values.count, using: &self)] }
}

enum CommandGenerators {
    /// One random instance of every command type in `HCI.commandTypes`.
    static func commands(using g: inout SeededGenerator) -> [any HCICommand] {
        let peer = g.peer()
        let filterType = g.pick([HCI.AddressType.public, .random, .anonymous])
        return [
            HCI.Disconnect(connectionHandle: g.handle(), reason: g.status()),
            HCI.ReadRemoteVersionInformation(connectionHandle: g.handle()),
            HCI.SetEventMask(eventMask: HCI.EventMask(rawValue: g.u64())),
            HCI.Reset(),
            HCI.ReadTransmitPowerLevel(connectionHandle: g.handle(), type: g.pick()),
            HCI.SetControllerToHostFlowControl(flowControlEnable: g.pick()),
            HCI.HostBufferSize(
                hostACLDataPacketLength: g.u16(), hostSynchronousDataPacketLength: g.u8(),
                hostTotalNumACLDataPackets: g.u16(), hostTotalNumSynchronousDataPackets: g.u16()),
            HCI.HostNumberOfCompletedPackets(entries: (0 ..< Int.random(in: 0 ... 8, using: &g)).map { _ in
                HCI.HostNumberOfCompletedPackets.Entry(connectionHandle: g.handle(), hostNumCompletedPackets: g.u16())
            }),
            HCI.SetEventMaskPage2(eventMaskPage2: g.u64()),
            HCI.ReadLEHostSupport(),
            HCI.WriteLEHostSupport(leSupportedHost: g.bool(), unused: g.u8()),
            HCI.ReadAuthenticatedPayloadTimeout(connectionHandle: g.handle()),
            HCI.WriteAuthenticatedPayloadTimeout(connectionHandle: g.handle(), authenticatedPayloadTimeout: g.u16()),
            HCI.ReadLocalVersionInformation(),
            HCI.ReadLocalSupportedCommands(),
            HCI.ReadLocalSupportedFeatures(),
            HCI.ReadLocalExtendedFeatures(pageNumber: g.u8()),
            HCI.ReadBufferSize(),
            HCI.ReadBDADDR(),
            HCI.ReadRSSI(connectionHandle: g.handle()),
            HCI.ReadSimulatedLocation(),
            HCI.ReadEncryptionKeySize(connectionHandle: g.handle()),
            HCI.LESetEventMask(leEventMask: HCI.LEEventMask(rawValue: g.u64())),
            HCI.LEReadBufferSize(),
            HCI.LEReadLocalSupportedFeatures(),
            HCI.LESetRandomAddress(randomAddress: g.address(.random)),
            HCI.LESetAdvertisingParameters(
                advertisingIntervalMin: g.u16(), advertisingIntervalMax: g.u16(), advertisingType: g.pick(),
                ownAddressType: g.pick(), peerAddress: g.typedAddress(),
                advertisingChannelMap: HCI.AdvertisingChannelMap(rawValue: g.u8()), advertisingFilterPolicy: g.pick()),
            HCI.LEReadAdvertisingPhysicalChannelTxPower(),
            HCI.LESetAdvertisingData(advertisingData: g.slice(upTo: 31)),
            HCI.LESetScanResponseData(scanResponseData: g.slice(upTo: 31)),
            HCI.LESetAdvertisingEnable(advertisingEnable: g.bool()),
            HCI.LESetScanParameters(
                leScanType: g.pick(), leScanInterval: g.u16(), leScanWindow: g.u16(),
                ownAddressType: g.pick(), scanningFilterPolicy: g.pick()),
            HCI.LESetScanEnable(leScanEnable: g.bool(), filterDuplicates: g.bool()),
            HCI.LECreateConnection(
                leScanInterval: g.u16(), leScanWindow: g.u16(), initiatorFilterPolicy: g.pick(),
                peerAddressType: peer.0, peerAddress: peer.1, ownAddressType: g.pick(),
                connectionParameters: g.connectionParameters()),
            HCI.LECreateConnectionCancel(),
            HCI.LEReadFilterAcceptListSize(),
            HCI.LEClearFilterAcceptList(),
            HCI.LEAddDeviceToFilterAcceptList(addressType: filterType, address: g.address(filterType.addressKind)),
            HCI.LERemoveDeviceFromFilterAcceptList(addressType: filterType, address: g.address(filterType.addressKind)),
            HCI.LEConnectionUpdate(connectionHandle: g.handle(), connectionParameters: g.connectionParameters()),
            HCI.LESetHostChannelClassification(channelMap: HCI.LEChannelMap(rawValue: g.u64())),
            HCI.LEReadChannelMap(connectionHandle: g.handle()),
            HCI.LEReadRemoteFeatures(connectionHandle: g.handle()),
            HCI.LEEncrypt(key: g.u128(), plaintextData: g.u128()),
            HCI.LERand(),
            HCI.LEEnableEncryption(
                connectionHandle: g.handle(), randomNumber: g.u64(), encryptedDiversifier: g.u16(), longTermKey: g.u128()),
            HCI.LELongTermKeyRequestReply(connectionHandle: g.handle(), longTermKey: g.u128()),
            HCI.LELongTermKeyRequestNegativeReply(connectionHandle: g.handle()),
            HCI.LEReadSupportedStates(),
            HCI.LERemoteConnectionParameterRequestReply(connectionHandle: g.handle(), connectionParameters: g.connectionParameters()),
            HCI.LERemoteConnectionParameterRequestNegativeReply(connectionHandle: g.handle(), reason: g.status()),
            HCI.LESetDataLength(connectionHandle: g.handle(), txOctets: g.u16(), txTime: g.u16()),
            HCI.LEReadSuggestedDefaultDataLength(),
            HCI.LEWriteSuggestedDefaultDataLength(suggestedMaxTxOctets: g.u16(), suggestedMaxTxTime: g.u16()),
            HCI.LEReadLocalP256PublicKey(),
            HCI.LEGenerateDHKey(remoteP256PublicKey: g.bytes(64)[...]),
            HCI.LEAddDeviceToResolvingList(peerIdentityAddress: g.typedAddress(), peerIRK: g.u128(), localIRK: g.u128()),
            HCI.LERemoveDeviceFromResolvingList(peerIdentityAddress: g.typedAddress()),
            HCI.LEClearResolvingList(),
            HCI.LEReadResolvingListSize(),
            HCI.LEReadPeerResolvableAddress(peerIdentityAddress: g.typedAddress()),
            HCI.LEReadLocalResolvableAddress(peerIdentityAddress: g.typedAddress()),
            HCI.LESetAddressResolutionEnable(addressResolutionEnable: g.bool()),
            HCI.LESetResolvablePrivateAddressTimeout(rpaTimeout: g.u16()),
            HCI.LEReadMaximumDataLength(),
            HCI.LEReadPHY(connectionHandle: g.handle()),
            HCI.LESetDefaultPHY(
                allPHYs: HCI.AllPHYsPreference(rawValue: g.u8()), txPHYs: HCI.LEPHYs(rawValue: g.u8()),
                rxPHYs: HCI.LEPHYs(rawValue: g.u8())),
            HCI.LESetPHY(
                connectionHandle: g.handle(), allPHYs: HCI.AllPHYsPreference(rawValue: g.u8()),
                txPHYs: HCI.LEPHYs(rawValue: g.u8()), rxPHYs: HCI.LEPHYs(rawValue: g.u8()), phyOptions: g.pick()),
            HCI.LESetAdvertisingSetRandomAddress(advertisingHandle: g.u8(), randomAddress: g.address(.random)),
            g.extendedAdvertisingParameters(),
            HCI.LESetExtendedAdvertisingParametersV2(
                g.extendedAdvertisingParameters(), primaryAdvertisingPHYOptions: g.pick(), secondaryAdvertisingPHYOptions: g.pick()),
            HCI.LESetExtendedAdvertisingData(
                advertisingHandle: g.u8(), operation: g.pick(), fragmentPreference: g.pick(),
                advertisingData: g.slice(upTo: 251)),
            HCI.LESetExtendedScanResponseData(
                advertisingHandle: g.u8(), operation: g.pick(), fragmentPreference: g.pick(),
                scanResponseData: g.slice(upTo: 251)),
            HCI.LESetExtendedAdvertisingEnable(enable: g.bool(), sets: (0 ..< Int.random(in: 0 ... 6, using: &g)).map { _ in
                HCI.LESetExtendedAdvertisingEnable.AdvertisingSet(
                    advertisingHandle: g.u8(), duration: g.u16(), maxExtendedAdvertisingEvents: g.u8())
            }),
            HCI.LEReadMaximumAdvertisingDataLength(),
            HCI.LEReadNumberOfSupportedAdvertisingSets(),
            HCI.LERemoveAdvertisingSet(advertisingHandle: g.u8()),
            HCI.LEClearAdvertisingSets(),
            HCI.LESetExtendedScanParameters(
                ownAddressType: g.pick(), scanningFilterPolicy: g.pick(),
                le1M: g.optional { $0.scanPHY() }, leCoded: g.optional { $0.scanPHY() }),
            HCI.LESetExtendedScanEnable(enable: g.bool(), filterDuplicates: g.pick(), duration: g.u16(), period: g.u16()),
            HCI.LEExtendedCreateConnection(
                initiatorFilterPolicy: g.pick(), ownAddressType: g.pick(), peerAddressType: peer.0, peerAddress: peer.1,
                le1M: g.optional { $0.initiatingPHY() }, le2M: g.optional { $0.initiatingPHY() },
                leCoded: g.optional { $0.initiatingPHY() }),
            HCI.LESetPeriodicAdvertisingParameters(
                advertisingHandle: g.u8(), periodicAdvertisingIntervalMin: g.u16(),
                periodicAdvertisingIntervalMax: g.u16(), periodicAdvertisingProperties: g.u16()),
            HCI.LESetPeriodicAdvertisingData(advertisingHandle: g.u8(), operation: g.pick(), advertisingData: g.slice(upTo: 252)),
            HCI.LESetPeriodicAdvertisingEnable(enable: g.bool(), includeADI: g.bool(), advertisingHandle: g.u8()),
            HCI.LEPeriodicAdvertisingCreateSync(
                options: .init(rawValue: g.u8()), advertisingSID: g.u8(), advertiserAddressType: peer.0,
                advertiserAddress: peer.1, skip: g.u16(), syncTimeout: g.u16(), syncCTEType: g.u8()),
            HCI.LEPeriodicAdvertisingCreateSyncCancel(),
            HCI.LEPeriodicAdvertisingTerminateSync(syncHandle: g.handle()),
            HCI.LEReadTransmitPower(),
            HCI.LESetPrivacyMode(peerIdentityAddress: g.typedAddress(), privacyMode: g.pick()),
            HCI.LEReadBufferSizeV2(),
        ]
    }

    /// One random instance of every return-parameters type, with the opcode it answers.
    static func returnParameters(using g: inout SeededGenerator) -> [(HCI.Opcode, any WireCodable)] {
        [
            (.readTransmitPowerLevel, HCI.ReadTransmitPowerLevel.ReturnParameters(
                status: g.status(), connectionHandle: g.handle(), transmitPowerLevel: g.i8())),
            (.readLEHostSupport, HCI.ReadLEHostSupport.ReturnParameters(status: g.status(), leSupportedHost: g.u8(), unused: g.u8())),
            (.readAuthenticatedPayloadTimeout, HCI.ReadAuthenticatedPayloadTimeout.ReturnParameters(
                status: g.status(), connectionHandle: g.handle(), authenticatedPayloadTimeout: g.u16())),
            (.writeAuthenticatedPayloadTimeout, HCI.StatusAndHandleReturnParameters(status: g.status(), connectionHandle: g.handle())),
            (.readLocalVersionInformation, HCI.ReadLocalVersionInformation.ReturnParameters(
                status: g.status(), hciVersion: g.u8(), hciSubversion: g.u16(), lmpVersion: g.u8(),
                companyIdentifier: g.u16(), lmpSubversion: g.u16())),
            (.readLocalSupportedCommands, HCI.ReadLocalSupportedCommands.ReturnParameters(
                status: g.status(), supportedCommands: HCI.SupportedCommands(words: (g.u128(), g.u128(), g.u128(), g.u128())))),
            (.readLocalSupportedFeatures, HCI.ReadLocalSupportedFeatures.ReturnParameters(status: g.status(), lmpFeatures: g.u64())),
            (.readLocalExtendedFeatures, HCI.ReadLocalExtendedFeatures.ReturnParameters(
                status: g.status(), pageNumber: g.u8(), maximumPageNumber: g.u8(), extendedLMPFeatures: g.u64())),
            (.readBufferSize, HCI.ReadBufferSize.ReturnParameters(
                status: g.status(), aclDataPacketLength: g.u16(), synchronousDataPacketLength: g.u8(),
                totalNumACLDataPackets: g.u16(), totalNumSynchronousDataPackets: g.u16())),
            (.readBDADDR, HCI.ReadBDADDR.ReturnParameters(status: g.status(), bdAddr: g.address(.public))),
            (.readRSSI, HCI.ReadRSSI.ReturnParameters(status: g.status(), connectionHandle: g.handle(), rssi: g.i8())),
            (.readSimulatedLocation, HCI.ReadSimulatedLocation.ReturnParameters(
                status: g.status(), hasOrigin: g.bool(), xMillimetres: Int32(bitPattern: g.u32()),
                yMillimetres: Int32(bitPattern: g.u32()), zMillimetres: Int32(bitPattern: g.u32()),
                headingCentidegrees: g.u16() % 36_000, originLatitude: Int32(bitPattern: g.u32()),
                originLongitude: Int32(bitPattern: g.u32()))),
            (.readEncryptionKeySize, HCI.ReadEncryptionKeySize.ReturnParameters(
                status: g.status(), connectionHandle: g.handle(), keySize: g.u8())),
            (.leReadBufferSize, HCI.LEReadBufferSize.ReturnParameters(
                status: g.status(), leACLDataPacketLength: g.u16(), totalNumLEACLDataPackets: g.u8())),
            (.leReadBufferSizeV2, HCI.LEReadBufferSizeV2.ReturnParameters(
                status: g.status(), leACLDataPacketLength: g.u16(), totalNumLEACLDataPackets: g.u8(),
                isoDataPacketLength: g.u16(), totalNumISODataPackets: g.u8())),
            (.leReadLocalSupportedFeatures, HCI.LEReadLocalSupportedFeatures.ReturnParameters(
                status: g.status(), leFeatures: HCI.LEFeatures(rawValue: g.u64()))),
            (.leReadAdvertisingPhysicalChannelTxPower, HCI.LEReadAdvertisingPhysicalChannelTxPower.ReturnParameters(
                status: g.status(), txPowerLevel: g.i8())),
            (.leReadFilterAcceptListSize, HCI.LEReadFilterAcceptListSize.ReturnParameters(
                status: g.status(), filterAcceptListSize: g.u8())),
            (.leReadChannelMap, HCI.LEReadChannelMap.ReturnParameters(
                status: g.status(), connectionHandle: g.handle(), channelMap: HCI.LEChannelMap(rawValue: g.u64()))),
            (.leEncrypt, HCI.LEEncrypt.ReturnParameters(status: g.status(), encryptedData: g.u128())),
            (.leRand, HCI.LERand.ReturnParameters(status: g.status(), randomNumber: g.u64())),
            (.leLongTermKeyRequestReply, HCI.StatusAndHandleReturnParameters(status: g.status(), connectionHandle: g.handle())),
            (.leLongTermKeyRequestNegativeReply, HCI.StatusAndHandleReturnParameters(status: g.status(), connectionHandle: g.handle())),
            (.leReadSupportedStates, HCI.LEReadSupportedStates.ReturnParameters(status: g.status(), leStates: g.u64())),
            (.leRemoteConnectionParameterRequestReply, HCI.StatusAndHandleReturnParameters(
                status: g.status(), connectionHandle: g.handle())),
            (.leRemoteConnectionParameterRequestNegativeReply, HCI.StatusAndHandleReturnParameters(
                status: g.status(), connectionHandle: g.handle())),
            (.leSetDataLength, HCI.StatusAndHandleReturnParameters(status: g.status(), connectionHandle: g.handle())),
            (.leReadSuggestedDefaultDataLength, HCI.LEReadSuggestedDefaultDataLength.ReturnParameters(
                status: g.status(), suggestedMaxTxOctets: g.u16(), suggestedMaxTxTime: g.u16())),
            (.leReadResolvingListSize, HCI.LEReadResolvingListSize.ReturnParameters(status: g.status(), resolvingListSize: g.u8())),
            (.leReadPeerResolvableAddress, HCI.LEReadPeerResolvableAddress.ReturnParameters(
                status: g.status(), peerResolvableAddress: g.address(.random))),
            (.leReadLocalResolvableAddress, HCI.LEReadLocalResolvableAddress.ReturnParameters(
                status: g.status(), localResolvableAddress: g.address(.random))),
            (.leReadMaximumDataLength, HCI.LEReadMaximumDataLength.ReturnParameters(
                status: g.status(), supportedMaxTxOctets: g.u16(), supportedMaxTxTime: g.u16(),
                supportedMaxRxOctets: g.u16(), supportedMaxRxTime: g.u16())),
            (.leReadPHY, HCI.LEReadPHY.ReturnParameters(
                status: g.status(), connectionHandle: g.handle(), txPHY: g.pick(), rxPHY: g.pick())),
            (.leSetExtendedAdvertisingParameters, HCI.LESetExtendedAdvertisingParameters.ReturnParameters(
                status: g.status(), selectedTxPower: g.i8())),
            (.leSetExtendedAdvertisingParametersV2, HCI.LESetExtendedAdvertisingParametersV2.ReturnParameters(
                status: g.status(), selectedTxPower: g.i8())),
            (.leReadMaximumAdvertisingDataLength, HCI.LEReadMaximumAdvertisingDataLength.ReturnParameters(
                status: g.status(), maxAdvertisingDataLength: g.u16())),
            (.leReadNumberOfSupportedAdvertisingSets, HCI.LEReadNumberOfSupportedAdvertisingSets.ReturnParameters(
                status: g.status(), numSupportedAdvertisingSets: g.u8())),
            (.leReadTransmitPower, HCI.LEReadTransmitPower.ReturnParameters(
                status: g.status(), minTxPower: g.i8(), maxTxPower: g.i8())),
            (.reset, HCI.StatusReturnParameters(status: g.status())),
        ]
    }
}

extension SeededGenerator {
    mutating func scanPHY() -> HCI.LESetExtendedScanParameters.PHYParameters {
        HCI.LESetExtendedScanParameters.PHYParameters(scanType: pick(), scanInterval: u16(), scanWindow: u16())
    }

    mutating func initiatingPHY() -> HCI.LEExtendedCreateConnection.PHYParameters {
        HCI.LEExtendedCreateConnection.PHYParameters(
            scanInterval: u16(), scanWindow: u16(), connectionParameters: connectionParameters())
    }
}
