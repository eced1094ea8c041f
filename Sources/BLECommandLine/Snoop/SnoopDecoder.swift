import BLEWire

/// One packet of a btsnoop capture, decoded as far as our decoders go: the HCI packet and,
/// inside ACL data, the L2CAP frame and the ATT, SMP or LE signaling PDU it carries.
struct SnoopLine {
    /// The record's index, from 1 (as Wireshark and `btmon -r` count).
    var number: Int
    /// Seconds since the first record.
    var seconds: Double
    /// `>` host to controller, `<` controller to host.
    var direction: String
    /// Command, Event, ACL, SCO or ISO.
    var kind: String
    /// What the packet is, by name, with its fields; "malformed: …" when a decoder refused it.
    var summary: String
    /// The ACL connection handle, for data packets.
    var handle: UInt16?
    /// The L2CAP channel of a complete frame.
    var channel: UInt16?
    /// Whether a decoder refused the packet.
    var malformed: Bool

    /// `    12  0.004512 > ACL 0x0040  ATT  readByGroupTypeRequest(…)`.
    var text: String {
        let number = String(repeating: " ", count: max(0, 6 - String(self.number).count)) + String(self.number)
        let timeText = seconds.formatted(decimals: 6)
        let time = String(repeating: " ", count: max(0, 11 - timeText.count)) + timeText
        let place = handle.map { " 0x" + SnoopDecoder.hex($0) } ?? ""
        return "\(number) \(time) \(direction) \((kind + place).padding(toLength: 11, withPad: " ", startingAt: 0)) \(summary)"
    }

    /// The line as a JSON object, keys in a fixed order.
    var output: OutputLine {
        var fields: [(String, OutputLine.Value)] = [("number", .integer(number)), ("time", .number(seconds)),
                                                   ("direction", .string(direction == ">" ? "sent" : "received")), ("type", .string(kind))]
        if let handle { fields.append(("handle", .integer(Int(handle)))) }
        if let channel { fields.append(("cid", .integer(Int(channel)))) }
        fields.append(("summary", .string(summary)))
        fields.append(("malformed", .bool(malformed)))
        return OutputLine(text: text, fields: fields)
    }
}

/// Turns btsnoop records into ``SnoopLine``s: HCI commands and events by name with their
/// fields (Core 5.4, Vol 4, Part E, §7), ACL data reassembled per handle and direction
/// into L2CAP basic frames (Vol 3, Part A, §3.1), and their payload decoded on the ATT
/// (0x0004), LE signaling (0x0005) and SMP (0x0006) channels. A packet a decoder refuses is
/// shown as malformed and decoding goes on with the next.
struct SnoopDecoder {
    private struct FragmentKey: Hashable {
        var handle: UInt16
        var sent: Bool
    }

    let datalink: BTSnoop.Datalink
    private var firstTimestamp: Int64?
    private var fragments: [FragmentKey: [UInt8]] = [:]

    init(datalink: BTSnoop.Datalink) {
        self.datalink = datalink
    }

    mutating func describe(_ record: BTSnoop.Record, number: Int) -> SnoopLine {
        let first = firstTimestamp ?? record.timestamp
        firstTimestamp = first
        var line = SnoopLine(number: number, seconds: Double(record.timestamp - first) / 1_000_000,
                             direction: record.direction == .sent ? ">" : "<", kind: "?", summary: "", handle: nil, channel: nil,
                             malformed: false)
        do throws(WireError) {
            let (kind, bytes) = try record.hciPacket(datalink: datalink)
            switch kind {
            case .command:
                line.kind = "Command"
                let packet = try HCI.CommandPacket(decoding: Array(bytes))
                let name = packet.opcode.name ?? "opcode \(packet.opcode)"
                if let command = try? HCI.decodeCommand(packet) {
                    line.summary = "\(name) \(Self.fields(of: command))"
                } else {
                    line.summary = "\(name) (\(packet.parameters.count) octets: \(Hex.encode(packet.parameters)))"
                }
            case .event:
                line.kind = "Event"
                let packet = try HCI.EventPacket(decoding: Array(bytes))
                let event = try HCI.Event(decoding: packet)
                if case let .commandComplete(complete) = event {
                    // The return parameters decoded by the opcode they answer (§7.7.14).
                    let name = complete.opcode.name ?? "opcode \(complete.opcode)"
                    let values = (try? HCI.decodeReturnParameters(for: complete.opcode, complete.returnParameters))
                        .map { Self.fields(of: $0) } ?? Hex.encode(complete.returnParameters)
                    line.summary = "Command Complete (\(name)) \(values)"
                } else {
                    line.summary = Self.fields(of: event)
                }
            case .aclData:
                line.kind = "ACL"
                let packet = try HCI.ACLPacket(decoding: Array(bytes))
                line.handle = packet.connectionHandle
                describeACL(packet, sent: record.direction == .sent, into: &line)
            case .synchronousData:
                line.kind = "SCO"
                line.summary = "\(bytes.count) octets"
            case .isoData:
                line.kind = "ISO"
                line.summary = "\(bytes.count) octets"
            }
        } catch {
            line.malformed = true
            line.summary = "malformed: \(error)"
        }
        return line
    }

    /// ACL data: a start fragment begins an L2CAP frame, continuations extend it; a
    /// complete frame is decoded by channel.
    private mutating func describeACL(_ packet: HCI.ACLPacket, sent: Bool, into line: inout SnoopLine) {
        let key = FragmentKey(handle: packet.connectionHandle, sent: sent)
        var frame: [UInt8]
        switch packet.packetBoundary {
        case .continuing:
            guard let started = fragments[key] else {
                line.malformed = true
                line.summary = "malformed: a continuation fragment with no start (\(packet.data.count) octets)"
                return
            }
            frame = started + packet.data
        default:
            if fragments[key] != nil { line.summary = "(an unfinished frame was dropped) " }
            frame = Array(packet.data)
        }
        guard frame.count >= 4 else {
            fragments[key] = frame
            line.summary += "start of an L2CAP frame (\(frame.count) octets)"
            return
        }
        let length = Int(frame[0]) | Int(frame[1]) << 8
        let channel = UInt16(frame[2]) | UInt16(frame[3]) << 8
        guard frame.count >= 4 + length else {
            fragments[key] = frame
            line.summary += "L2CAP CID 0x\(Self.hex(channel)): \(frame.count - 4) of \(length) octets"
            return
        }
        fragments[key] = nil
        line.channel = channel
        let payload = frame[4 ..< 4 + length]
        if frame.count > 4 + length {
            line.malformed = true
            line.summary += "malformed: \(frame.count - 4 - length) octets after the L2CAP frame; "
        }
        let (text, refused) = Self.describeL2CAP(channel: channel, payload)
        line.summary += text
        line.malformed = line.malformed || refused
    }

    /// The frame's payload by channel, and whether its decoder refused it.
    private static func describeL2CAP(channel: UInt16, _ payload: ArraySlice<UInt8>) -> (String, Bool) {
        do throws(WireError) {
            switch channel {
            case L2CAP.ChannelIdentifier.attributeProtocol.rawValue:
                return ("ATT " + fields(of: try ATT.PDU(decoding: Array(payload))), false)
            case L2CAP.ChannelIdentifier.securityManager.rawValue:
                return ("SMP " + fields(of: try SMP.PDU(decoding: Array(payload))), false)
            case L2CAP.ChannelIdentifier.leSignaling.rawValue:
                return ("L2CAP signaling " + fields(of: try L2CAP.LESignalingCommand(decoding: Array(payload))), false)
            default:
                return ("L2CAP CID 0x\(hex(channel)), \(payload.count) octets", false)
            }
        } catch {
            return ("malformed on CID 0x\(hex(channel)): \(error)", true)
        }
    }

    /// A decoded value's fields as Swift prints them, without module prefixes.
    static func fields(of value: Any) -> String {
        String(describing: value).replacingOccurrences(of: "BLEWire.", with: "")
    }

    static func hex(_ value: UInt16) -> String {
        String(String(value, radix: 16, uppercase: true).leftPadded(to: 4))
    }
}
