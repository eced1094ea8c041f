/// An ATT PDU that is an opcode, an attribute handle and the rest of the PDU as the value:
/// Write Request and Command, Handle Value Notification and Indication (Core 5.4, Vol 3,
/// Part F, §3.4.5 and §3.4.7). They share one decoder and encoder.
public protocol ATTHandleValuePDU: ATTPDU {
    /// The attribute the value belongs to.
    var attributeHandle: ATT.Handle { get set }
    /// The value: every octet after the handle, a view into the input.
    var attributeValue: ArraySlice<UInt8> { get set }
    /// A PDU from its two fields.
    init(attributeHandle: ATT.Handle, attributeValue: ArraySlice<UInt8>)
}

extension ATTHandleValuePDU {
    /// Reads opcode and handle, then takes the remaining octets as the value.
    public init(from reader: inout ByteReader) throws(WireError) {
        try reader.readATTOpcode(Self.opcode, wireTypeName(Self.self) + ".opcode")
        let handle = try reader.readUInt16(wireTypeName(Self.self) + ".attributeHandle")
        self.init(attributeHandle: handle, attributeValue: reader.readRemaining())
    }

    /// Writes opcode, handle and value.
    public func encode(to writer: inout ByteWriter) {
        writer.write(Self.opcode.rawValue)
        writer.write(attributeHandle)
        writer.write(contentsOf: attributeValue)
    }

    /// Opcode, handle and value.
    public var encodedCountEstimate: Int { 3 + attributeValue.count }
}

/// An ATT PDU that is its opcode alone: Write Response, Execute Write Response, Handle
/// Value Confirmation (Core 5.4, Vol 3, Part F, §3.4.5.2, §3.4.6.4, §3.4.7.3).
public protocol ATTOpcodeOnlyPDU: ATTPDU {
    /// The PDU (it has no fields).
    init()
}

extension ATTOpcodeOnlyPDU {
    /// Reads the opcode.
    public init(from reader: inout ByteReader) throws(WireError) {
        try reader.readATTOpcode(Self.opcode, wireTypeName(Self.self) + ".opcode")
        self.init()
    }

    /// Writes the opcode.
    public func encode(to writer: inout ByteWriter) {
        writer.write(Self.opcode.rawValue)
    }
}
