extension HCI {
    /// The most data one Set Extended Advertising/Scan Response Data command carries
    /// (Core 5.4, Vol 4, Part E, §7.8.54); longer data is sent in fragments.
    public static let maximumExtendedAdvertisingDataFragmentLength = 251

    /// Operation of the extended data commands (Core 5.4, Vol 4, Part E, §7.8.54): which
    /// fragment of the set's data this command carries.
    public enum AdvertisingDataOperation: UInt8, Hashable, Sendable, CaseIterable {
        /// A middle fragment.
        case intermediateFragment = 0x00
        /// The first fragment; replaces earlier data.
        case firstFragment = 0x01
        /// The last fragment.
        case lastFragment = 0x02
        /// All the data in one command.
        case complete = 0x03
        /// Keep the data, only change the Advertising DID (advertising data only).
        case unchangedData = 0x04
    }

    /// Fragment_Preference of the extended data commands (Core 5.4, Vol 4, Part E, §7.8.54).
    public enum FragmentPreference: UInt8, Hashable, Sendable, CaseIterable {
        /// The controller may fragment the data over several PDUs.
        case mayFragment = 0x00
        /// The controller should not fragment the data, or fragment it as little as it can.
        case shouldNotFragment = 0x01
    }

    /// HCI_LE_Set_Extended_Advertising_Data (Core 5.4, Vol 4, Part E, §7.8.54): one fragment
    /// of the advertising data of a set.
    public struct LESetExtendedAdvertisingData: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leSetExtendedAdvertisingData``.
        public static let opcode = Opcode.leSetExtendedAdvertisingData

        /// Advertising_Handle: the set.
        public var advertisingHandle: UInt8
        /// Which fragment this is.
        public var operation: AdvertisingDataOperation
        /// Whether the controller may fragment.
        public var fragmentPreference: FragmentPreference
        /// The fragment, at most 251 octets (the encoder sends the first 251 of a longer one).
        public var advertisingData: ArraySlice<UInt8>

        /// The command carrying one fragment.
        public init(
            advertisingHandle: UInt8, operation: AdvertisingDataOperation = .complete,
            fragmentPreference: FragmentPreference = .mayFragment, advertisingData: ArraySlice<UInt8>
        ) {
            self.advertisingHandle = advertisingHandle
            self.operation = operation
            self.fragmentPreference = fragmentPreference
            self.advertisingData = advertisingData
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            (advertisingHandle, operation, fragmentPreference, advertisingData) =
                try readExtendedData(&reader, type: "HCI.LESetExtendedAdvertisingData")
        }

        public func encode(to writer: inout ByteWriter) {
            writeExtendedData(advertisingHandle, operation, fragmentPreference, advertisingData, to: &writer)
        }
    }

    /// HCI_LE_Set_Extended_Scan_Response_Data (Core 5.4, Vol 4, Part E, §7.8.55): one
    /// fragment of the scan response data of a scannable set.
    public struct LESetExtendedScanResponseData: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leSetExtendedScanResponseData``.
        public static let opcode = Opcode.leSetExtendedScanResponseData

        /// Advertising_Handle: the set.
        public var advertisingHandle: UInt8
        /// Which fragment this is (``AdvertisingDataOperation/unchangedData`` is not allowed
        /// here; the controller rejects it).
        public var operation: AdvertisingDataOperation
        /// Whether the controller may fragment.
        public var fragmentPreference: FragmentPreference
        /// The fragment, at most 251 octets (the encoder sends the first 251 of a longer one).
        public var scanResponseData: ArraySlice<UInt8>

        /// The command carrying one fragment.
        public init(
            advertisingHandle: UInt8, operation: AdvertisingDataOperation = .complete,
            fragmentPreference: FragmentPreference = .mayFragment, scanResponseData: ArraySlice<UInt8>
        ) {
            self.advertisingHandle = advertisingHandle
            self.operation = operation
            self.fragmentPreference = fragmentPreference
            self.scanResponseData = scanResponseData
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            (advertisingHandle, operation, fragmentPreference, scanResponseData) =
                try readExtendedData(&reader, type: "HCI.LESetExtendedScanResponseData")
        }

        public func encode(to writer: inout ByteWriter) {
            writeExtendedData(advertisingHandle, operation, fragmentPreference, scanResponseData, to: &writer)
        }
    }
}

/// Reads handle, operation, fragment preference, and the length-prefixed data (at most 251).
private func readExtendedData(
    _ reader: inout ByteReader, type: String
) throws(WireError) -> (UInt8, HCI.AdvertisingDataOperation, HCI.FragmentPreference, ArraySlice<UInt8>) {
    let handle = try reader.readUInt8(type + ".advertisingHandle")
    let operation = try reader.readEnumeration(HCI.AdvertisingDataOperation.self, type + ".operation")
    let preference = try reader.readEnumeration(HCI.FragmentPreference.self, type + ".fragmentPreference")
    let length = Int(try reader.readUInt8(type + ".dataLength"))
    guard length <= HCI.maximumExtendedAdvertisingDataFragmentLength else {
        throw WireError(field: type + ".dataLength", reason: .invalidValue(UInt64(length)))
    }
    return (handle, operation, preference, try reader.readBytes(length, type + ".data"))
}

/// Writes handle, operation, fragment preference, length and at most 251 data octets.
private func writeExtendedData(
    _ handle: UInt8, _ operation: HCI.AdvertisingDataOperation, _ preference: HCI.FragmentPreference,
    _ data: ArraySlice<UInt8>, to writer: inout ByteWriter
) {
    let sent = data.prefix(HCI.maximumExtendedAdvertisingDataFragmentLength)
    writer.write(handle)
    writer.write(operation.rawValue)
    writer.write(preference.rawValue)
    writer.write(UInt8(sent.count))
    writer.write(contentsOf: sent)
}
