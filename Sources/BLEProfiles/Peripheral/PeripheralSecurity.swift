import BLEHost
import BLEWire

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

    /// Sets `host`'s pairing up for `io` and returns the task that asks each central to pair
    /// (only with a display: a device without one asks for nothing).
    static func start(on host: Host, io: SMP.IOCapability, display: @escaping @Sendable (UInt32) -> Void) async -> Task<Void, Never> {
        let displays = io != .noInputNoOutput && io != .keyboardOnly
        await host.setPairingConfiguration(SMPConfiguration(ioCapability: io, bonding: true, mitmRequired: displays))
        await host.setPairingAgent(DisplayAgent(display: display))
        return Task(executorPreference: host.executor) {
            guard displays else { return }
            for await event in host.events {
                guard case let .connected(connection) = event, connection.role == .peripheral else { continue }
                Task(executorPreference: host.executor) { await askToPair(host, connection.handle) }
            }
        }
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
