import BLEWire

extension ScenarioAdvertising.Extended {
    /// A periodic advertising train beside a non-connectable, non-scannable extended set
    /// (Core 5.4, Vol 6, Part B, §4.4.2.12): an AUX_SYNC_IND every interval with the data (and
    /// AUX_CHAIN_INDs beyond what one PDU holds), found by scanners through the SyncInfo of
    /// the set's AUX_ADV_IND. The scripted host sets it up with HCI_LE_Set_Periodic_Advertising_
    /// Parameters, _Data and _Enable (Vol 4, Part E, §7.8.61–§7.8.63).
    public struct Periodic: Hashable, Sendable {
        /// The periodic interval in milliseconds (7.5 ms to 4.8 s).
        public var intervalMilliseconds: Double
        /// The data each periodic event carries (no Flags unless given, as in a scan response).
        public var data: ScenarioAdvertisingContent

        /// A train with every field.
        public init(intervalMilliseconds: Double, data: ScenarioAdvertisingContent) {
            self.intervalMilliseconds = intervalMilliseconds
            self.data = data
        }

        /// The interval in the 1.25 ms units of HCI (§7.8.61), rounded.
        public var intervalUnits: UInt16 { UInt16(clamping: Int((intervalMilliseconds / 1.25).rounded())) }

        /// The intervals the world's controller takes: 0x0006 (7.5 ms) to 0x0F00 (4.8 s, as far as
        /// SyncInfo's offset reaches).
        public static let intervalRange: ClosedRange<Double> = 7.5 ... 4_800

        /// The periodic data's octets.
        public var payload: [UInt8] { data.payload(isScanResponse: true) }
    }
}

extension Scenario {
    /// Checks each scanner's `sync:`: another device of the scenario with a periodic train.
    func validatePeriodicSyncs(names: [String: Int]) throws(ScenarioError) {
        for (index, device) in devices.enumerated() {
            guard let target = device.scanning?.periodicSync else { continue }
            guard let targetIndex = names[target], target != device.name else {
                throw ScenarioError(.unknownDevice, path: "devices[\(index)].scan.sync", device: device.name,
                                    message: "\"\(target)\" is not another device of the scenario")
            }
            guard devices[targetIndex].advertising?.extended?.periodic != nil else {
                throw ScenarioError(.invalidField, path: "devices[\(index)].scan.sync", device: device.name,
                                    message: "\"\(target)\" sends no periodic advertising; give it advertise: {extended: true, "
                                        + "periodic: {interval: MS, ...}}")
            }
        }
    }

    /// The scripted scanner's plan for `device` (``ScenarioDevice/scanningPlan()``), with LE
    /// Periodic Advertising Create Sync (Core 5.4, Vol 4, Part E, §7.8.67) for the train its
    /// `sync:` names: the scripted host's set (SID 0) at the advertiser's address, no skip, and
    /// a Sync_Timeout of ten periodic intervals (0x000A–0x4000 units of 10 ms).
    public func scanningPlan(of device: ScenarioDevice) -> ScriptedScanner.Plan? {
        guard var plan = device.scanningPlan() else { return nil }
        guard plan.extended != nil, let name = device.scanning?.periodicSync, let target = self.device(named: name),
              let periodic = target.advertising?.extended?.periodic else { return plan }
        let timeout = UInt16(clamping: Swift.min(Swift.max(Int((periodic.intervalMilliseconds).rounded()), 0x000A), 0x4000))
        plan.periodicSync = HCI.LEPeriodicAdvertisingCreateSync(
            advertisingSID: 0, advertiserAddressType: target.address.kind == .random ? .random : .public,
            advertiserAddress: target.address, syncTimeout: timeout)
        return plan
    }
}
