import BLEWire

extension ScenarioAdvertisingContent {
    /// Flags written into advertising data when a scenario gives none: LE General
    /// Discoverable and BR/EDR Not Supported (CSS v11, Part A, §1.3), as LE-only peripherals
    /// and beacons send them.
    public static let defaultFlags: UInt8 = 0x06

    /// The Apple company identifier that carries iBeacon frames.
    public static let appleCompanyIdentifier: UInt16 = 0x004C

    /// The iBeacon frame's manufacturer data after the company identifier: type 0x02,
    /// length 0x15, the UUID, major and minor big-endian, then the measured power.
    public static func iBeaconPayload(_ frame: IBeacon) -> [UInt8] {
        var bytes: [UInt8] = [0x02, 0x15]
        for shift in stride(from: 120, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: frame.uuid >> shift)) }
        bytes += [UInt8(frame.major >> 8), UInt8(truncatingIfNeeded: frame.major),
                  UInt8(frame.minor >> 8), UInt8(truncatingIfNeeded: frame.minor),
                  UInt8(bitPattern: frame.measuredPower)]
        return bytes
    }

    /// The AD structures (CSS v11, Part A, §1) in a fixed order: flags, iBeacon, service
    /// UUID lists (16-, 32-, 128-bit), service data (the Eddystone-EID frame first),
    /// manufacturer data, TX power, appearance, and the name last. Scan responses carry no
    /// flags unless asked for.
    /// - Parameter elapsedSeconds: whole seconds since the world started, for the
    ///   Eddystone-EID frame of that moment.
    public func structures(isScanResponse: Bool, elapsedSeconds: Int64 = 0) -> [AdvertisingData.Structure] {
        var result: [AdvertisingData.Structure] = []
        let flagsValue = flags ?? (isScanResponse ? 0 : Self.defaultFlags)
        if flagsValue != 0 { result.append(.flags(AdvertisingData.Flags(rawValue: flagsValue))) }
        if let iBeacon {
            result.append(.manufacturerData(company: Self.appleCompanyIdentifier, data: Self.iBeaconPayload(iBeacon)))
        }
        var short = services.compactMap { $0.uuid16 }
        if eddystoneEID != nil, !short.contains(EddystoneEID.serviceUUID) { short.insert(EddystoneEID.serviceUUID, at: 0) }
        let medium = services.filter { $0.uuid16 == nil }.compactMap { $0.uuid32 }
        let long = services.filter { $0.uuid32 == nil }.map(\.value)
        if !short.isEmpty { result.append(.completeList16(short)) }
        if !medium.isEmpty { result.append(.completeList32(medium)) }
        if !long.isEmpty { result.append(.completeList128(long)) }
        if let eddystoneEID,
           let frame = try? eddystoneEID.serviceData(timeCounter: eddystoneEID.timeCounter(afterSeconds: elapsedSeconds)) {
            result.append(.serviceData(uuid: BluetoothUUID(EddystoneEID.serviceUUID), data: frame))
        }
        for entry in serviceData { result.append(.serviceData(uuid: entry.uuid.shortest, data: Array(entry.data))) }
        if let manufacturer {
            result.append(.manufacturerData(company: manufacturer.companyIdentifier, data: Array(manufacturer.data)))
        }
        if let txPowerLevel { result.append(.txPowerLevel(txPowerLevel)) }
        if let appearance { result.append(.appearance(appearance)) }
        if let name { result.append(.completeLocalName(name)) }
        return result
    }

    /// The payload octets: ``raw`` as given, or the structures encoded, the Eddystone-EID
    /// frame as of `elapsedSeconds` after the world started.
    public func payload(isScanResponse: Bool, elapsedSeconds: Int64 = 0) -> [UInt8] {
        raw ?? AdvertisingData(structures(isScanResponse: isScanResponse, elapsedSeconds: elapsedSeconds)).encoded()
    }
}

extension ScenarioDevice {
    /// The scripted host's plan for this device, or `nil` when it does not advertise: a
    /// ``HostKind/gatt`` device's plan says what its GATT host advertises (and what a
    /// stand-in advertises where no host attaches).
    /// Throws ``ScenarioError/Kind/advertisingDataTooLong`` naming the device when the data
    /// or scan response exceeds the 31 octets of legacy advertising (Core 5.4, Vol 4,
    /// Part E, §7.8.7 and §7.8.8), or an extended set's data what its set holds (§7.8.54).
    public func advertisingPlan() throws(ScenarioError) -> ScriptedHost.Plan? {
        guard host == .scripted || host == .gatt, let advertising else { return nil }
        let data = advertising.data.payload(isScanResponse: false)
        let scanResponse = advertising.scanResponse?.payload(isScanResponse: true) ?? []
        let parameters = HCI.LESetAdvertisingParameters(
            advertisingIntervalMin: advertising.intervalUnits, advertisingIntervalMax: advertising.intervalUnits,
            advertisingType: advertising.kind.advertisingType,
            ownAddressType: address.kind == .random ? .random : .public)
        if let extended = advertising.extended {
            if advertising.kind == .scanInd {
                // A scannable extended set: no advertising data, the scan response alone.
                return try extendedPlan(extended, kind: advertising.kind, data: [], scanResponse: scanResponse, legacyParameters: parameters)
            }
            return try extendedPlan(extended, kind: advertising.kind, data: data, scanResponse: nil, legacyParameters: parameters)
        }
        for (octets, field) in [(data, "advertise"), (scanResponse, "advertise.scanResponse")]
        where octets.count > AdvertisingData.legacyMaximumLength {
            throw ScenarioError(.advertisingDataTooLong, path: field, device: name,
                                message: "\(octets.count) octets of \(field == "advertise" ? "advertising" : "scan response") "
                                    + "data exceed the 31 legacy advertising allows; shorten the name or move fields "
                                    + "to the scan response, or advertise with extended: true")
        }
        return ScriptedHost.Plan(deviceName: name, randomAddress: address.kind == .random ? address : nil,
                                 parameters: parameters, advertisingData: data,
                                 scanResponseData: advertising.kind.isScannable ? scanResponse : nil)
    }

    /// The plan of an extended set: HCI_LE_Set_Extended_Advertising_Parameters [v2]
    /// (Core 5.4, Vol 4, Part E, §7.8.53) with the interval, PHYs and coding the file gives,
    /// non-connectable and non-scannable for `nonconn_ind`, connectable for `ind`, scannable
    /// for `scan_ind` (its `scanResponse` given with HCI_LE_Set_Extended_Scan_Response_Data, §7.8.55).
    private func extendedPlan(_ extended: ScenarioAdvertising.Extended, kind: ScenarioAdvertising.Kind, data: [UInt8],
                              scanResponse: [UInt8]?, legacyParameters: HCI.LESetAdvertisingParameters) throws(ScenarioError) -> ScriptedHost.Plan {
        let connectable = kind == .ind
        if let scanResponse, scanResponse.count > ScenarioAdvertising.extendedMaximumDataLength {
            throw ScenarioError(.advertisingDataTooLong, path: "advertise.scanResponse", device: name,
                                message: "\(scanResponse.count) octets of scan response data exceed the "
                                    + "\(ScenarioAdvertising.extendedMaximumDataLength) an extended set holds")
        }
        // A connectable AUX_ADV_IND has no AuxPtr, so its data fits one PDU beside AdvA and
        // ADI (Vol 6, Part B, §2.3.4): 255 − 10 octets.
        let limit = connectable ? 245 : ScenarioAdvertising.extendedMaximumDataLength
        guard data.count <= limit else {
            throw ScenarioError(.advertisingDataTooLong, path: "advertise", device: name,
                                message: "\(data.count) octets of advertising data exceed the \(limit) "
                                    + (connectable ? "a connectable extended set carries in its one AUX_ADV_IND; use nonconn_ind for more"
                                                   : "an extended set holds"))
        }
        var periodic: ScriptedHost.Periodic?
        if let train = extended.periodic {
            let payload = train.payload
            guard payload.count <= ScenarioAdvertising.extendedMaximumDataLength else {
                throw ScenarioError(.advertisingDataTooLong, path: "advertise.periodic", device: name,
                                    message: "\(payload.count) octets of periodic data exceed the "
                                        + "\(ScenarioAdvertising.extendedMaximumDataLength) a periodic train holds")
            }
            periodic = ScriptedHost.Periodic(parameters: HCI.LESetPeriodicAdvertisingParameters(
                advertisingHandle: ScriptedHost.advertisingHandle, periodicAdvertisingIntervalMin: train.intervalUnits,
                periodicAdvertisingIntervalMax: train.intervalUnits), data: payload)
        }
        let units = UInt32(legacyParameters.advertisingIntervalMin)
        let command = HCI.LESetExtendedAdvertisingParameters(
            advertisingHandle: ScriptedHost.advertisingHandle, advertisingEventProperties: connectable ? [.connectable] : kind == .scanInd ? [.scannable] : [],
            primaryAdvertisingIntervalMin: units, primaryAdvertisingIntervalMax: units,
            ownAddressType: address.kind == .random ? .random : .public,
            primaryAdvertisingPHY: extended.primaryPHY.hciPHY, secondaryAdvertisingPHY: extended.secondaryPHY.hciPHY)
        let v2 = HCI.LESetExtendedAdvertisingParametersV2(
            command, primaryAdvertisingPHYOptions: extended.options(for: extended.primaryPHY),
            secondaryAdvertisingPHYOptions: extended.options(for: extended.secondaryPHY))
        return ScriptedHost.Plan(deviceName: name, randomAddress: address.kind == .random ? address : nil,
                                 parameters: legacyParameters, advertisingData: data, scanResponseData: scanResponse, extended: v2,
                                 periodic: periodic)
    }
}
