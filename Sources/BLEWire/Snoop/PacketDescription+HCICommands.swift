extension BTSnoop.PacketDescription {
    /// An HCI command packet (Core 5.4, Vol 4, Part E, §5.4.1, §7): its name, and its
    /// parameters decoded by the command's type — the scanning and advertising commands
    /// written out as `btmon` does, any other through ``generic(_:)``. A command this
    /// module does not know, or whose parameters do not decode, shows them in hex.
    public static func command(_ packet: HCI.CommandPacket) -> BTSnoop.PacketDescription {
        guard let name = packet.opcode.name else {
            return BTSnoop.PacketDescription("Unknown Command (\(hex(packet.opcode.rawValue, digits: 4)))", rawParameters(packet.parameters))
        }
        guard let command = try? HCI.decodeCommand(packet) else {
            return BTSnoop.PacketDescription(name, [Field("Malformed parameters", "")] + rawParameters(packet.parameters))
        }
        return BTSnoop.PacketDescription(name, commandFields(command))
    }

    /// The parameters of a decoded command.
    static func commandFields(_ command: any HCICommand) -> [Field] {
        switch command {
        case let scan as HCI.LESetScanParameters:
            return [
                Field("Type", scanType(scan.leScanType)),
                Field("Interval", integer(scan.leScanInterval, name: "scaninterval")),
                Field("Window", integer(scan.leScanWindow, name: "scanwindow")),
                Field("Own address type", ownAddressType(scan.ownAddressType)),
                Field("Filter policy", filterPolicy(scan.scanningFilterPolicy)),
            ]
        case let enable as HCI.LESetScanEnable:
            return [
                Field("Scanning", enabled(enable.leScanEnable)),
                Field("Filter duplicates", enabled(enable.filterDuplicates)),
            ]
        case let data as HCI.LESetAdvertisingData:
            return [Field("Length", "\(data.advertisingData.count)")] + advertisingData(data.advertisingData)
        case let data as HCI.LESetScanResponseData:
            return [Field("Length", "\(data.scanResponseData.count)")] + advertisingData(data.scanResponseData)
        case let data as HCI.LESetExtendedAdvertisingData:
            return Array(generic(data).dropLast()) + [Field("Data length", "\(data.advertisingData.count)")]
                + advertisingData(data.advertisingData)
        case let data as HCI.LESetExtendedScanResponseData:
            return Array(generic(data).dropLast()) + [Field("Data length", "\(data.scanResponseData.count)")]
                + advertisingData(data.scanResponseData)
        default:
            return generic(command)
        }
    }

    /// The octets of parameters no decoder read, or nothing when there are none.
    static func rawParameters(_ bytes: ArraySlice<UInt8>) -> [Field] {
        bytes.isEmpty ? [] : [Field("Parameters", "\(bytes.count) octets: " + Hex.encode(bytes))]
    }

    /// `Enabled (0x01)` or `Disabled (0x00)`.
    static func enabled(_ on: Bool) -> String { on ? "Enabled (0x01)" : "Disabled (0x00)" }

    /// LE_Scan_Type (§7.8.10): `Active (0x01)`.
    static func scanType(_ type: HCI.ScanType) -> String {
        (type == .active ? "Active" : "Passive") + " (\(hex(type.rawValue, digits: 2)))"
    }

    /// Own_Address_Type (§7.8.5, §7.8.10): `Random (0x01)`.
    static func ownAddressType(_ type: HCI.OwnAddressType) -> String {
        let name: String
        switch type {
        case .public: name = "Public"
        case .random: name = "Random"
        case .resolvableOrPublic: name = "Resolvable private, else public"
        case .resolvableOrRandom: name = "Resolvable private, else random"
        }
        return name + " (\(hex(type.rawValue, digits: 2)))"
    }

    /// Scanning_Filter_Policy (§7.8.10), in the words of `btmon` for the basic policies.
    static func filterPolicy(_ policy: HCI.ScanningFilterPolicy) -> String {
        let name: String
        switch policy {
        case .basicUnfiltered: name = "Accept all advertisement"
        case .basicFiltered: name = "Ignore not in accept list"
        case .extendedUnfiltered: name = "Accept all advertisement, inc. directed unresolved RPA"
        case .extendedFiltered: name = "Ignore not in accept list, exc. directed unresolved RPA"
        }
        return name + " (\(hex(policy.rawValue, digits: 2)))"
    }
}
