import BLEHost
import BLEProfiles
import Synchronization

/// What an ``AMSRemote`` reports, in order.
public enum AMSRemoteUpdate: Sendable, Hashable {
    /// The commands the phone's player takes now.
    case supportedCommands([AMS.RemoteCommandID])
    /// An attribute's value; a truncated one has been read in full through Entity Attribute.
    case attribute(entity: AMS.EntityID, attribute: UInt8, value: String)
}

/// The accessory's side of the Apple Media Service (the Media Remote), on a link a phone
/// made: it subscribes to Remote Command and Entity Update (pairing when the phone asks),
/// registers the attributes wanted, and reports their values as they change; it sends
/// remote commands.
public final class AMSRemote: Sendable {
    /// The values and command lists as they come. One reader.
    public let updates: AsyncStream<AMSRemoteUpdate>
    private let connection: Connection
    private let remoteCommand: RemoteCharacteristic
    private let entityAttribute: RemoteCharacteristic?
    private let reader: Mutex<Task<Void, Never>?> = Mutex(nil)

    private init(connection: Connection, remoteCommand: RemoteCharacteristic, entityAttribute: RemoteCharacteristic?,
                 updates: AsyncStream<AMSRemoteUpdate>) {
        self.connection = connection
        self.remoteCommand = remoteCommand
        self.entityAttribute = entityAttribute
        self.updates = updates
    }

    /// Every attribute of the player and the track.
    public static let nowPlaying: [AMS.EntityUpdateRegistration] = [
        AMS.EntityUpdateRegistration(entity: .player, attributes: AMS.PlayerAttributeID.allCases.map(\.rawValue)),
        AMS.EntityUpdateRegistration(entity: .track, attributes: AMS.TrackAttributeID.allCases.map(\.rawValue)),
    ]

    /// Starts following the phone's media on `connection`.
    /// - Throws: ``BLEError/invalidParameters(_:)`` when the phone serves no AMS; what
    ///   discovery, pairing and the writes throw.
    public static func start(on connection: Connection, registrations: [AMS.EntityUpdateRegistration] = nowPlaying)
        async throws(BLEError) -> AMSRemote {
        guard let service = try await connection.services([AMS.service]).first else { throw .invalidParameters("the phone serves no AMS") }
        let characteristics = try await connection.characteristics(of: service)
        guard let remote = characteristics.first(where: { $0.uuid == AMS.remoteCommand }),
              let update = characteristics.first(where: { $0.uuid == AMS.entityUpdate }) else {
            throw .invalidParameters("the phone's AMS lacks Remote Command or Entity Update")
        }
        let attribute = characteristics.first { $0.uuid == AMS.entityAttribute }
        // Entity Update first: registering needs its subscription (else Invalid State).
        let entityUpdates = try await subscribeSecurely(update, on: connection)
        let commandLists = try await subscribeSecurely(remote, on: connection)
        let (updates, continuation) = AsyncStream.makeStream(of: AMSRemoteUpdate.self, bufferingPolicy: .unbounded)
        let amsRemote = AMSRemote(connection: connection, remoteCommand: remote, entityAttribute: attribute, updates: updates)
        amsRemote.reader.withLock { $0 = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await list in commandLists {
                        continuation.yield(.supportedCommands(list.compactMap(AMS.RemoteCommandID.init(rawValue:))))
                    }
                }
                group.addTask {
                    for await bytes in entityUpdates {
                        guard let update = try? AMS.EntityUpdate(decoding: bytes) else { continue }
                        var value = update.value
                        if update.truncated, let full = try? await amsRemote.fullValue(of: update.entity, update.attribute) { value = full }
                        continuation.yield(.attribute(entity: update.entity, attribute: update.attribute, value: value))
                    }
                }
            }
            continuation.finish()
        } }
        for registration in registrations {
            try await connection.write(registration.encoded(), to: update)
        }
        return amsRemote
    }

    /// Sends `command` to the phone's player.
    public func send(_ command: AMS.RemoteCommandID) async throws(BLEError) {
        try await connection.write([command.rawValue], to: remoteCommand)
    }

    /// The full value of an attribute (Entity Attribute: write which, then read it).
    public func fullValue(of entity: AMS.EntityID, _ attribute: UInt8) async throws(BLEError) -> String {
        guard let entityAttribute else { throw .invalidParameters("the phone's AMS has no Entity Attribute") }
        try await connection.write(AMS.EntityAttributeRequest(entity: entity, attribute: attribute).encoded(), to: entityAttribute)
        return String(decoding: try await connection.read(entityAttribute), as: UTF8.self)
    }

    /// Stops reporting.
    public func stop() {
        reader.withLock { $0?.cancel() }
    }

    private static func subscribeSecurely(_ characteristic: RemoteCharacteristic, on connection: Connection) async throws(BLEError)
        -> GATTNotifications {
        do {
            return try await connection.notifications(for: characteristic)
        } catch .att(.insufficientAuthentication, _), .att(.insufficientEncryption, _) {
            try await connection.pair()
            return try await connection.notifications(for: characteristic)
        }
    }
}
