import BLE
import BLEProfiles
import Foundation
import SimulatedTesting
import Synchronization
import Testing

/// A phone (our AMS provider) and an accessory (our AMS remote) in one world.
@Suite("AMS between a phone and an accessory", .simulated, .serialized, .timeLimit(.minutes(5)))
struct AMSTests {
    /// Every update of a remote, kept as it comes.
    actor UpdateLog {
        private(set) var updates: [AMSRemoteUpdate] = []
        private var waiters: [(check: @Sendable ([AMSRemoteUpdate]) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []

        init(_ stream: AsyncStream<AMSRemoteUpdate>) {
            Task { for await update in stream { await self.append(update) } }
        }

        private func append(_ update: AMSRemoteUpdate) {
            updates.append(update)
            var waiting: [(check: @Sendable ([AMSRemoteUpdate]) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
            for waiter in waiters {
                if waiter.check(updates) { waiter.continuation.resume() } else { waiting.append(waiter) }
            }
            waiters = waiting
        }

        func wait(until check: @escaping @Sendable ([AMSRemoteUpdate]) -> Bool) async {
            // The check runs inside the continuation's body, where no update can slip in
            // between it and the wait.
            await withCheckedContinuation { continuation in
                if check(updates) { continuation.resume() } else { waiters.append((check, continuation)) }
            }
        }

        /// The last value reported for `attribute` of `entity`.
        func value(_ entity: AMS.EntityID, _ attribute: UInt8) -> String? {
            updates.reversed().lazy.compactMap { update -> String? in
                guard case let .attribute(e, a, value) = update, e == entity, a == attribute else { return nil }
                return value
            }.first
        }
    }

    static func has(_ entity: AMS.EntityID, _ attribute: UInt8, _ value: String) -> @Sendable ([AMSRemoteUpdate]) -> Bool {
        { updates in updates.contains(.attribute(entity: entity, attribute: attribute, value: value)) }
    }

    @Test("Now playing reaches the remote, a title too long for a notification is read with Read Long up to an attribute's 512 octets, and commands change the player")
    func nowPlayingAndCommands() async throws {
        let world = try await SharedWorld.make(devices: 2)
        let (phone, accessory) = (world.devices[0], world.devices[1])
        let player = PhoneMediaPlayer()
        let longTitle = String(repeating: "Symphony ", count: 70)  // 630 octets: more than ATT_MTU − 6
        player.update { now in
            now.playerName = "Music"
            now.artist = "Ludwig"
            now.title = "Ode"
            now.duration = 120
            now.queueCount = 3
        }
        let provider = try await AMSProvider.start(on: phone, player: player)
        _ = try await accessory.peripheral.advertise(AdvertisingContent(name: "Remote", solicitedServiceUUIDs: [AMS.service]))
        let accepted = Task { () -> Connection? in
            for await connection in accessory.peripheral.connections { return connection }
            return nil
        }
        _ = try await within { try await phone.central.connect(to: world.addresses[1]) }
        let link = try #require(await accepted.value)
        let remote = try await within { try await AMSRemote.start(on: link) }
        let log = UpdateLog(remote.updates)
        // Registered last, the track's duration comes last.
        await log.wait(until: Self.has(.track, AMS.TrackAttributeID.duration.rawValue, "120.000"))
        #expect(await log.value(.track, AMS.TrackAttributeID.title.rawValue) == "Ode")
        #expect(await log.value(.track, AMS.TrackAttributeID.artist.rawValue) == "Ludwig")
        #expect(await log.value(.player, AMS.PlayerAttributeID.playbackInfo.rawValue) == "0,0.0,0.000")
        #expect(await log.updates.contains(.supportedCommands(Array(AMS.RemoteCommandID.allCases.prefix(7)))))
        #expect(await link.securityLevel != .none, "the phone asked for encryption")

        player.update { $0.title = longTitle }
        // No attribute value is longer than 512 octets (Core 5.4, Vol 3, Part F, §3.2.9).
        let readable = String(decoding: longTitle.utf8.prefix(512), as: UTF8.self)
        await log.wait(until: Self.has(.track, AMS.TrackAttributeID.title.rawValue, readable))

        try await remote.send(.play)
        await log.wait(until: Self.has(.player, AMS.PlayerAttributeID.playbackInfo.rawValue, "1,1.0,0.000"))
        try await remote.send(.nextTrack)
        #expect(player.nowPlaying.queueIndex == 1)
        var commands = player.commands.makeAsyncIterator()
        #expect(await commands.next() == .play)
        #expect(await commands.next() == .nextTrack)
        // RemoteCommandID 14 is reserved: Invalid Command, carried as ATT error 0xA1.
        let control = try #require(await Self.characteristic(AMS.remoteCommand, on: link))
        do {
            try await link.write([0x0E], to: control)
            Issue.record("a reserved command was accepted")
        } catch let .att(code, _) {
            #expect(code.rawValue == AMS.ErrorCode.invalidCommand.rawValue)
        }
        remote.stop()
        provider.stop()
        await world.close()
    }

    static func characteristic(_ uuid: BluetoothUUID, on link: Connection) async -> RemoteCharacteristic? {
        guard let service = try? await link.services([AMS.service]).first else { return nil }
        return try? await link.characteristics(of: service).first { $0.uuid == uuid }
    }
}
