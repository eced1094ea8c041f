import BLEController
import BLEWire

/// A PHY as a scenario file names it (`1m`, `2m`, `coded`): LE 1M, LE 2M or LE Coded
/// (Core 5.4, Vol 6, Part A, §2; Vol 6, Part B, §2.2 for the coded packet).
public enum ScenarioPHY: String, Hashable, Sendable, CaseIterable {
    /// LE 1M.
    case le1M = "1m"
    /// LE 2M: a secondary advertising PHY only, never a primary or a scanning one.
    case le2M = "2m"
    /// LE Coded, with S=2 or S=8 (``ScenarioAdvertising/Extended/coding``).
    case leCoded = "coded"

    /// The PHY as HCI's Primary_/Secondary_Advertising_PHY names it (Vol 4, Part E, §7.8.53).
    public var hciPHY: HCI.PHY {
        switch self {
        case .le1M: .le1M
        case .le2M: .le2M
        case .leCoded: .leCoded
        }
    }
}

extension ScenarioAdvertising {
    /// Advertising with an extended advertising set instead of the legacy PDUs (Core 5.4,
    /// Vol 6, Part B, §2.3.1.3–§2.3.1.5 and §4.4.2): ADV_EXT_IND on the primary channels
    /// pointing to an AUX_ADV_IND on a secondary channel, which carries the data (and
    /// AUX_CHAIN_INDs beyond what one PDU holds). The scripted host sets it up with
    /// HCI_LE_Set_Extended_Advertising_Parameters, _Data and _Enable (Vol 4, Part E,
    /// §7.8.53, §7.8.54 and §7.8.56).
    public struct Extended: Hashable, Sendable {
        /// The PHY of ADV_EXT_IND: LE 1M or LE Coded.
        public var primaryPHY: ScenarioPHY
        /// The PHY of AUX_ADV_IND and AUX_CHAIN_IND: LE 1M, LE 2M or LE Coded.
        public var secondaryPHY: ScenarioPHY
        /// The coding on LE Coded (either channel kind that uses it); S=8 reaches furthest.
        public var coding: LECoding
        /// The periodic train the set sends beside its extended advertising (the file's
        /// `periodic:`), or `nil` for none.
        public var periodic: Periodic?

        /// An extended set with every field; by default on LE 1M, S=8 wherever LE Coded is
        /// used, and no periodic train.
        public init(primaryPHY: ScenarioPHY = .le1M, secondaryPHY: ScenarioPHY? = nil, coding: LECoding = .s8, periodic: Periodic? = nil) {
            self.primaryPHY = primaryPHY
            self.secondaryPHY = secondaryPHY ?? primaryPHY
            self.coding = coding
            self.periodic = periodic
        }

        /// Whether either channel kind uses LE Coded.
        public var usesCoded: Bool { primaryPHY == .leCoded || secondaryPHY == .leCoded }

        /// The PHY options of HCI_LE_Set_Extended_Advertising_Parameters [v2] for a channel
        /// kind on `phy`: the coding required on LE Coded, no preference elsewhere.
        func options(for phy: ScenarioPHY) -> HCI.AdvertisingPHYOptions {
            guard phy == .leCoded else { return .noPreference }
            return coding == .s2 ? .requireS2 : .requireS8
        }
    }

    /// The most advertising data an extended set carries here: what the world's controller
    /// accepts (HCI_LE_Read_Maximum_Advertising_Data_Length, Vol 4, Part E, §7.8.57).
    public static let extendedMaximumDataLength = Controller.maximumAdvertisingDataLength
}

extension ScenarioDevice {
    /// Whether the device's scripted host uses the extended advertising or scanning commands,
    /// so its controller must claim the LE Extended Advertising and LE Coded PHY features
    /// (``BLEController/ControllerConfiguration/claimsExtendedAdvertising``); no other
    /// device's controller changes.
    public var usesExtendedCommands: Bool { advertising?.extended != nil || scanning?.extendedPHYs != nil }
}
