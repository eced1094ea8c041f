import BLEController
import BLEWire

/// Advertising as a scenario describes it: legacy (Core 5.4, Vol 6, Part B, §2.3.1 for the
/// PDU types; Vol 4, Part E, §7.8.5 for the parameters), or an extended set (``Extended``).
public struct ScenarioAdvertising: Hashable, Sendable {
    /// The legacy advertising PDU types a scripted host can use.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// ADV_IND: connectable and scannable.
        case ind
        /// ADV_SCAN_IND: scannable, not connectable.
        case scanInd = "scan_ind"
        /// ADV_NONCONN_IND: neither (beacons).
        case nonconnInd = "nonconn_ind"

        /// The HCI advertising type that makes the controller send this PDU.
        public var advertisingType: HCI.LESetAdvertisingParameters.AdvertisingType {
            switch self {
            case .ind: return .connectableUndirected
            case .scanInd: return .scannableUndirected
            case .nonconnInd: return .nonConnectableUndirected
            }
        }

        /// Whether the PDU invites scan requests, so scan response data matters.
        public var isScannable: Bool { self != .nonconnInd }
    }

    /// The advertising PDU type.
    public var kind: Kind
    /// The advertising interval in milliseconds (20 ms to 10.24 s).
    public var intervalMilliseconds: Double
    /// The advertising data.
    public var data: ScenarioAdvertisingContent
    /// The scan response data, for scannable kinds.
    public var scanResponse: ScenarioAdvertisingContent?
    /// The extended advertising set the device advertises with (the file's `extended: true`
    /// and its PHYs), or `nil` for the legacy PDUs.
    public var extended: Extended?

    /// Advertising with every field.
    public init(kind: Kind = .ind, intervalMilliseconds: Double = 100, data: ScenarioAdvertisingContent,
                scanResponse: ScenarioAdvertisingContent? = nil, extended: Extended? = nil) {
        self.kind = kind
        self.intervalMilliseconds = intervalMilliseconds
        self.data = data
        self.scanResponse = scanResponse
        self.extended = extended
    }

    /// The interval in the 0.625 ms units of HCI (Vol 4, Part E, §7.8.5), rounded.
    public var intervalUnits: UInt16 {
        UInt16(clamping: Int((intervalMilliseconds / 0.625).rounded()))
    }

    /// The shortest and longest legacy advertising intervals in milliseconds (0x0020 and
    /// 0x4000 units of 0.625 ms).
    public static let intervalRange: ClosedRange<Double> = 20 ... 10_240
}

/// What goes into advertising or scan response data; ``ScenarioAdvertisingContent/structures(isScanResponse:)``
/// turns it into AD structures (CSS v11, Part A, §1).
public struct ScenarioAdvertisingContent: Hashable, Sendable {
    /// An Apple iBeacon frame (manufacturer data of company 0x004C, type 0x02, length 0x15).
    public struct IBeacon: Hashable, Sendable {
        /// The proximity UUID, as written most significant first.
        public var uuid: UInt128
        /// The major number, big-endian on air.
        public var major: UInt16
        /// The minor number, big-endian on air.
        public var minor: UInt16
        /// RSSI at 1 m in dBm, calibrated by the deployer.
        public var measuredPower: Int8
        /// A frame with every field.
        public init(uuid: UInt128, major: UInt16, minor: UInt16, measuredPower: Int8 = -59) {
            self.uuid = uuid
            self.major = major
            self.minor = minor
            self.measuredPower = measuredPower
        }
    }

    /// Flags octet; `nil` uses the default (0x06 in advertising data, none in a scan response),
    /// 0 leaves the structure out.
    public var flags: UInt8?
    /// Complete Local Name.
    public var name: String?
    /// Service UUIDs, listed per width as complete lists.
    public var services: [BluetoothUUID]
    /// Manufacturer Specific Data: company identifier and data.
    public var manufacturer: AdvertisingData.ManufacturerData?
    /// Service Data, one structure per UUID, in the order given.
    public var serviceData: [AdvertisingData.ServiceData]
    /// TX Power Level in dBm.
    public var txPowerLevel: Int8?
    /// Appearance (Assigned Numbers §2.6).
    public var appearance: UInt16?
    /// An iBeacon frame.
    public var iBeacon: IBeacon?
    /// An Eddystone-EID frame that rotates with the beacon's clock (service data of 0xFEAA,
    /// with 0xFEAA in the 16-bit service list).
    public var eddystoneEID: EddystoneEID?
    /// The whole payload as given, used instead of every field above.
    public var raw: [UInt8]?

    /// Content with every field; all defaulted.
    public init(flags: UInt8? = nil, name: String? = nil, services: [BluetoothUUID] = [],
                manufacturer: AdvertisingData.ManufacturerData? = nil, serviceData: [AdvertisingData.ServiceData] = [],
                txPowerLevel: Int8? = nil, appearance: UInt16? = nil, iBeacon: IBeacon? = nil, eddystoneEID: EddystoneEID? = nil,
                raw: [UInt8]? = nil) {
        self.flags = flags
        self.name = name
        self.services = services
        self.manufacturer = manufacturer
        self.serviceData = serviceData
        self.txPowerLevel = txPowerLevel
        self.appearance = appearance
        self.iBeacon = iBeacon
        self.eddystoneEID = eddystoneEID
        self.raw = raw
    }
}
