import BLEHost
import BLEProfiles
import Synchronization

/// The phone's side of the Apple Media Service (the Media Source): it serves a
/// ``PhoneMediaPlayer`` on the device's GATT server, with encryption required as iOS does.
///
/// Per the AMS Specification: subscribing to Remote Command brings the list of supported
/// commands (and again when it changes), a command written is passed to the player; an
/// Entity Update write registers attributes of one entity, whose current values are
/// notified at once and then on every change, each cut to ATT_MTU − 3 octets with the
/// Truncated flag when it does not fit; the full value is read through Entity Attribute.
/// Writing Entity Update or Entity Attribute without an Entity Update subscription gets
/// Invalid State (0xA0), a malformed write Invalid Command (0xA1), reading an empty
/// attribute Absent Attribute (0xA2).
public final class AMSProvider: Sendable {
    /// The player served.
    public let player: PhoneMediaPlayer
    private let device: BLEDevice

    private struct Client {
        var entityUpdates = false
        var registrations: [AMS.EntityID: [UInt8]] = [:]
        var attributeRequest: AMS.EntityAttributeRequest?
    }

    private struct Handles {
        var remoteCommand: LocalCharacteristic
        var entityUpdate: LocalCharacteristic
    }

    private let clients = Mutex<[UInt16: Client]>([:])
    private let handles = Mutex<Handles?>(nil)
    private let tasks = Mutex<[Task<Void, Never>]>([])
    private let observer = Mutex<UInt64?>(nil)

    private init(device: BLEDevice, player: PhoneMediaPlayer) {
        self.device = device
        self.player = player
    }

    /// Publishes AMS on `device`'s GATT server, serving `player`.
    public static func start(on device: BLEDevice, player: PhoneMediaPlayer) async throws(BLEError) -> AMSProvider {
        let provider = AMSProvider(device: device, player: player)
        let services = try await device.peripheral.add(Service(AMS.service) {
            Characteristic(AMS.remoteCommand, properties: [.write, .writeWithoutResponse, .notify],
                           permissions: [.writeable, .writeEncryptionRequired], subscriptionPermissions: .writeEncryptionRequired,
                           onWrite: { [weak provider] request in await provider?.remoteCommand(request) ?? .failure(.unlikelyError) })
            Characteristic(AMS.entityUpdate, properties: [.write, .notify],
                           permissions: [.writeable, .writeEncryptionRequired], subscriptionPermissions: .writeEncryptionRequired,
                           onWrite: { [weak provider] request in await provider?.entityUpdate(request) ?? .failure(.unlikelyError) })
            Characteristic(AMS.entityAttribute, properties: [.read, .write],
                           permissions: [.readable, .writeable, .readEncryptionRequired, .writeEncryptionRequired],
                           onRead: { [weak provider] request in await provider?.entityAttribute(request) ?? .failure(.unlikelyError) },
                           onWrite: { [weak provider] request in await provider?.entityAttributeRequest(request) ?? .failure(.unlikelyError) })
        })
        guard let remote = services.gatt.characteristic(AMS.remoteCommand, in: AMS.service),
              let update = services.gatt.characteristic(AMS.entityUpdate, in: AMS.service) else {
            throw .invalidParameters("the AMS service was published without its characteristics")
        }
        provider.handles.withLock { $0 = Handles(remoteCommand: remote, entityUpdate: update) }
        let subscriptions = device.peripheral.watchSubscriptions()
        let (changes, id) = player.observe()
        provider.observer.withLock { $0 = id }
        provider.tasks.withLock { tasks in
            tasks.append(Task { [weak provider] in
                for await change in subscriptions { await provider?.subscriptionChanged(change) }
            })
            tasks.append(Task { [weak provider] in
                for await change in changes { await provider?.playerChanged(change) }
            })
        }
        return provider
    }

    /// Stops passing changes on; the service stays published.
    public func stop() {
        for task in tasks.withLock({ $0 }) { task.cancel() }
        if let id = observer.withLock({ $0 }) { player.stopObserving(id) }
    }

    // MARK: Subscriptions and changes

    private func subscriptionChanged(_ change: GATTSubscriptionChange) async {
        guard let handles = handles.withLock({ $0 }) else { return }
        switch change.valueHandle {
        case handles.entityUpdate.valueHandle:
            clients.withLock { clients in
                if change.isSubscribed {
                    clients[change.connection, default: Client()].entityUpdates = true
                } else {
                    clients[change.connection] = nil
                }
            }
        case handles.remoteCommand.valueHandle where change.isSubscribed:
            await sendSupportedCommands(to: change.connection)
        default:
            break
        }
    }

    private func playerChanged(_ change: PhoneMediaPlayer.Change) async {
        switch change {
        case .supportedCommands:
            guard let handles = handles.withLock({ $0 }) else { return }
            for connection in await device.peripheral.subscribers(of: handles.remoteCommand) {
                await sendSupportedCommands(to: connection)
            }
        case let .attributes(changed):
            let targets = clients.withLock { clients in
                clients.compactMap { connection, client -> (UInt16, [(AMS.EntityID, UInt8)])? in
                    guard client.entityUpdates else { return nil }
                    let wanted = changed.filter { client.registrations[$0.0]?.contains($0.1) == true }
                    return wanted.isEmpty ? nil : (connection, wanted)
                }
            }
            for (connection, attributes) in targets { await sendUpdates(attributes, to: connection) }
        }
    }

    private func sendSupportedCommands(to connection: UInt16) async {
        guard let handles = handles.withLock({ $0 }) else { return }
        _ = try? await device.peripheral.notify(player.supportedCommands.map(\.rawValue), to: handles.remoteCommand, on: connection)
    }

    private func sendUpdates(_ attributes: [(AMS.EntityID, UInt8)], to connection: UInt16) async {
        guard let handles = handles.withLock({ $0 }) else { return }
        let mtu = await device.peripheral.attMTU(on: connection)
        let now = player.nowPlaying
        for (entity, attribute) in attributes {
            guard let value = now.value(of: entity, attribute) else { continue }
            let update = AMS.EntityUpdate(entity: entity, attribute: attribute, value: value, attMTU: mtu)
            guard (try? await device.peripheral.notify(update.encoded(), to: handles.entityUpdate, on: connection)) != nil else { return }
        }
    }

    // MARK: Writes and reads

    private func remoteCommand(_ request: GATTWriteRequest) async -> Result<Void, ATT.ErrorCode> {
        guard request.value.count == 1, let command = AMS.RemoteCommandID(rawValue: request.value[0]) else {
            return .failure(AMS.ErrorCode.invalidCommand.attError)
        }
        player.received(command)
        return .success(())
    }

    private func entityUpdate(_ request: GATTWriteRequest) async -> Result<Void, ATT.ErrorCode> {
        let registration: AMS.EntityUpdateRegistration
        do {
            registration = try AMS.EntityUpdateRegistration(decoding: request.value)
        } catch {
            return .failure(error.attError)
        }
        let subscribed = clients.withLock { clients -> Bool in
            guard clients[request.connection]?.entityUpdates == true else { return false }
            clients[request.connection]?.registrations[registration.entity] = registration.attributes
            return true
        }
        guard subscribed else { return .failure(AMS.ErrorCode.invalidState.attError) }
        // The current values follow the Write Response at once (AMS Specification).
        let connection = request.connection
        let attributes = registration.attributes.map { (registration.entity, $0) }
        Task { await self.sendUpdates(attributes, to: connection) }
        return .success(())
    }

    private func entityAttributeRequest(_ request: GATTWriteRequest) async -> Result<Void, ATT.ErrorCode> {
        let wanted: AMS.EntityAttributeRequest
        do {
            wanted = try AMS.EntityAttributeRequest(decoding: request.value)
        } catch {
            return .failure(error.attError)
        }
        let subscribed = clients.withLock { clients -> Bool in
            guard clients[request.connection]?.entityUpdates == true else { return false }
            clients[request.connection]?.attributeRequest = wanted
            return true
        }
        return subscribed ? .success(()) : .failure(AMS.ErrorCode.invalidState.attError)
    }

    private func entityAttribute(_ request: GATTReadRequest) async -> Result<[UInt8], ATT.ErrorCode> {
        guard let wanted = clients.withLock({ $0[request.connection]?.attributeRequest }) else {
            return .failure(AMS.ErrorCode.invalidState.attError)
        }
        guard let value = player.nowPlaying.value(of: wanted.entity, wanted.attribute), !value.isEmpty else {
            return .failure(AMS.ErrorCode.absentAttribute.attError)
        }
        let octets = Self.attributeValue(value)
        guard request.offset <= octets.count else { return .failure(.invalidOffset) }
        return .success(Array(octets[request.offset...]))
    }

    /// `text`'s UTF-8, cut to the 512 octets an attribute value may hold (Core 5.4, Vol 3,
    /// Part F, §3.2.9) at a character boundary: a client reads no more with Read Long.
    static func attributeValue(_ text: String) -> [UInt8] {
        let octets = Array(text.utf8)
        guard octets.count > 512 else { return octets }
        var end = 512
        // A continuation octet (10xxxxxx) at the cut means its character began before it.
        while end > 0, octets[end] & 0xC0 == 0x80 { end -= 1 }
        return Array(octets[..<end])
    }
}
