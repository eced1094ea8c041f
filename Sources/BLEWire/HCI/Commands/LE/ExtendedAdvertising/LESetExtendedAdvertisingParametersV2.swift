extension HCI {
    /// Primary_Advertising_PHY_Options and Secondary_Advertising_PHY_Options of
    /// HCI_LE_Set_Extended_Advertising_Parameters [v2] (Core 5.4, Vol 4, Part E, §7.8.53):
    /// the coding the host wants on LE Coded. Ignored for a PHY other than LE Coded.
    public enum AdvertisingPHYOptions: UInt8, Hashable, Sendable, CaseIterable {
        /// 0x00: no preference; the controller chooses.
        case noPreference = 0x00
        /// 0x01: S=2 preferred.
        case preferS2 = 0x01
        /// 0x02: S=8 preferred.
        case preferS8 = 0x02
        /// 0x03: S=2 required.
        case requireS2 = 0x03
        /// 0x04: S=8 required.
        case requireS8 = 0x04
    }

    /// HCI_LE_Set_Extended_Advertising_Parameters [v2] (Core 5.4, Vol 4, Part E, §7.8.53):
    /// the [v1] parameters, then the coding wanted on the primary and secondary channels
    /// when they use LE Coded.
    public struct LESetExtendedAdvertisingParametersV2: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leSetExtendedAdvertisingParametersV2``.
        public static let opcode = Opcode.leSetExtendedAdvertisingParametersV2
        /// Command Complete with Selected_TX_Power, as [v1].
        public typealias ReturnParameters = LESetExtendedAdvertisingParameters.ReturnParameters

        /// Every parameter [v1] has, in the same order on the wire.
        public var parameters: LESetExtendedAdvertisingParameters
        /// Primary_Advertising_PHY_Options.
        public var primaryAdvertisingPHYOptions: AdvertisingPHYOptions
        /// Secondary_Advertising_PHY_Options.
        public var secondaryAdvertisingPHYOptions: AdvertisingPHYOptions

        /// The command with [v1]'s parameters and the two PHY options.
        public init(
            _ parameters: LESetExtendedAdvertisingParameters, primaryAdvertisingPHYOptions: AdvertisingPHYOptions = .noPreference,
            secondaryAdvertisingPHYOptions: AdvertisingPHYOptions = .noPreference
        ) {
            self.parameters = parameters
            self.primaryAdvertisingPHYOptions = primaryAdvertisingPHYOptions
            self.secondaryAdvertisingPHYOptions = secondaryAdvertisingPHYOptions
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            parameters = try LESetExtendedAdvertisingParameters(from: &reader)
            primaryAdvertisingPHYOptions = try reader.readEnumeration(
                AdvertisingPHYOptions.self, "HCI.LESetExtendedAdvertisingParametersV2.primaryAdvertisingPHYOptions")
            secondaryAdvertisingPHYOptions = try reader.readEnumeration(
                AdvertisingPHYOptions.self, "HCI.LESetExtendedAdvertisingParametersV2.secondaryAdvertisingPHYOptions")
        }

        public func encode(to writer: inout ByteWriter) {
            parameters.encode(to: &writer)
            writer.write(primaryAdvertisingPHYOptions.rawValue)
            writer.write(secondaryAdvertisingPHYOptions.rawValue)
        }
    }
}
