import BLEHost
import BLEWire
import Synchronization

/// The Security Manager side of a ``ProfilePeripheral`` with a display: it pairs as its
/// IO capability says (Core 5.4, Vol 3, Part H, §2.3.2), MITM protection asked for, shows
/// each passkey on its display, and asks each central that connects to pair with a
/// Security Request (§2.4.6), as an accessory that protects its data does. After a failed
/// pairing (a mistyped passkey fails with Confirm Value Failed, 0x04: §2.3.5.3, §3.5.5) it
/// asks again once its waiting interval is over (§2.3.6), a new passkey each time, up to
/// ``attempts`` times on one link (our choice: the specification sets no count).
enum PeripheralSecurity {
    /// How many pairings the device asks for on one link before it gives up.
    static let attempts = 5

    /// The agent of a device whose only input is, at most, a yes button its user presses:
    /// it shows passkeys, types none, and confirms a number (the phone's user compares).
    struct DisplayAgent: PairingAgent {
        let display: @Sendable (UInt32) -> Void

        func displayPasskey(_ passkey: UInt32, on connection: UInt16) async { display(passkey) }
        func enterPasskey(on connection: UInt16) async -> UInt32? { nil }
        func confirmNumber(_ number: UInt32, on connection: UInt16) async -> Bool { true }
    }

    /// A key the device keeps from a bonding pairing (Vol 3, Part C, §9.4.4): the LTK the
    /// central encrypts with next time, named by EDIV and Rand in LE legacy pairing (the
    /// key this device distributed, Part H, §3.6.2) and by zeros with Secure Connections.
    struct Bond: Sendable {
        var key: UInt128
        var ediv: UInt16
        var rand: UInt64
        var level: LinkSecurityLevel
    }

    /// Sets `host`'s pairing up for `io` and returns the tasks that keep its bonds (in
    /// memory, by the central's address, for as long as the device runs) and, with a
    /// display, ask each central that connects to pair; a bonded central answers by
    /// encrypting with its key, which the device gives its controller (Vol 4, Part E,
    /// §7.8.25).
    static func start(on host: Host, io: SMP.IOCapability, display: @escaping @Sendable (UInt32) -> Void) async -> [Task<Void, Never>] {
        let displays = io != .noInputNoOutput && io != .keyboardOnly
        await host.setPairingConfiguration(SMPConfiguration(ioCapability: io, bonding: true, mitmRequired: displays))
        await host.setPairingAgent(DisplayAgent(display: display))
        let bonds = Mutex<[BluetoothAddress: Bond]>([:])
        await host.setLongTermKeyProvider { request in
            guard let bond = bonds.withLock({ $0[request.peer] }), bond.ediv == request.ediv, bond.rand == request.rand else { return nil }
            return (bond.key, bond.level)
        }
        let keeping = Task(executorPreference: host.executor) {
            for await event in host.securityEvents {
                guard case let .paired(_, peer, result) = event, result.bonded else { continue }
                let bond: Bond? = if let key = result.secureConnectionsLongTermKey {
                    Bond(key: key, ediv: 0, rand: 0, level: result.level)
                } else {
                    result.localKeys.longTermKey.map {
                        Bond(key: $0.key, ediv: $0.encryptedDiversifier, rand: $0.random, level: result.level)
                    }
                }
                bonds.withLock { $0[peer] = bond }
            }
        }
        let asking = Task(executorPreference: host.executor) {
            guard displays else { return }
            for await event in host.events {
                guard case let .connected(connection) = event, connection.role == .peripheral else { continue }
                Task(executorPreference: host.executor) { await askToPair(host, connection.handle) }
            }
        }
        return [keeping, asking]
    }

    /// Asks the central on `handle` to pair until it does, the link goes, or ``attempts``
    /// pairings failed; while the §2.3.6 back-off for the central runs, waits it out.
    static func askToPair(_ host: Host, _ handle: UInt16) async {
        var failures = 0
        var wait: Int64 = 2_000_000
        while failures < attempts, !Task.isCancelled {
            do {
                try await host.pair(handle)
                return
            } catch HostPairingError.encryptedWithStoredKey {
                // A bonded central answered with the key it holds: the link is secure.
                return
            } catch HostPairingError.repeatedAttempts {
                // The back-off of the previous failure still runs.
            } catch is HostPairingError {
                failures += 1
            } catch {
                return
            }
            do { try await host.clock.sleep(for: .microseconds(wait)) } catch { return }
            wait = min(wait * 2, 300_000_000)
        }
    }
}
