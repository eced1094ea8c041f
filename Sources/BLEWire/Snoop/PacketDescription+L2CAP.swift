extension BTSnoop.PacketDescription {
    /// An LE signaling command (Core 5.4, Vol 3, Part A, §4): "L2CAP" and its name
    /// ("L2CAP LE Credit Based Connection Request"), its identifier and parameters — CIDs and
    /// SPSMs in hex, connection intervals and timeouts in milliseconds — through ``generic(_:)``.
    public static func leSignaling(_ command: L2CAP.LESignalingCommand) -> BTSnoop.PacketDescription {
        if case let .unknown(code, identifier, data) = command {
            return BTSnoop.PacketDescription("L2CAP Unknown Signaling Command (\(hex(code.rawValue, digits: 2)))", [
                Field("Identifier", "\(identifier)"), Field("Data", data.isEmpty ? "(none)" : Hex.encode(data)),
            ])
        }
        return genericCase(command, prefix: "L2CAP ")
    }

    /// A frame on a channel without a decoder here: its CID and octets.
    public static func l2capFrame(channel: UInt16, _ payload: ArraySlice<UInt8>) -> BTSnoop.PacketDescription {
        BTSnoop.PacketDescription("L2CAP CID \(hex(channel, digits: 4))", [
            Field("Channel", hex(channel, digits: 4)), Field("Data", payload.isEmpty ? "(none)" : Hex.encode(payload)),
        ])
    }
}
