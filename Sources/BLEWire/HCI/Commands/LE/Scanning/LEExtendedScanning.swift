extension HCI {
    /// HCI_LE_Set_Extended_Scan_Parameters (Core 5.4, Vol 4, Part E, §7.8.64): how extended
    /// scanning runs, with separate parameters per primary PHY.
    ///
    /// On the wire, Scanning_PHYs has bit 0 (LE 1M) and bit 2 (LE Coded); one
    /// Scan_Type/Scan_Interval/Scan_Window triple follows per set bit, interleaved (§5.2),
    /// 1M first. Here each PHY's triple is an optional field: present means its bit is set.
    public struct LESetExtendedScanParameters: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leSetExtendedScanParameters``.
        public static let opcode = Opcode.leSetExtendedScanParameters

        /// One PHY's scan parameters.
        public struct PHYParameters: Hashable, Sendable {
            /// Scan_Type[i]: passive or active.
            public var scanType: ScanType
            /// Scan_Interval[i], in units of 0.625 ms (0x0004 to 0xFFFF).
            public var scanInterval: UInt16
            /// Scan_Window[i], in units of 0.625 ms; at most the interval.
            public var scanWindow: UInt16

            /// Parameters with every field.
            public init(scanType: ScanType, scanInterval: UInt16, scanWindow: UInt16) {
                self.scanType = scanType
                self.scanInterval = scanInterval
                self.scanWindow = scanWindow
            }
        }

        /// Which own address goes into scan requests.
        public var ownAddressType: OwnAddressType
        /// Scanning_Filter_Policy.
        public var scanningFilterPolicy: ScanningFilterPolicy
        /// Scanning on LE 1M, if wanted.
        public var le1M: PHYParameters?
        /// Scanning on LE Coded, if wanted.
        public var leCoded: PHYParameters?

        /// The command with every parameter.
        public init(
            ownAddressType: OwnAddressType, scanningFilterPolicy: ScanningFilterPolicy = .basicUnfiltered,
            le1M: PHYParameters?, leCoded: PHYParameters? = nil
        ) {
            self.ownAddressType = ownAddressType
            self.scanningFilterPolicy = scanningFilterPolicy
            self.le1M = le1M
            self.leCoded = leCoded
        }

        /// The Scanning_PHYs bits this value encodes.
        public var scanningPHYs: LEPHYs {
            var phys: LEPHYs = []
            if le1M != nil { phys.insert(.le1M) }
            if leCoded != nil { phys.insert(.leCoded) }
            return phys
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            ownAddressType = try reader.readEnumeration(OwnAddressType.self, "HCI.LESetExtendedScanParameters.ownAddressType")
            scanningFilterPolicy = try reader.readEnumeration(
                ScanningFilterPolicy.self, "HCI.LESetExtendedScanParameters.scanningFilterPolicy")
            let phys = LEPHYs(rawValue: try reader.readUInt8("HCI.LESetExtendedScanParameters.scanningPHYs"))
            // Only 1M and Coded can be primary scanning PHYs; other bits are reserved.
            guard phys.subtracting([.le1M, .leCoded]).isEmpty else {
                throw WireError(field: "HCI.LESetExtendedScanParameters.scanningPHYs", reason: .invalidValue(UInt64(phys.rawValue)))
            }
            let count = phys.rawValue.nonzeroBitCount
            try reader.require(count * 5, "HCI.LESetExtendedScanParameters.phyParameters")
            le1M = phys.contains(.le1M) ? try Self.readPHY(&reader) : nil
            leCoded = phys.contains(.leCoded) ? try Self.readPHY(&reader) : nil
        }

        private static func readPHY(_ reader: inout ByteReader) throws(WireError) -> PHYParameters {
            PHYParameters(
                scanType: try reader.readEnumeration(ScanType.self, "HCI.LESetExtendedScanParameters.scanType"),
                scanInterval: try reader.readUInt16("HCI.LESetExtendedScanParameters.scanInterval"),
                scanWindow: try reader.readUInt16("HCI.LESetExtendedScanParameters.scanWindow")
            )
        }

        public func encode(to writer: inout ByteWriter) {
            writer.write(ownAddressType.rawValue)
            writer.write(scanningFilterPolicy.rawValue)
            writer.write(scanningPHYs.rawValue)
            if let le1M { Self.writePHY(le1M, to: &writer) }
            if let leCoded { Self.writePHY(leCoded, to: &writer) }
        }

        private static func writePHY(_ parameters: PHYParameters, to writer: inout ByteWriter) {
            writer.write(parameters.scanType.rawValue)
            writer.write(parameters.scanInterval)
            writer.write(parameters.scanWindow)
        }
    }

    /// HCI_LE_Set_Extended_Scan_Enable (Core 5.4, Vol 4, Part E, §7.8.65): starts or stops
    /// extended scanning, optionally for a duration and periodically.
    public struct LESetExtendedScanEnable: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leSetExtendedScanEnable``.
        public static let opcode = Opcode.leSetExtendedScanEnable

        /// Filter_Duplicates of extended scanning.
        public enum FilterDuplicates: UInt8, Hashable, Sendable, CaseIterable {
            /// Report every advertisement.
            case disabled = 0x00
            /// Report each advertiser once until scanning is disabled.
            case enabled = 0x01
            /// Report each advertiser once per scan period.
            case enabledResetEachPeriod = 0x02
        }

        // Codec: generated from the stored properties below.
        /// Enable: start (`true`) or stop scanning.
        public var enable: Bool
        /// Duplicate filtering.
        public var filterDuplicates: FilterDuplicates
        /// Duration, in units of 10 ms; 0 scans until disabled.
        public var duration: UInt16
        /// Period, in units of 1.28 s; 0 scans continuously.
        public var period: UInt16

        /// The command with every parameter.
        public init(enable: Bool, filterDuplicates: FilterDuplicates = .disabled, duration: UInt16 = 0, period: UInt16 = 0) {
            self.enable = enable
            self.filterDuplicates = filterDuplicates
            self.duration = duration
            self.period = period
        }
    }
}
