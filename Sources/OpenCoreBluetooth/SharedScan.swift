import BLE
import Synchronization

/// The one scan a device runs for all the central managers that share it: the controller
/// scans once (Core 5.4, Vol 6, Part B, §4.4.3: one scanning state per link layer), and
/// every report goes to each manager scanning, which keeps what its own services and
/// options ask for. Several managers of one app, or the apps of a simulated phone, scan at
/// once this way, as they do on an iPhone, where the system's daemon shares the radio.
///
/// The device's scan starts with the first subscriber and ends with the last one.
final class SharedScan: Sendable {
    private struct State {
        /// Held weakly: the shared scan must not keep a closed device alive.
        weak var device: BLEDevice?
        var subscribers: [UInt64: AsyncStream<Advertisement>.Continuation] = [:]
        var nextID: UInt64 = 0
        var pump: Task<Void, Never>?
        /// The number of the running pump, so a pump that ends late touches only its own.
        var pumpNumber: UInt64 = 0
    }

    private let state: Mutex<State>
    /// How many reports wait for a slow manager before the oldest are dropped (a scan's
    /// reports are a sample; a stalled app must not hold the radio's memory).
    private static let backlog = 256

    /// The shared scans, one per device.
    private static let scans = Mutex([ObjectIdentifier: SharedScan]())

    private init(device: BLEDevice) {
        state = Mutex(State(device: device))
    }

    private var isOrphaned: Bool { state.withLock { $0.device == nil } }

    /// The shared scan of `device`.
    static func of(_ device: BLEDevice) -> SharedScan {
        scans.withLock { scans in
            scans = scans.filter { !$0.value.isOrphaned }
            if let scan = scans[ObjectIdentifier(device)] { return scan }
            let scan = SharedScan(device: device)
            scans[ObjectIdentifier(device)] = scan
            return scan
        }
    }

    /// Every report of the device's scan from now on, until the caller stops iterating.
    /// The stream ends early when the device cannot scan (another user of the device's
    /// central scans on its own, or the device closed).
    func subscribe() -> AsyncStream<Advertisement> {
        let (stream, continuation) = AsyncStream.makeStream(of: Advertisement.self, bufferingPolicy: .bufferingNewest(Self.backlog))
        let id = state.withLock { state in
            state.nextID += 1
            state.subscribers[state.nextID] = continuation
            if state.pump == nil, let device = state.device {
                state.pumpNumber += 1
                state.pump = startPump(device, number: state.pumpNumber)
            }
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in self?.leave(id) }
        return stream
    }

    private func leave(_ id: UInt64) {
        let pump = state.withLock { state -> Task<Void, Never>? in
            state.subscribers[id] = nil
            guard state.subscribers.isEmpty else { return nil }
            defer { state.pump = nil }
            return state.pump
        }
        pump?.cancel()
    }

    private func startPump(_ device: BLEDevice, number: UInt64) -> Task<Void, Never> {
        Task { [weak self, weak device] in
            guard let device else { return }
            let results = try? await device.central.scan(options: ScanOptions(allowDuplicates: true))
            if let results {
                for await advertisement in results {
                    guard let self else { break }
                    for subscriber in self.state.withLock({ Array($0.subscribers.values) }) {
                        subscriber.yield(advertisement)
                    }
                }
            }
            // The scan ended (or never started): its subscribers' streams end with it.
            let ended = self?.state.withLock { state -> [AsyncStream<Advertisement>.Continuation] in
                guard state.pumpNumber == number, state.pump != nil else { return [] }
                defer {
                    state.subscribers = [:]
                    state.pump = nil
                }
                return Array(state.subscribers.values)
            } ?? []
            for subscriber in ended { subscriber.finish() }
        }
    }
}
