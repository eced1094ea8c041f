import BLEWire
import Foundation

/// Replays a btsnoop capture through every decoder, the way a host or a controller would
/// meet the same bytes: H4 packets, events (typed), commands (typed) and their return
/// parameters, ACL fragments reassembled per connection and direction into L2CAP frames,
/// and the ATT, SMP and signaling PDUs inside them. Every decoded value must encode back
/// to the octets it came from.
struct CaptureReplay {
    /// What went through, counted by kind, and what failed, with the reason.
    var counts: [String: Int] = [:]
    var failures: [String] = []
    var unknownCommandOpcodes: Set<UInt16> = []
    var localNames: Set<String> = []
    var attOpcodes: Set<UInt8> = []
    var smpCodes: Set<UInt8> = []

    private var pending: [String: (expected: Int, bytes: [UInt8])] = [:]

    /// The capture file `name` in the Fixtures folder beside these tests.
    static func fixture(_ name: String) throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures").appendingPathComponent(name)
        return Array(try Data(contentsOf: url))
    }

    mutating func replay(_ capture: [UInt8]) throws(WireError) {
        var reader = try BTSnoop.Reader(capture)
        while let record = try reader.next() {
            count("record")
            replay(record: record)
        }
    }

    private mutating func count(_ kind: String) { counts[kind, default: 0] += 1 }

    private mutating func fail(_ what: String, _ error: WireError) {
        failures.append("\(what): \(error)")
    }

    private mutating func check(_ what: String, _ original: some Collection<UInt8>, _ reencoded: [UInt8]) {
        if Array(original) != reencoded {
            failures.append("\(what): re-encoded \(Hex.encode(reencoded)) differs from \(Hex.encode(original))")
        }
    }

    private mutating func replay(record: BTSnoop.Record) {
        let packet: H4.Packet
        do {
            packet = try H4.Packet(decoding: record.data)
        } catch {
            return fail("H4 packet", error)
        }
        check("H4 packet", record.data, packet.encoded())
        switch packet {
        case let .event(eventPacket): replay(event: eventPacket)
        case let .command(commandPacket): replay(command: commandPacket)
        case let .acl(acl): replay(acl: acl, direction: record.direction)
        case .sco, .iso: count("other data")
        }
    }

    private mutating func replay(event packet: HCI.EventPacket) {
        count("event")
        let event: HCI.Event
        do {
            event = try HCI.Event(decoding: packet)
        } catch {
            return fail("event \(packet.eventCode)", error)
        }
        check("event \(packet.eventCode)", packet.encoded(), event.encoded())
        switch event {
        case .unknown, .unknownLEMeta:
            count("unknown event")
        case let .commandComplete(complete) where !complete.isCreditsOnly:
            replay(returnParameters: complete.returnParameters, for: complete.opcode)
        case let .leMeta(.advertisingReport(report)):
            for entry in report.reports { replay(advertisingData: entry.data) }
        case let .leMeta(.extendedAdvertisingReport(report)):
            for entry in report.reports { replay(advertisingData: entry.data) }
        default:
            break
        }
    }

    private mutating func replay(returnParameters: ArraySlice<UInt8>, for opcode: HCI.Opcode) {
        guard HCI.commandType(for: opcode) != nil else { return }
        count("return parameters")
        do {
            let decoded = try HCI.decodeReturnParameters(for: opcode, returnParameters)
            check("return parameters of \(opcode)", returnParameters, decoded.encoded())
        } catch {
            fail("return parameters of \(opcode)", error)
        }
    }

    private mutating func replay(command packet: HCI.CommandPacket) {
        count("command")
        guard HCI.commandType(for: packet.opcode) != nil else {
            unknownCommandOpcodes.insert(packet.opcode.rawValue)
            return
        }
        do {
            let command = try HCI.decodeCommand(packet)
            check("command \(packet.opcode)", packet.parameters, command.encoded())
        } catch {
            fail("command \(packet.opcode)", error)
        }
    }

    private mutating func replay(advertisingData bytes: ArraySlice<UInt8>) {
        count("advertising data")
        do {
            let data = try AdvertisingData(decoding: bytes)
            try data.validate()
            if let name = data.localName { localNames.insert(name) }
            // Padding after a zero-length structure is dropped by design; compare the rest.
            check("advertising data", bytes.prefix(data.encoded().count), data.encoded())
        } catch {
            fail("advertising data \(Hex.encode(bytes))", error)
        }
    }

    /// Reassembles L2CAP frames from ACL fragments (Core 5.4, Vol 3, Part A, §7.2.1).
    private mutating func replay(acl: HCI.ACLPacket, direction: BTSnoop.Direction) {
        count("acl")
        let key = "\(acl.connectionHandle)-\(direction)"
        switch acl.packetBoundary {
        case .continuing:
            guard var partial = pending[key] else {
                failures.append("continuation fragment without a start on \(key)")
                return
            }
            partial.bytes += acl.data
            pending[key] = partial
        default:
            if pending[key] != nil { failures.append("new frame before the previous one completed on \(key)") }
            do {
                let header = try L2CAP.BasicFrame.Header(decoding: acl.data.prefix(L2CAP.BasicFrame.Header.size))
                pending[key] = (header.frameLength, Array(acl.data))
            } catch {
                return fail("L2CAP header", error)
            }
        }
        guard let partial = pending[key], partial.bytes.count >= partial.expected else { return }
        pending[key] = nil
        replay(frame: partial.bytes)
    }

    private mutating func replay(frame bytes: [UInt8]) {
        count("l2cap frame")
        let frame: L2CAP.BasicFrame
        do {
            frame = try L2CAP.BasicFrame(decoding: bytes)
        } catch {
            return fail("L2CAP frame", error)
        }
        check("L2CAP frame", bytes, frame.encoded())
        do {
            switch frame.channelIdentifier {
            case .attributeProtocol:
                count("att")
                let pdu = try ATT.PDU(decoding: frame.payload)
                attOpcodes.insert(frame.payload.first ?? 0)
                check("ATT PDU", frame.payload, pdu.encoded())
            case .securityManager:
                count("smp")
                let pdu = try SMP.PDU(decoding: frame.payload)
                smpCodes.insert(frame.payload.first ?? 0)
                check("SMP PDU", frame.payload, pdu.encoded())
            case .leSignaling:
                count("signaling")
                let command = try L2CAP.LESignalingCommand(decoding: frame.payload)
                check("signaling command", frame.payload, command.encoded())
            default:
                count("other channel")
            }
        } catch {
            fail("channel \(frame.channelIdentifier.rawValue) payload \(Hex.encode(frame.payload))", error)
        }
    }
}
