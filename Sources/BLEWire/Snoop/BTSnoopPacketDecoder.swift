extension BTSnoop {
    /// One packet of a capture, decoded as far as the wire decoders go: the HCI packet
    /// and, inside ACL data, the L2CAP frame and the ATT, SMP or LE signaling PDU it
    /// carries. `ble snoop` prints one line of it per record.
    public struct DecodedPacket: Hashable, Sendable {
        /// The record's index, from 1 (as Wireshark and `btmon -r` count).
        public var number: Int
        /// Seconds since the first record.
        public var seconds: Double
        /// Host to controller (``BTSnoop/Direction/sent``) or controller to host.
        public var direction: Direction
        /// The HCI packet type: Command, Event, ACL, SCO or ISO; `?` when the record's
        /// packet could not be read.
        public var kind: String
        /// What the packet is, by name in words — "LE Advertising Report", "ATT Read By Group
        /// Type Request" — on one line; "malformed: …" when a decoder refused it.
        public var summary: String
        /// Its fields, named and formatted for a person as `btmon -r` prints them, for
        /// `ble snoop --verbose`; empty for a packet with none or one no decoder read.
        public var fields: [PacketDescription.Field]
        /// The ACL connection handle, for data packets.
        public var handle: UInt16?
        /// The L2CAP channel of a complete frame.
        public var channel: UInt16?
        /// Whether a decoder refused the packet.
        public var isMalformed: Bool
    }

    /// Turns btsnoop records into ``DecodedPacket``s: HCI commands and events by name with their
    /// fields (Core 5.4, Vol 4, Part E, §7), ACL data reassembled per handle and direction
    /// into L2CAP basic frames (Vol 3, Part A, §3.1), and their payload decoded on the ATT
    /// (0x0004), LE signaling (0x0005) and SMP (0x0006) channels. A packet a decoder refuses is
    /// shown as malformed and decoding goes on with the next.
    public struct PacketDecoder: Sendable {
        private struct FragmentKey: Hashable, Sendable {
            var handle: UInt16
            var sent: Bool
        }

        /// How the capture frames its packets (its header's datalink).
        public let datalink: Datalink
        private var firstTimestamp: Int64?
        private var fragments: [FragmentKey: [UInt8]] = [:]

        /// A decoder for the records of a capture whose header names `datalink`.
        public init(datalink: Datalink) {
            self.datalink = datalink
        }

        /// Decodes `record`, the capture's `number`th; ACL fragments are kept until their
        /// L2CAP frame is whole, so records must come in the capture's order.
        public mutating func decode(_ record: Record, number: Int) -> DecodedPacket {
            let first = firstTimestamp ?? record.timestamp
            firstTimestamp = first
            var line = DecodedPacket(number: number, seconds: Double(record.timestamp - first) / 1_000_000,
                                     direction: record.direction, kind: "?", summary: "", fields: [], handle: nil, channel: nil, isMalformed: false)
            do throws(WireError) {
                let (kind, bytes) = try record.hciPacket(datalink: datalink)
                switch kind {
                case .command:
                    line.kind = "Command"
                    line.describe(PacketDescription.command(try HCI.CommandPacket(decoding: Array(bytes))))
                case .event:
                    line.kind = "Event"
                    let packet = try HCI.EventPacket(decoding: Array(bytes))
                    line.describe(PacketDescription.event(try HCI.Event(decoding: packet)))
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
                line.isMalformed = true
                line.summary = "malformed: \(error)"
            }
            return line
        }

        /// ACL data: a start fragment begins an L2CAP frame, continuations extend it; a
        /// complete frame is decoded by channel.
        private mutating func describeACL(_ packet: HCI.ACLPacket, sent: Bool, into line: inout DecodedPacket) {
            let key = FragmentKey(handle: packet.connectionHandle, sent: sent)
            var frame: [UInt8]
            switch packet.packetBoundary {
            case .continuing:
                guard let started = fragments[key] else {
                    line.isMalformed = true
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
                line.isMalformed = true
                line.summary += "malformed: \(frame.count - 4 - length) octets after the L2CAP frame; "
            }
            let (description, refused) = Self.describeL2CAP(channel: channel, payload)
            line.summary += description.title
            line.fields = description.fields
            line.isMalformed = line.isMalformed || refused
        }

        /// The frame's payload by channel, and whether its decoder refused it.
        private static func describeL2CAP(channel: UInt16, _ payload: ArraySlice<UInt8>) -> (PacketDescription, Bool) {
            do throws(WireError) {
                switch channel {
                case L2CAP.ChannelIdentifier.attributeProtocol.rawValue:
                    return (PacketDescription.att(try ATT.PDU(decoding: Array(payload))), false)
                case L2CAP.ChannelIdentifier.securityManager.rawValue:
                    return (PacketDescription.smp(try SMP.PDU(decoding: Array(payload))), false)
                case L2CAP.ChannelIdentifier.leSignaling.rawValue:
                    return (PacketDescription.leSignaling(try L2CAP.LESignalingCommand(decoding: Array(payload))), false)
                default:
                    return (PacketDescription.l2capFrame(channel: channel, payload), false)
                }
            } catch {
                return (PacketDescription("malformed on CID 0x\(hex(channel)): \(error)",
                                          [PacketDescription.Field("Data", Hex.encode(payload))]), true)
            }
        }

        /// `value` as four uppercase hex digits.
        static func hex(_ value: UInt16) -> String {
            let digits = String(value, radix: 16, uppercase: true)
            return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        }
    }
}

extension BTSnoop.DecodedPacket {
    /// Takes `description`'s title as the summary and its fields.
    mutating func describe(_ description: BTSnoop.PacketDescription) {
        summary = description.title
        fields = description.fields
    }

    /// The fields as indented lines, two spaces per level from `indent`, as `btmon -r`
    /// prints them below a packet.
    public func fieldLines(indent: Int = 0) -> [String] {
        BTSnoop.PacketDescription(summary, fields).fieldLines(indent: indent)
    }
}
