import BLEController
import BLEWire

/// One line of `ble sim run` output per HCI event of interest: as JSON (`--json`) for tools,
/// or as readable text. Number Of Completed Packets events (flow-control bookkeeping) are
/// not of interest; everything else is.
public enum SimulationLog {
    /// A JSON value whose objects keep their keys in the order written, so output lines
    /// are byte-identical from run to run.
    public indirect enum JSON: Hashable, Sendable {
        /// A string.
        case string(String)
        /// An integer.
        case integer(Int64)
        /// A number printed with six decimals (seconds to the microsecond).
        case seconds(Microseconds)
        /// A finite number printed with at most three decimals (dBm, metres); a non-finite
        /// one prints as null.
        case number(Double)
        /// true or false.
        case bool(Bool)
        /// An array.
        case array([JSON])
        /// An object, keys in order.
        case object([(String, JSON)])
        /// null.
        case null

        /// The compact JSON text.
        public var text: String {
            switch self {
            case let .string(value): return SimulationLog.quote(value)
            case let .integer(value): return String(value)
            case let .seconds(micros): return SimulationLog.seconds(micros)
            case let .number(value):
                guard value.isFinite else { return "null" }
                let rounded = (value * 1000).rounded() / 1000
                return rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(Int64(rounded)) : String(rounded)
            case let .bool(value): return value ? "true" : "false"
            case let .array(values): return "[" + values.map(\.text).joined(separator: ", ") + "]"
            case let .object(pairs):
                return "{" + pairs.map { SimulationLog.quote($0.0) + ": " + $0.1.text }.joined(separator: ", ") + "}"
            case .null: return "null"
            }
        }

        public static func == (lhs: JSON, rhs: JSON) -> Bool { lhs.text == rhs.text }
        public func hash(into hasher: inout Hasher) { hasher.combine(text) }
    }

    /// `"…"` with JSON escapes.
    public static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// Microseconds as seconds with six decimals: `1.000250`.
    public static func seconds(_ micros: Microseconds) -> String {
        let sign = micros < 0 ? "-" : ""
        let magnitude = micros.magnitude
        let fraction = String(magnitude % 1_000_000)
        return sign + String(magnitude / 1_000_000) + "." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    /// The object for one controller-to-host packet, or `nil` if it is not of interest:
    /// `{"time": 0.000150, "device": "tag", "event": "commandComplete", …}`.
    public static func entry(time: Microseconds, device: String, packet: H4.Packet) -> JSON? {
        guard case let .event(eventPacket) = packet else { return nil }
        var fields: [(String, JSON)] = [("time", .seconds(time)), ("device", .string(device))]
        guard let event = try? HCI.Event(decoding: eventPacket) else {
            fields += [("event", .string("malformed")), ("code", .string(hex8(eventPacket.eventCode.rawValue))),
                       ("parameters", .string(Hex.encode(eventPacket.parameters)))]
            return .object(fields)
        }
        switch event {
        case .numberOfCompletedPackets:
            return nil
        case let .commandComplete(complete):
            fields += [("event", .string("commandComplete")), ("opcode", .string(complete.opcode.description))]
            if let name = complete.opcode.name { fields.append(("command", .string(name))) }
            if let status = complete.returnParameters.first { fields.append(("status", .string(hex8(status)))) }
        case let .commandStatus(status):
            fields += [("event", .string("commandStatus")), ("opcode", .string(status.opcode.description)),
                       ("status", .string(hex8(status.status.rawValue)))]
        case let .disconnectionComplete(event):
            fields += [("event", .string("disconnectionComplete")), ("handle", .integer(Int64(event.connectionHandle))),
                       ("reason", .string(hex8(event.reason.rawValue)))]
        case let .leMeta(.advertisingReport(report)):
            fields += [("event", .string("leAdvertisingReport")), ("reports", .array(report.reports.map { item -> JSON in
                .object([("address", .string(item.address.description)),
                         ("addressType", .string(item.address.kind == .random ? "random" : "public")),
                         ("eventType", .integer(Int64(item.eventType.rawValue))), ("rssi", .integer(Int64(item.rssi))),
                         ("data", .string(Hex.encode(item.data)))])
            }))]
        case let .leMeta(.extendedAdvertisingReport(report)):
            // An extended scan's reports (§7.7.65.13), with the PHYs they came on.
            func phy(_ value: HCI.PHY?) -> JSON {
                switch value {
                case .le1M?: .string("1m")
                case .le2M?: .string("2m")
                case .leCoded?: .string("coded")
                case nil: .null
                }
            }
            fields += [("event", .string("leExtendedAdvertisingReport")), ("reports", .array(report.reports.map { item -> JSON in
                .object([("address", .string(item.address.description)),
                         ("addressType", .string(item.address.kind == .random ? "random" : "public")),
                         ("eventType", .integer(Int64(item.eventType.rawValue))), ("primaryPHY", phy(item.primaryPHY)),
                         ("secondaryPHY", phy(item.secondaryPHY)), ("rssi", .integer(Int64(item.rssi))),
                         ("data", .string(Hex.encode(item.data)))])
            }))]
        case let .leMeta(meta):
            fields += [("event", .string("leMeta")), ("subevent", .string(hex8(meta.subeventCode.rawValue))),
                       ("parameters", .string(Hex.encode(event.packet.parameters.dropFirst())))]
        default:
            fields += [("event", .string("event")), ("code", .string(hex8(event.eventCode.rawValue))),
                       ("parameters", .string(Hex.encode(eventPacket.parameters)))]
        }
        return .object(fields)
    }

    /// One readable line for the same packet, or `nil` if it is not of interest.
    public static func readableLine(time: Microseconds, device: String, packet: H4.Packet) -> String? {
        guard case let .object(fields)? = entry(time: time, device: device, packet: packet) else { return nil }
        let details = fields.dropFirst(2).map { key, value -> String in
            if case let .string(text) = value { return "\(key)=\(text)" }
            return "\(key)=\(value.text)"
        }
        return "\(seconds(time)) s  \(device): " + details.joined(separator: " ")
    }

    private static func hex8(_ value: UInt8) -> String {
        "0x" + (value < 0x10 ? "0" : "") + String(value, radix: 16, uppercase: true)
    }
}
