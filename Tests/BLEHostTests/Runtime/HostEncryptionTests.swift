import BLEHost
import BLEWire
import SimulatedTesting
import Synchronization
import Testing

/// Link encryption between two of our hosts over a simulated world (Core 5.4, Vol 3, Part C,
/// §10; Vol 6, Part B, §5.1.3): a central with a stored LTK, a peripheral whose provider
/// answers the LTK request, and a GATT server that checks the link's security.
/// Values recorded from `@Sendable` closures, in order.
final class Recorded<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])
    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
}

@Suite("Host link encryption over a simulated world", .simulated, .timeLimit(.minutes(3)))
struct HostEncryptionTests {
    static let serviceUUID = BluetoothUUID(uuid128: 0xA7E3_C0DE_5B1E_4E6B_9F00_0000_0000_00E0)
    static let secretUUID = BluetoothUUID(0xFF10)
    static let secret: [UInt8] = [0x5E, 0xC2, 0xE7]
    static let ltk: UInt128 = 0x0011_2233_4455_6677_8899_AABB_CCDD_EEFF
    static let ediv: UInt16 = 0x2468
    static let rand: UInt64 = 0x1357_9BDF_0246_8ACE

    /// Two connected hosts; the peripheral serves a characteristic readable only encrypted.
    static func hosts() async throws -> (ConnectedHosts, ATT.Handle) {
        let hosts = try await ConnectedHosts.make(speed: 20, timing: "ideal")
        let database = try await hosts.peripheral.publishGATT([GATTServiceDefinition(uuid: serviceUUID, characteristics: [
            GATTCharacteristicDefinition(uuid: secretUUID, properties: [.read], permissions: [.readable, .readEncryptionRequired],
                                         value: .stored(secret)),
        ])])
        let handle = try #require(database.valueHandle(of: secretUUID, inService: serviceUUID))
        return (hosts, handle)
    }

    /// A provider that knows one key, named by `ediv` and `rand`, and records every request.
    static func provider(
        key: UInt128, level: LinkSecurityLevel, seen: Recorded<LongTermKeyRequest>
    ) -> LongTermKeyProvider {
        { request in
            seen.append(request)
            guard request.ediv == ediv, request.rand == rand else { return nil }
            return (longTermKey: key, level: level)
        }
    }

    static func read(_ handle: ATT.Handle, _ hosts: ConnectedHosts) async throws -> [UInt8]? {
        guard case let .value(value) = try await hosts.central.gatt(.read(handle), on: hosts.centralHandle) else { return nil }
        return value
    }

    @Test("the same LTK on both sides encrypts both links at the given level with a 16-octet key; a protected read fails 0x05 before and succeeds after")
    func encryptWithSharedKey() async throws {
        let (hosts, handle) = try await Self.hosts()
        // Start-up asked for the events encryption needs (Vol 4, Part E, §7.3.1, §7.8.1).
        #expect(await hosts.peripheral.controller?.leEventMask?.contains(.longTermKeyRequest) == true)
        #expect(HCIDriverConfiguration.defaultEventMask.isSuperset(of: [.encryptionChange, .encryptionKeyRefreshComplete]))
        let seen = Recorded<LongTermKeyRequest>()
        await hosts.peripheral.setLongTermKeyProvider(Self.provider(key: Self.ltk, level: .authenticated, seen: seen))
        await #expect(throws: GATTClientError.att(.insufficientAuthentication, handle: handle)) { try await Self.read(handle, hosts) }

        let peripheralEvents = hosts.peripheral.events
        let encryption = try await hosts.central.startEncryption(
            hosts.centralHandle, ltk: Self.ltk, ediv: Self.ediv, rand: Self.rand, level: .authenticated)
        #expect(encryption == LinkEncryption(level: .authenticated, keySize: 16))
        #expect(await hosts.central.linkSecurity(hosts.centralHandle) == LinkSecurity(level: .authenticated, keySize: 16, hasKey: true))
        let peripheralHandle = hosts.peripheralHandle
        let changed = try await firstElement(of: peripheralEvents, within: patience) {
            if case .encryptionChanged(peripheralHandle, _) = $0 { return true } else { return false }
        }
        #expect(changed == .encryptionChanged(handle: peripheralHandle, LinkEncryption(level: .authenticated, keySize: 16)))
        #expect(await hosts.peripheral.linkSecurity(peripheralHandle) == LinkSecurity(level: .authenticated, keySize: 16, hasKey: true))
        #expect(seen.all == [LongTermKeyRequest(
            handle: peripheralHandle, peer: hosts.running.addresses[1], ediv: Self.ediv, rand: Self.rand)])

        #expect(try await Self.read(handle, hosts) == Self.secret)
        await hosts.close()
    }

    @Test("with the security upgrade handler the first protected read succeeds: the handler encrypts and the read runs again")
    func retryAfterUpgrade() async throws {
        let (hosts, handle) = try await Self.hosts()
        let seen = Recorded<LongTermKeyRequest>()
        await hosts.peripheral.setLongTermKeyProvider(Self.provider(key: Self.ltk, level: .unauthenticated, seen: seen))
        let calls = Recorded<ATT.ErrorCode>()
        let central = hosts.central
        await central.setSecurityUpgradeHandler { connection, error in
            calls.append(error)
            do {
                try await central.startEncryption(connection, ltk: Self.ltk, ediv: Self.ediv, rand: Self.rand, level: .unauthenticated)
                return true
            } catch {
                return false
            }
        }
        #expect(try await Self.read(handle, hosts) == Self.secret)
        #expect(calls.all == [.insufficientAuthentication])
        #expect(await central.linkSecurity(hosts.centralHandle).level == .unauthenticated)
        // Encrypted now: the next read needs no upgrade.
        #expect(try await Self.read(handle, hosts) == Self.secret)
        #expect(calls.all.count == 1)
        await hosts.close()
    }

    @Test("a peripheral without the key answers with a negative reply: the central fails with PIN or Key Missing and the link stays unencrypted")
    func negativeReply() async throws {
        let (hosts, handle) = try await Self.hosts()
        let seen = Recorded<LongTermKeyRequest>()
        await hosts.peripheral.setLongTermKeyProvider(Self.provider(key: Self.ltk, level: .authenticated, seen: seen))
        // EDIV and Rand the provider does not know.
        await #expect(throws: HostError.gap(.controller(.pinOrKeyMissing))) {
            try await hosts.central.startEncryption(hosts.centralHandle, ltk: Self.ltk, ediv: 1, rand: 2, level: .authenticated)
        }
        #expect(seen.all.map(\.ediv) == [1])
        #expect(await hosts.central.linkSecurity(hosts.centralHandle) == .unencrypted)
        #expect(await hosts.peripheral.linkSecurity(hosts.peripheralHandle) == .unencrypted)
        // The link still works, unencrypted, and a bond the app knows of changes the error.
        await hosts.peripheral.setLinkHasKey(hosts.peripheralHandle, true)
        await #expect(throws: GATTClientError.att(.insufficientEncryption, handle: handle)) { try await Self.read(handle, hosts) }
        await hosts.close()
    }

    @Test("a wrong LTK on the peripheral ends the link with MIC failure on both sides; the central's call fails, nothing hangs")
    func wrongKey() async throws {
        let (hosts, _) = try await Self.hosts()
        let seen = Recorded<LongTermKeyRequest>()
        await hosts.peripheral.setLongTermKeyProvider(Self.provider(key: Self.ltk ^ UInt128(1), level: .authenticated, seen: seen))
        let peripheralEvents = hosts.peripheral.events
        await #expect(throws: HostError.gap(.controller(.connectionTerminatedMICFailure))) {
            try await hosts.central.startEncryption(
                hosts.centralHandle, ltk: Self.ltk, ediv: Self.ediv, rand: Self.rand, level: .authenticated)
        }
        let peripheralHandle = hosts.peripheralHandle
        let down = try await firstElement(of: peripheralEvents, within: patience) {
            if case .disconnected(peripheralHandle, _) = $0 { return true } else { return false }
        }
        #expect(down == .disconnected(handle: peripheralHandle, reason: .connectionTerminatedMICFailure))
        #expect(await hosts.central.connections.isEmpty)
        await hosts.close()
    }

    @Test("encrypting an encrypted link refreshes the key: Key Refresh Complete on both sides, the new key's level, data still flows")
    func keyRefresh() async throws {
        let (hosts, handle) = try await Self.hosts()
        let seen = Recorded<LongTermKeyRequest>()
        await hosts.peripheral.setLongTermKeyProvider(Self.provider(key: Self.ltk, level: .authenticatedSecureConnections, seen: seen))
        let centralEvents = hosts.central.events
        let peripheralEvents = hosts.peripheral.events
        try await hosts.central.startEncryption(
            hosts.centralHandle, ltk: Self.ltk, ediv: Self.ediv, rand: Self.rand, level: .authenticatedSecureConnections)
        let refreshed = try await hosts.central.startEncryption(
            hosts.centralHandle, ltk: Self.ltk, ediv: Self.ediv, rand: Self.rand, level: .authenticatedSecureConnections)
        #expect(refreshed == LinkEncryption(level: .authenticatedSecureConnections, keySize: 16))
        let centralHandle = hosts.centralHandle, peripheralHandle = hosts.peripheralHandle
        let centralRefresh = try await firstElement(of: centralEvents, within: patience) {
            if case .encryptionKeyRefreshed(centralHandle, _) = $0 { return true } else { return false }
        }
        #expect(centralRefresh == .encryptionKeyRefreshed(handle: centralHandle, refreshed))
        let peripheralRefresh = try await firstElement(of: peripheralEvents, within: patience) {
            if case .encryptionKeyRefreshed(peripheralHandle, _) = $0 { return true } else { return false }
        }
        #expect(peripheralRefresh == .encryptionKeyRefreshed(handle: peripheralHandle, refreshed))
        #expect(seen.all.count == 2, "the peripheral's host is asked for the key again")
        #expect(try await Self.read(handle, hosts) == Self.secret)
        await hosts.close()
    }
}
