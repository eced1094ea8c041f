extension BTSnoop.PacketDescription {
    /// An Attribute Protocol PDU (Core 5.4, Vol 3, Part F, §3.4): "ATT" and its name, and its
    /// parameters — handle ranges as `0x0001-0xffff`, attribute types with their names, the
    /// Error Response's request and error by name, discovery responses one entry each —
    /// the rest through ``generic(_:)``.
    public static func att(_ pdu: ATT.PDU) -> BTSnoop.PacketDescription {
        let title = attOpcodeNames[pdu.opcode.rawValue].map { "ATT " + $0 } ?? genericCase(pdu, prefix: "ATT ").title
        switch pdu {
        case let .errorResponse(error):
            return BTSnoop.PacketDescription(title, [
                Field("Request", describe(error.requestOpcodeInError)),
                Field("Handle", hex(error.attributeHandleInError, digits: 4)),
                Field("Error", error.errorCode.name + " (\(hex(error.errorCode.rawValue, digits: 2)))"),
            ])
        case let .readByGroupTypeRequest(request):
            return BTSnoop.PacketDescription(title, [
                Field("Handle range", handleRange(request.startingHandle, request.endingHandle)),
                Field("Attribute group type", describe(request.attributeGroupType)),
            ])
        case let .readByTypeRequest(request):
            return BTSnoop.PacketDescription(title, [
                Field("Handle range", handleRange(request.startingHandle, request.endingHandle)),
                Field("Attribute type", describe(request.attributeType)),
            ])
        case let .findInformationRequest(request):
            return BTSnoop.PacketDescription(title, [Field("Handle range", handleRange(request.startingHandle, request.endingHandle))])
        case let .readByGroupTypeResponse(response):
            let entries = response.attributeDataList.map { entry in
                Field("Handle range", handleRange(entry.attributeHandle, entry.endGroupHandle), [attributeValue(entry.attributeValue)])
            }
            return BTSnoop.PacketDescription(title, [Field("Attribute group list", count(entries), entries)])
        case let .readByTypeResponse(response):
            let entries = response.attributeDataList.map { entry in
                Field("Handle", hex(entry.attributeHandle, digits: 4), [Field("Value", Hex.encode(entry.attributeValue))])
            }
            return BTSnoop.PacketDescription(title, [Field("Attribute data list", count(entries), entries)])
        case let .findInformationResponse(response):
            let entries = response.entries.map { entry in
                Field("Handle", hex(entry.handle, digits: 4), [Field("Type", describe(entry.attributeType))])
            }
            return BTSnoop.PacketDescription(title, [Field("Information data", count(entries), entries)])
        default:
            return BTSnoop.PacketDescription(title, genericCase(pdu, prefix: "ATT ").fields)
        }
    }

    /// `0x0001-0xffff`.
    static func handleRange(_ start: UInt16, _ end: UInt16) -> String {
        hex(start, digits: 4) + "-" + hex(end, digits: 4)
    }

    /// "1 entry", "4 entries".
    static func count(_ entries: [Field]) -> String {
        entries.count == 1 ? "1 entry" : "\(entries.count) entries"
    }

    /// A group's value, which for a service declaration is its UUID (Vol 3, Part G, §3.1).
    private static func attributeValue(_ value: ArraySlice<UInt8>) -> Field {
        if value.count == 2 || value.count == 16, let uuid = try? BluetoothUUID(decoding: value) {
            return Field("UUID", describe(uuid))
        }
        return Field("Value", Hex.encode(value))
    }

    /// The names of the ATT opcodes (Core 5.4, Vol 3, Part F, §3.4.8, Table 3.37).
    static let attOpcodeNames: [UInt8: String] = [
        0x01: "Error Response", 0x02: "Exchange MTU Request", 0x03: "Exchange MTU Response",
        0x04: "Find Information Request", 0x05: "Find Information Response", 0x06: "Find By Type Value Request",
        0x07: "Find By Type Value Response", 0x08: "Read By Type Request", 0x09: "Read By Type Response",
        0x0A: "Read Request", 0x0B: "Read Response", 0x0C: "Read Blob Request", 0x0D: "Read Blob Response",
        0x0E: "Read Multiple Request", 0x0F: "Read Multiple Response", 0x10: "Read By Group Type Request",
        0x11: "Read By Group Type Response", 0x12: "Write Request", 0x13: "Write Response",
        0x16: "Prepare Write Request", 0x17: "Prepare Write Response", 0x18: "Execute Write Request",
        0x19: "Execute Write Response", 0x1B: "Handle Value Notification", 0x1D: "Handle Value Indication",
        0x1E: "Handle Value Confirmation", 0x20: "Read Multiple Variable Request", 0x21: "Read Multiple Variable Response",
        0x23: "Multiple Handle Value Notification", 0x52: "Write Command", 0xD2: "Signed Write Command",
    ]
}
