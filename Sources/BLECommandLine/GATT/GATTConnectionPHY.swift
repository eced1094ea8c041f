import BLEHost
import BLEWire

/// `ble gatt … --phy`: the PHY a connection is asked to start on, with LE Extended Create
/// Connection (Core 5.4, Vol 4, Part E, §7.8.66). A connection starts on the PHY its
/// AUX_CONNECT_REQ goes on, the secondary PHY of the peer's connectable extended set; from
/// legacy advertising it starts on LE 1M (Vol 6, Part B, §4.5).
enum GATTConnectionPHY: Equatable {
    /// LE 1M: legacy advertising, or an extended set on LE 1M.
    case oneMegabit
    /// LE 1M scanned, LE 2M taken from an extended set whose AUX_ADV_IND comes on it.
    case twoMegabit
    /// LE Coded: an extended set on LE Coded, for range.
    case coded

    /// The choice `1m`, `2m` or `coded`, in any letter case.
    init?(_ text: String) {
        switch text.lowercased() {
        case "1m": self = .oneMegabit
        case "2m": self = .twoMegabit
        case "coded": self = .coded
        default: return nil
        }
    }

    /// Initiating_PHYs of the command.
    var initiatingPHYs: HCI.LEPHYs {
        switch self {
        case .oneMegabit: .le1M
        case .twoMegabit: [.le1M, .le2M]
        case .coded: .leCoded
        }
    }

    /// The primary PHYs the scan that finds the peer by name or address listens on: the
    /// extended scan, so that the extended commands are the only family used (§3.1.1).
    var scanningPHYs: HCI.LEPHYs { self == .coded ? .leCoded : .le1M }

    /// Refuses, with a sentence, a controller that cannot do it: one that does not claim LE
    /// Extended Create Connection and extended scanning, or the LE Coded PHY for `coded`.
    func check(_ info: ControllerInfo) throws {
        let commands = info.supportedCommands
        guard commands?.contains(.leExtendedCreateConnection) == true, commands?.contains(.leSetExtendedScanParameters) == true else {
            throw CommandFailure("--phy needs a controller that connects with LE Extended Create Connection and scans with the "
                                 + "extended commands; this one does not claim them (ble sim serve does unless --no-extended).")
        }
        if self == .coded, !info.leFeatures.contains(.leCodedPHY) {
            throw CommandFailure("--phy coded needs a controller with the LE Coded PHY; this one does not report it (LE Supported Features bit 11).")
        }
    }

    /// How a person names `phy`.
    static func name(_ phy: HCI.PHY) -> String {
        switch phy {
        case .le1M: "LE 1M"
        case .le2M: "LE 2M"
        case .leCoded: "LE Coded"
        }
    }
}
