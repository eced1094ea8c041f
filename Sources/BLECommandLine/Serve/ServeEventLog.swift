import BLEServe
import BLEStorage

/// How `ble serve` logs a serve event: the line's `event` name and its fields, in the order
/// docs/cli.md lists them.
extension ServeEvent {
    /// The `event` of the line.
    var logName: String {
        switch self {
        case .connected: return "connected"
        case .disconnected: return "disconnected"
        case .encrypted: return "encrypted"
        case .pairing(.paired): return "paired"
        case .pairing(.pairingFailed): return "pairingFailed"
        case .pairing(.saveFailed): return "bondNotSaved"
        case .read: return "read"
        case .write: return "write"
        case .subscribed: return "subscribe"
        case .mtuChanged: return "mtu"
        case .bearerClosed: return "bearerClosed"
        case .streamed: return "streamed"
        }
    }

    /// The line's fields after `time` and `event`.
    var logFields: [(String, JSONText)] {
        switch self {
        case let .connected(link):
            return [("connection", .integer(Int(link.handle))), ("peer", .string("\(link.peer)"))]
        case let .disconnected(handle, reason):
            return [("connection", .integer(Int(handle))), ("reason", .integer(Int(reason.rawValue))), ("reasonName", .string(reason.name))]
        case let .encrypted(handle, encryption):
            return [("connection", .integer(Int(handle))), ("level", .integer(encryption.level.rawValue)), ("keySize", .integer(encryption.keySize))]
        case let .pairing(event):
            return Self.pairingFields(event)
        case let .read(access), let .write(access):
            var entries: [(String, JSONText)] = [
                ("connection", .integer(Int(access.connection))), ("handle", .integer(Int(access.handle))),
                ("uuid", access.uuid.map { .string(GATTDocument.text($0)) } ?? .null), ("offset", .integer(access.offset)),
                ("value", .hex(access.value)),
            ]
            if let error = access.error { entries += [("error", .integer(Int(error.rawValue))), ("errorName", .string(error.name))] }
            return entries
        case let .subscribed(subscription, uuid):
            return [("connection", .integer(Int(subscription.connection))), ("handle", .integer(Int(subscription.valueHandle))),
                    ("uuid", uuid.map { .string(GATTDocument.text($0)) } ?? .null),
                    ("notify", .bool(subscription.notify)), ("indicate", .bool(subscription.indicate))]
        case let .mtuChanged(connection, mtu):
            return [("connection", .integer(Int(connection))), ("mtu", .integer(mtu))]
        case let .bearerClosed(connection, reason):
            return [("connection", .integer(Int(connection))), ("reason", .string(reason.description))]
        case let .streamed(connection, handle, indications, count, size, seconds):
            return [("connection", .integer(Int(connection))), ("handle", .integer(Int(handle))),
                    ("kind", .string(indications ? "indication" : "notification")),
                    ("count", .integer(count)), ("size", .integer(size)), ("seconds", .number(seconds))]
        }
    }

    /// `paired` (method, level, key size, Secure Connections, bonded, saved), `pairingFailed`
    /// (reason, whether we sent it) and `bondNotSaved` (why).
    private static func pairingFields(_ event: BondKeeper.Event) -> [(String, JSONText)] {
        switch event {
        case let .paired(handle, peer, result, record):
            return [("connection", .integer(Int(handle))), ("peer", .string("\(peer)")),
                    ("method", .string(PairingOutcome.name(of: result.method))), ("level", .integer(result.level.rawValue)),
                    ("keySize", .integer(Int(result.keySize))), ("sc", .bool(result.secureConnections)),
                    ("bonded", .bool(result.bonded)), ("saved", .bool(record != nil))]
        case let .pairingFailed(handle, peer, failure):
            let sent: Bool
            if case .sent = failure { sent = true } else { sent = false }
            return [("connection", .integer(Int(handle))), ("peer", .string("\(peer)")),
                    ("reason", failure.reason.map { JSONText.integer(Int($0.rawValue)) } ?? JSONText.null),
                    ("reasonName", failure.reason.map { JSONText.string("\($0)") } ?? JSONText.null), ("sent", .bool(sent))]
        case let .saveFailed(error):
            return [("reason", .string(error.description))]
        }
    }
}
