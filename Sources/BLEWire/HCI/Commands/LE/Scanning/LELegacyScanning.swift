extension HCI {
    /// HCI_LE_Set_Scan_Parameters (Core 5.4, Vol 4, Part E, §7.8.10): how legacy scanning
    /// runs.
    public struct LESetScanParameters: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leSetScanParameters``.
        public static let opcode = Opcode.leSetScanParameters

        // Codec: generated from the stored properties below.
        /// LE_Scan_Type: passive or active.
        public var leScanType: ScanType
        /// LE_Scan_Interval, in units of 0.625 ms (0x0004 to 0x4000).
        public var leScanInterval: UInt16
        /// LE_Scan_Window, in units of 0.625 ms; at most the interval.
        public var leScanWindow: UInt16
        /// Which own address goes into scan requests.
        public var ownAddressType: OwnAddressType
        /// Scanning_Filter_Policy.
        public var scanningFilterPolicy: ScanningFilterPolicy

        /// The command with every parameter.
        public init(
            leScanType: ScanType, leScanInterval: UInt16, leScanWindow: UInt16,
            ownAddressType: OwnAddressType, scanningFilterPolicy: ScanningFilterPolicy = .basicUnfiltered
        ) {
            self.leScanType = leScanType
            self.leScanInterval = leScanInterval
            self.leScanWindow = leScanWindow
            self.ownAddressType = ownAddressType
            self.scanningFilterPolicy = scanningFilterPolicy
        }
    }

    /// HCI_LE_Set_Scan_Enable (Core 5.4, Vol 4, Part E, §7.8.11): starts or stops legacy
    /// scanning.
    public struct LESetScanEnable: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leSetScanEnable``.
        public static let opcode = Opcode.leSetScanEnable

        // Codec: generated from the stored properties below.
        /// LE_Scan_Enable.
        public var leScanEnable: Bool
        /// Filter_Duplicates: report each advertiser once per scan.
        public var filterDuplicates: Bool

        /// The command starting (`true`) or stopping scanning.
        public init(leScanEnable: Bool, filterDuplicates: Bool = false) {
            self.leScanEnable = leScanEnable
            self.filterDuplicates = filterDuplicates
        }
    }
}
