import BLEWire

/// A controller that does only what a non-connectable beacon's ``Controller`` does once its
/// host has set it up: legacy ADV_NONCONN_IND advertising events on the primary channels of
/// the channel map, each starting advInterval + advDelay after the previous one (Core 5.4,
/// Vol 6, Part B, §4.4.2.2.1), with no receiver, no scanning and no connections.
///
/// A world of thousands of beacons spends much of its time in their full controllers and
/// scripted hosts, though after the setup nothing but advertising happens there. This one
/// runs the same advertiser (`LegacyAdvertiser`) from the same seeded random source as a
/// ``Controller`` built from the same configuration, so it sends the same packets at the
/// same times with the same advDelay draws: a world that runs it in place of a controller
/// and its host gets the same results. It takes no HCI: ``startAdvertising(at:)`` stands for
/// the host's setup ending with HCI_LE_Set_Advertising_Enable (Vol 4, Part E, §7.8.9).
public struct BeaconController: SimulatedController {
    /// The configuration it was built with (its seed and transmit power are used).
    public let configuration: ControllerConfiguration
    /// The advertising parameters, as HCI_LE_Set_Advertising_Parameters would set them.
    public let parameters: HCI.LESetAdvertisingParameters
    /// The address the beacon advertises with.
    public let ownAddress: BluetoothAddress
    /// The advertising data, at most 31 octets.
    public let advertisingData: [UInt8]

    private var random: ControllerRandom
    private var now: Microseconds = 0
    private var advertiser: LegacyAdvertiser?

    /// A beacon that will advertise `advertisingData` from `ownAddress` with `parameters`
    /// once started, or `nil` when a ``Controller`` would not take them: a type other than
    /// non-connectable undirected, an interval outside 0x0020–0x4000 or with its minimum
    /// above its maximum, no primary channel (§7.8.5), or more than 31 octets of data (§7.8.7).
    public init?(configuration: ControllerConfiguration, parameters: HCI.LESetAdvertisingParameters,
                 ownAddress: BluetoothAddress, advertisingData: [UInt8]) {
        let range: ClosedRange<UInt16> = 0x0020 ... 0x4000
        guard parameters.advertisingType == .nonConnectableUndirected,
              range.contains(parameters.advertisingIntervalMin), range.contains(parameters.advertisingIntervalMax),
              parameters.advertisingIntervalMin <= parameters.advertisingIntervalMax,
              !parameters.advertisingChannelMap.intersection(.all).isEmpty,
              advertisingData.count <= AdvertisingData.legacyMaximumLength
        else { return nil }
        self.configuration = configuration
        self.parameters = parameters
        self.ownAddress = ownAddress
        self.advertisingData = advertisingData
        random = ControllerRandom(seed: configuration.seed)
    }

    /// Whether it is advertising.
    public var isAdvertising: Bool { advertiser != nil }

    /// Starts advertising at `now`, as HCI_LE_Set_Advertising_Enable does after the setup:
    /// the first event begins at once. Starting again while advertising changes nothing.
    public mutating func startAdvertising(at now: Microseconds) {
        self.now = max(self.now, now)
        guard advertiser == nil else { return }
        advertiser = LegacyAdvertiser(
            parameters: parameters, ownAddress: ownAddress, advertisingData: advertisingData, scanResponseData: [],
            txPowerDBm: configuration.txPowerDBm, now: self.now,
            supportsChannelSelection2: configuration.claimsChannelSelectionAlgorithm2)
    }

    /// Handles the timer (the advertising events); HCI packets and packets from the air
    /// are not for it and change nothing.
    public mutating func handle(_ input: ControllerInput, at now: Microseconds) -> [ControllerOutput] {
        self.now = max(self.now, now)
        guard case .timer = input, let deadline = advertiser?.nextDeadline, deadline <= self.now else { return [] }
        // No connection ever needs the radio, so nothing limits the event (radioFreeUntil: nil),
        // as in a Controller with no link; a non-connectable advertiser never times out.
        guard let effects = advertiser?.timer(at: self.now, radioFreeUntil: nil, random: &random) else { return [] }
        var outputs: [ControllerOutput] = []
        for effect in effects {
            if case let .transmit(transmission) = effect { outputs.append(.transmit(transmission)) }
        }
        return outputs
    }

    /// When the next advertising event or the next PDU of the current one is due.
    public var nextDeadline: Microseconds? { advertiser?.nextDeadline }

    /// Stops advertising, as a power cycle does; the random source goes on where it was, as
    /// a ``Controller``'s does.
    public mutating func powerCycle(at now: Microseconds) -> [ControllerOutput] {
        advertiser = nil
        self.now = now
        return [.stopListening]
    }
}
