extension AdvertisingData {
    /// The AD Type octet of an advertising data structure (Core 5.4, Vol 3, Part C, §11;
    /// values from the Assigned Numbers, §2.3 "Common Data Types").
    ///
    /// An open set: any octet is a valid `ADType`, and types this library does not name
    /// are kept as they are, so data from newer devices round-trips unchanged.
    public struct ADType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The octet on the wire.
        public var rawValue: UInt8

        /// The type for an octet.
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// A type from its octet, e.g. `ADType(0x09)`.
        public init(_ rawValue: UInt8) { self.rawValue = rawValue }

        /// Flags (CSS v11, Part A, §1.3).
        public static let flags = ADType(0x01)
        /// Incomplete List of 16-bit Service or Service Class UUIDs (CSS Part A, §1.1).
        public static let incompleteList16BitServiceUUIDs = ADType(0x02)
        /// Complete List of 16-bit Service or Service Class UUIDs (§1.1).
        public static let completeList16BitServiceUUIDs = ADType(0x03)
        /// Incomplete List of 32-bit Service or Service Class UUIDs (§1.1).
        public static let incompleteList32BitServiceUUIDs = ADType(0x04)
        /// Complete List of 32-bit Service or Service Class UUIDs (§1.1).
        public static let completeList32BitServiceUUIDs = ADType(0x05)
        /// Incomplete List of 128-bit Service or Service Class UUIDs (§1.1).
        public static let incompleteList128BitServiceUUIDs = ADType(0x06)
        /// Complete List of 128-bit Service or Service Class UUIDs (§1.1).
        public static let completeList128BitServiceUUIDs = ADType(0x07)
        /// Shortened Local Name (§1.2).
        public static let shortenedLocalName = ADType(0x08)
        /// Complete Local Name (§1.2).
        public static let completeLocalName = ADType(0x09)
        /// Tx Power Level (§1.5).
        public static let txPowerLevel = ADType(0x0A)
        /// Class of Device (§1.6).
        public static let classOfDevice = ADType(0x0D)
        /// Simple Pairing Hash C-192 (§1.6).
        public static let simplePairingHashC192 = ADType(0x0E)
        /// Simple Pairing Randomizer R-192 (§1.6).
        public static let simplePairingRandomizerR192 = ADType(0x0F)
        /// Device ID, or Security Manager TK Value (§1.8).
        public static let securityManagerTKValue = ADType(0x10)
        /// Security Manager Out of Band Flags (§1.7).
        public static let securityManagerOOBFlags = ADType(0x11)
        /// Peripheral Connection Interval Range (§1.9).
        public static let peripheralConnectionIntervalRange = ADType(0x12)
        /// List of 16-bit Service Solicitation UUIDs (§1.10).
        public static let serviceSolicitation16BitUUIDs = ADType(0x14)
        /// List of 128-bit Service Solicitation UUIDs (§1.10).
        public static let serviceSolicitation128BitUUIDs = ADType(0x15)
        /// Service Data - 16-bit UUID (§1.11).
        public static let serviceData16BitUUID = ADType(0x16)
        /// Public Target Address (§1.13).
        public static let publicTargetAddress = ADType(0x17)
        /// Random Target Address (§1.14).
        public static let randomTargetAddress = ADType(0x18)
        /// Appearance (§1.12).
        public static let appearance = ADType(0x19)
        /// Advertising Interval (§1.15).
        public static let advertisingInterval = ADType(0x1A)
        /// LE Bluetooth Device Address (§1.16).
        public static let leBluetoothDeviceAddress = ADType(0x1B)
        /// LE Role (§1.17).
        public static let leRole = ADType(0x1C)
        /// Simple Pairing Hash C-256 (§1.6).
        public static let simplePairingHashC256 = ADType(0x1D)
        /// Simple Pairing Randomizer R-256 (§1.6).
        public static let simplePairingRandomizerR256 = ADType(0x1E)
        /// List of 32-bit Service Solicitation UUIDs (§1.10).
        public static let serviceSolicitation32BitUUIDs = ADType(0x1F)
        /// Service Data - 32-bit UUID (§1.11).
        public static let serviceData32BitUUID = ADType(0x20)
        /// Service Data - 128-bit UUID (§1.11).
        public static let serviceData128BitUUID = ADType(0x21)
        /// LE Secure Connections Confirmation Value (§1.6).
        public static let leSecureConnectionsConfirmationValue = ADType(0x22)
        /// LE Secure Connections Random Value (§1.6).
        public static let leSecureConnectionsRandomValue = ADType(0x23)
        /// URI (§1.18).
        public static let uri = ADType(0x24)
        /// Indoor Positioning (Indoor Positioning Service spec).
        public static let indoorPositioning = ADType(0x25)
        /// Transport Discovery Data (Transport Discovery Service spec).
        public static let transportDiscoveryData = ADType(0x26)
        /// LE Supported Features (§1.19).
        public static let leSupportedFeatures = ADType(0x27)
        /// Channel Map Update Indication (§1.20).
        public static let channelMapUpdateIndication = ADType(0x28)
        /// PB-ADV (Mesh Profile).
        public static let pbADV = ADType(0x29)
        /// Mesh Message (Mesh Profile).
        public static let meshMessage = ADType(0x2A)
        /// Mesh Beacon (Mesh Profile).
        public static let meshBeacon = ADType(0x2B)
        /// BIGInfo (§1.21).
        public static let bigInfo = ADType(0x2C)
        /// Broadcast_Code (§1.22).
        public static let broadcastCode = ADType(0x2D)
        /// Resolvable Set Identifier (Coordinated Set Identification Profile).
        public static let resolvableSetIdentifier = ADType(0x2E)
        /// Advertising Interval - long (§1.15).
        public static let advertisingIntervalLong = ADType(0x2F)
        /// Broadcast_Name (Public Broadcast Profile).
        public static let broadcastName = ADType(0x30)
        /// Encrypted Advertising Data (§1.23).
        public static let encryptedAdvertisingData = ADType(0x31)
        /// Periodic Advertising Response Timing Information (§1.24).
        public static let periodicAdvertisingResponseTimingInformation = ADType(0x32)
        /// Electronic Shelf Label (ESL Profile).
        public static let electronicShelfLabel = ADType(0x34)
        /// 3D Information Data (3D Synchronization Profile).
        public static let threeDInformationData = ADType(0x3D)
        /// Manufacturer Specific Data (§1.4).
        public static let manufacturerSpecificData = ADType(0xFF)

        /// The Assigned Numbers name of the type, or `nil` for one this library does not name.
        public var name: String? {
            switch rawValue {
            case 0x01: return "Flags"
            case 0x02: return "Incomplete List of 16-bit Service UUIDs"
            case 0x03: return "Complete List of 16-bit Service UUIDs"
            case 0x04: return "Incomplete List of 32-bit Service UUIDs"
            case 0x05: return "Complete List of 32-bit Service UUIDs"
            case 0x06: return "Incomplete List of 128-bit Service UUIDs"
            case 0x07: return "Complete List of 128-bit Service UUIDs"
            case 0x08: return "Shortened Local Name"
            case 0x09: return "Complete Local Name"
            case 0x0A: return "Tx Power Level"
            case 0x0D: return "Class of Device"
            case 0x0E: return "Simple Pairing Hash C-192"
            case 0x0F: return "Simple Pairing Randomizer R-192"
            case 0x10: return "Security Manager TK Value"
            case 0x11: return "Security Manager Out of Band Flags"
            case 0x12: return "Peripheral Connection Interval Range"
            case 0x14: return "List of 16-bit Service Solicitation UUIDs"
            case 0x15: return "List of 128-bit Service Solicitation UUIDs"
            case 0x16: return "Service Data - 16-bit UUID"
            case 0x17: return "Public Target Address"
            case 0x18: return "Random Target Address"
            case 0x19: return "Appearance"
            case 0x1A: return "Advertising Interval"
            case 0x1B: return "LE Bluetooth Device Address"
            case 0x1C: return "LE Role"
            case 0x1D: return "Simple Pairing Hash C-256"
            case 0x1E: return "Simple Pairing Randomizer R-256"
            case 0x1F: return "List of 32-bit Service Solicitation UUIDs"
            case 0x20: return "Service Data - 32-bit UUID"
            case 0x21: return "Service Data - 128-bit UUID"
            case 0x22: return "LE Secure Connections Confirmation Value"
            case 0x23: return "LE Secure Connections Random Value"
            case 0x24: return "URI"
            case 0x25: return "Indoor Positioning"
            case 0x26: return "Transport Discovery Data"
            case 0x27: return "LE Supported Features"
            case 0x28: return "Channel Map Update Indication"
            case 0x29: return "PB-ADV"
            case 0x2A: return "Mesh Message"
            case 0x2B: return "Mesh Beacon"
            case 0x2C: return "BIGInfo"
            case 0x2D: return "Broadcast_Code"
            case 0x2E: return "Resolvable Set Identifier"
            case 0x2F: return "Advertising Interval - long"
            case 0x30: return "Broadcast_Name"
            case 0x31: return "Encrypted Advertising Data"
            case 0x32: return "Periodic Advertising Response Timing Information"
            case 0x34: return "Electronic Shelf Label"
            case 0x3D: return "3D Information Data"
            case 0xFF: return "Manufacturer Specific Data"
            default: return nil
            }
        }

        /// `Complete Local Name (0x09)`, or `AD type 0x99` for an unnamed one.
        public var description: String {
            let hex = (rawValue < 0x10 ? "0x0" : "0x") + String(rawValue, radix: 16, uppercase: true)
            if let name { return "\(name) (\(hex))" }
            return "AD type \(hex)"
        }
    }
}
