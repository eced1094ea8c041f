import BLEWire

/// One advertising set the host created with LE Set Extended Advertising Parameters (Core
/// 5.4, Vol 4, Part E, §7.8.53): its parameters, random address and data, kept while it is
/// disabled, and the advertiser that runs while it is enabled.
struct AdvertisingSet: Sendable {
    /// Advertising_Handle.
    let handle: UInt8
    var parameters: HCI.LESetExtendedAdvertisingParameters
    /// The coding of LE Coded on the primary and secondary channels: S=8 unless the host
    /// chose with LE Set Extended Advertising Parameters [v2].
    var primaryCoding = LECoding.s8
    var secondaryCoding = LECoding.s8
    /// LE Set Advertising Set Random Address (§7.8.52).
    var randomAddress: BluetoothAddress?
    /// The advertising data, complete or as far as its fragments have come.
    var data: [UInt8] = []
    /// Whether the first fragment arrived and the last has not (§7.8.54).
    var dataIsPartial = false
    /// The Advertising Data ID sent in the ADI; it changes whenever the data changes
    /// (Vol 6, Part B, §4.4.2.11).
    var dataID: UInt16 = 0
    /// The scan response data of a legacy or extended scannable set.
    var scanResponseData: [UInt8] = []
    /// Whether the scan response's first fragment arrived and the last has not (§7.8.55).
    var scanResponseIsPartial = false
    /// The advertiser, while an extended set is enabled.
    var advertiser: ExtendedAdvertiser?
    /// Whether the set uses legacy PDUs and holds the controller's legacy advertiser.
    var runsLegacyPDUs = false
    /// LE Set Periodic Advertising Parameters (§7.8.61), once the host gave them.
    var periodicParameters: HCI.LESetPeriodicAdvertisingParameters?
    /// The periodic data, complete or as far as its fragments have come (§7.8.62).
    var periodicData: [UInt8] = []
    /// Whether the periodic data's first fragment arrived and the last has not.
    var periodicDataIsPartial = false
    /// The DID the periodic train's ADI carries, changed with the periodic data.
    var periodicDataID: UInt16 = 0
    /// LE Set Periodic Advertising Enable (§7.8.63): whether the host enabled the train, and
    /// with the ADI (bit 1). The train goes on the air once extended advertising is enabled too.
    var periodicEnable: (enabled: Bool, includesDataInfo: Bool) = (false, false)
    /// The periodic train, while it is on the air.
    var periodicAdvertiser: PeriodicAdvertiser?

    /// Whether the set uses legacy advertising PDUs (property bit 4).
    var usesLegacyPDUs: Bool { parameters.advertisingEventProperties.contains(.legacy) }
    /// Whether the set is enabled.
    var isEnabled: Bool { advertiser != nil || runsLegacyPDUs }

    /// The address the set's PDUs carry without address resolution, or `nil` when it needs
    /// a random address the host has not given: types 0x02 and 0x03 fall back to the public
    /// and the set's random address (with resolution on, `Controller.advertisingAddress(of:)`
    /// gives the private address).
    func ownAddress(publicAddress: BluetoothAddress) -> BluetoothAddress? {
        switch parameters.ownAddressType {
        case .public, .resolvableOrPublic: return publicAddress
        case .random, .resolvableOrRandom: return randomAddress
        }
    }
}
