extension BTSnoop.PacketDescription {
    /// An HCI event (Core 5.4, Vol 4, Part E, §7.7): its name in words, and its parameters —
    /// Command Complete with the return parameters decoded by the opcode they answer
    /// (§7.7.14), advertising reports with their AD structures decoded, anything else
    /// through ``generic(_:)``. An event this module does not model shows its octets.
    public static func event(_ event: HCI.Event) -> BTSnoop.PacketDescription {
        switch event {
        case let .commandComplete(complete):
            let name = complete.opcode.name ?? "Unknown \(hex(complete.opcode.rawValue, digits: 4))"
            var fields = [Field("Opcode", describe(complete.opcode)), Field("Num HCI command packets", "\(complete.numHCICommandPackets)")]
            if complete.isCreditsOnly { return BTSnoop.PacketDescription("Command Complete (no command)", fields) }
            if let values = try? HCI.decodeReturnParameters(for: complete.opcode, complete.returnParameters) {
                fields += generic(values)
            } else {
                fields += rawParameters(complete.returnParameters)
            }
            return BTSnoop.PacketDescription("Command Complete (\(name))", fields)
        case let .commandStatus(status):
            let name = status.opcode.name ?? "Unknown \(hex(status.opcode.rawValue, digits: 4))"
            return BTSnoop.PacketDescription("Command Status (\(name))", [
                Field("Status", status.status.description), Field("Num HCI command packets", "\(status.numHCICommandPackets)"),
                Field("Opcode", describe(status.opcode)),
            ])
        case let .leMeta(.advertisingReport(report)):
            return BTSnoop.PacketDescription("LE Advertising Report", advertisingReport(report))
        case let .leMeta(.extendedAdvertisingReport(report)):
            return BTSnoop.PacketDescription("LE Extended Advertising Report", extendedAdvertisingReport(report))
        case let .leMeta(meta):
            return payloadDescription(of: meta)
        case let .unknown(packet):
            return BTSnoop.PacketDescription("Unknown Event (\(hex(packet.eventCode.rawValue, digits: 2)))", rawParameters(packet.parameters))
        case let .unknownLEMeta(subevent, parameters):
            return BTSnoop.PacketDescription("Unknown LE Meta Event (subevent \(hex(subevent.rawValue, digits: 2)))", rawParameters(parameters))
        default:
            return payloadDescription(of: event)
        }
    }

    /// An enumeration case's payload, titled by the payload's type in words
    /// (`LEConnectionComplete` → "LE Connection Complete") with its fields.
    private static func payloadDescription(of value: Any) -> BTSnoop.PacketDescription {
        guard let payload = Mirror(reflecting: value).children.first?.value else {
            return BTSnoop.PacketDescription(words(String(describing: value)))
        }
        return BTSnoop.PacketDescription(words(String(describing: type(of: payload))), generic(payload))
    }

    /// LE Advertising Report (§7.7.65.2), as `btmon` prints one: each report's event type,
    /// address type, address, data length, AD structures and RSSI; several reports each
    /// under "Report n".
    static func advertisingReport(_ event: HCI.LEAdvertisingReport) -> [Field] {
        let reports = event.reports.map { report -> [Field] in
            [
                Field("Event type", legacyEventType(report.eventType)),
                Field("Address type", addressType(report.addressType)),
                Field("Address", describe(report.address)),
                Field("Data length", "\(report.data.count)"),
            ] + advertisingData(report.data) + [Field("RSSI", rssi(report.rssi))]
        }
        return [Field("Num reports", "\(reports.count)")] + flattenedIfOne(reports)
    }

    /// LE Extended Advertising Report (§7.7.65.13): each report's fields, its data decoded.
    static func extendedAdvertisingReport(_ event: HCI.LEExtendedAdvertisingReport) -> [Field] {
        let reports = event.reports.map { report -> [Field] in
            let type = report.eventType
            let properties = [(type.isConnectable, "Connectable"), (type.isScannable, "Scannable"), (type.isDirected, "Directed"),
                              (type.isScanResponse, "Scan response"), (type.isLegacy, "Use legacy advertising PDUs")]
                .filter(\.0).map { Field($0.1, "") }
            let status = type.dataStatus.map { words("\($0)") } ?? "Reserved"
            return [
                Field("Event type", hex(type.rawValue, digits: 4), properties + [Field("Data status", status)]),
                Field("Address type", addressType(report.addressType)),
                Field("Address", describe(report.address)),
            ] + generic(report).filter { !["Event type", "Address type", "Address", "RSSI", "Data"].contains($0.name) }
                + [Field("RSSI", rssi(report.rssi)), Field("Data length", "\(report.data.count)")] + advertisingData(report.data)
        }
        return [Field("Num reports", "\(reports.count)")] + flattenedIfOne(reports)
    }

    /// One report's fields as they are; several each under "Report n".
    private static func flattenedIfOne(_ reports: [[Field]]) -> [Field] {
        guard reports.count != 1 else { return reports[0] }
        return reports.enumerated().map { Field("Report \($0.offset + 1)", "", $0.element) }
    }

    /// Event_Type of a legacy report in `btmon`'s words: `Non connectable undirected -
    /// ADV_NONCONN_IND (0x03)`.
    static func legacyEventType(_ type: HCI.LEAdvertisingReport.EventType) -> String {
        let name: String
        switch type {
        case .advInd: name = "Connectable undirected - ADV_IND"
        case .advDirectInd: name = "Connectable directed - ADV_DIRECT_IND"
        case .advScanInd: name = "Scannable undirected - ADV_SCAN_IND"
        case .advNonconnInd: name = "Non connectable undirected - ADV_NONCONN_IND"
        case .scanRsp: name = "Scan response - SCAN_RSP"
        }
        return name + " (\(hex(type.rawValue, digits: 2)))"
    }

    /// An LE Address_Type: `Random (0x01)`.
    static func addressType(_ type: HCI.AddressType) -> String {
        let name: String
        switch type {
        case .public: name = "Public"
        case .random: name = "Random"
        case .publicIdentity: name = "Resolved public"
        case .randomIdentity: name = "Resolved random"
        case .anonymous: name = "Anonymous"
        }
        return name + " (\(hex(type.rawValue, digits: 2)))"
    }

    /// `-50 dBm (0xce)`, or `not available (0x7f)`.
    static func rssi(_ value: Int8) -> String {
        let raw = " (\(hex(UInt8(bitPattern: value), digits: 2)))"
        return (value == 127 ? "not available" : "\(value) dBm") + raw
    }
}
