import BLEHost
import Synchronization

/// One LE connection to a peer, in either role (Core 5.4, Vol 3, Part C, §9.3): made by
/// ``Central/connect(to:parameters:timeout:)-(Advertisement,_,_)`` or accepted by an advertising
/// ``Peripheral`` (``Peripheral/connections``).
///
/// A connection stays valid after its link went down: ``isConnected`` turns false,
/// ``disconnectReason`` says why, and calls that need the link throw
/// ``BLEError/disconnected(_:)``. Connections compare by identity.
public final class Connection: Sendable, Hashable, CustomStringConvertible {
    /// The local device's role on the link.
    public enum Role: Hashable, Sendable {
        /// This device connected (it initiated, Vol 6, Part B, §4.5).
        case central
        /// This device advertised and the peer connected to it.
        case peripheral
    }

    private struct State {
        var parameters: ConnectionParameters
        var reason: HCI.StatusCode?
        var waiters: [UInt64: CheckedContinuation<HCI.StatusCode?, Never>] = [:]
        var nextWaiter: UInt64 = 0
        /// Whether this side's one Exchange MTU (Vol 3, Part G, §4.3.1) was started.
        var mtuClaimed = false
        /// The largest data PDU payload each way, once the controller reported a change.
        var dataLength: (tx: Int, rx: Int)?
    }

    /// The peer's address, with its type.
    public let peer: BluetoothAddress
    /// The local device's role.
    public let role: Role
    /// The controller's Connection_Handle, for logs and captures.
    public let handle: UInt16
    /// The link as GAP reported it when it came up.
    let link: GAPConnection
    let core: DeviceCore
    private let state: Mutex<State>

    init(link: GAPConnection, core: DeviceCore) {
        self.link = link
        self.core = core
        peer = link.peer
        role = link.role == .central ? .central : .peripheral
        handle = link.handle
        state = Mutex(State(parameters: ConnectionParameters(link.parameters)))
    }

    /// The parameters the link runs with now (updated by either side).
    public var parameters: ConnectionParameters { state.withLock { $0.parameters } }
    /// Whether the link is up.
    public var isConnected: Bool { state.withLock { $0.reason == nil } }
    /// Why the link went down (Vol 1, Part F), or `nil` while it is up.
    public var disconnectReason: HCI.StatusCode? { state.withLock { $0.reason } }

    /// Waits until the link goes down and returns why (Vol 1, Part F): e.g.
    /// `HCI.StatusCode.remoteUserTerminatedConnection` when the peer ended it,
    /// `HCI.StatusCode.connectionTimeout` when it was lost. Returns at once if it is
    /// already down; any number of tasks may wait.
    /// - Throws: ``BLEError/cancelled`` if the waiting task is cancelled.
    public var disconnected: HCI.StatusCode {
        get async throws(BLEError) {
            guard let reason = await waitUntilDown() else { throw .cancelled }
            return reason
        }
    }

    /// Terminates the link (Vol 3, Part C, §9.3.10) and returns once it is down; nothing
    /// happens if it already is.
    /// - Throws: ``BLEError`` if the controller refuses.
    public func disconnect() async throws(BLEError) {
        guard isConnected else { return }
        do {
            try await core.host.disconnect(handle)
        } catch HostError.gap(.unknownConnection) {
            // The link went down by itself meanwhile.
        } catch {
            throw core.translate(error)
        }
        // The dispatcher reads the Disconnection Complete right after the host did.
        _ = await waitUntilDown(cancellable: false)
    }

    /// Reads the link's RSSI in dBm (Vol 4, Part E, §7.5.4); `nil` if the controller has
    /// no value (127).
    public func readRSSI() async throws(BLEError) -> Int? {
        try checkUp()
        do {
            let rssi = try await core.host.readRSSI(handle)
            return rssi == 127 ? nil : Int(rssi)
        } catch {
            throw failure(error)
        }
    }

    /// Asks for new connection parameters (Vol 3, Part C, §9.3.9) and returns those in
    /// force afterwards. As central the controller applies them (LE Connection Update);
    /// as peripheral the central is asked over L2CAP and may refuse.
    /// - Throws: ``BLEError/invalidParameters(_:)``, ``BLEError/parametersRejected``,
    ///   ``BLEError/disconnected(_:)``.
    @discardableResult
    public func updateParameters(_ request: ConnectionParameterRequest) async throws(BLEError) -> ConnectionParameters {
        let wanted = try request.hciParameters()
        try checkUp()
        do {
            let applied = ConnectionParameters(try await core.host.updateConnectionParameters(handle, to: wanted))
            parametersChanged(applied)
            return applied
        } catch {
            throw failure(error)
        }
    }

    /// The largest LL data PDU payloads, in octets, sending and receiving, once the link
    /// layer changed them from the initial 27 (Core 5.4, Vol 6, Part B, §4.5.10); `nil`
    /// while they are the initial ones.
    public var dataLength: (tx: Int, rx: Int)? { state.withLock { $0.dataLength } }

    /// Asks the link layer for data PDUs of up to `octets` payload octets (27…251), as an
    /// iPhone does after connecting (Vol 4, Part E, §7.8.33). The peer's answer arrives
    /// later as ``dataLength``; a controller that cannot change it keeps 27.
    /// - Throws: ``BLEError/invalidParameters(_:)`` outside 27…251;
    ///   ``BLEError/disconnected(_:)``.
    public func requestDataLength(octets: Int = 251) async throws(BLEError) {
        guard (27 ... 251).contains(octets) else { throw .invalidParameters("the data length must be 27…251 octets, not \(octets)") }
        try checkUp()
        do {
            // The time for that many octets on the LE 1M PHY (Vol 6, Part B, §4.5.10).
            try await core.host.setDataLength(handle, txOctets: UInt16(octets), txTime: UInt16((octets + 14) * 8))
        } catch {
            throw failure(error)
        }
    }

    /// Opens an LE credit-based channel to the peer's `psm` (Vol 3, Part A, §4.22) and
    /// returns it once the peer accepted.
    /// - Parameters:
    ///   - psm: the peer's SPSM, 0x0001–0x00FF (Vol 3, Part A, §4.22).
    ///   - options: what this side accepts (MTU, MPS, credits).
    /// - Throws: ``BLEError/channelRefused(_:)``, ``BLEError/channelClosed(_:)`` (no
    ///   answer, link down), ``BLEError/disconnected(_:)``.
    public func openL2CAPChannel(psm: UInt16, options: L2CAPChannelOptions = L2CAPChannelOptions()) async throws(BLEError) -> L2CAPChannel {
        try L2CAPChannelOptions.check(psm: psm)
        let parameters = try options.hostParameters()
        try checkUp()
        do {
            let channel = try await core.host.openChannel(psm: psm, on: handle, parameters: parameters)
            return L2CAPChannel(channel, connection: self)
        } catch {
            throw failure(error)
        }
    }

    /// "central connection to C4:7A:1B:2C:3D:4E (handle 0x0001)".
    public var description: String {
        "\(role == .central ? "central" : "peripheral") connection to \(peer) (handle 0x\(String(handle, radix: 16)))"
    }

    /// Whether both are the same connection object.
    public static func == (lhs: Connection, rhs: Connection) -> Bool { lhs === rhs }
    /// Hashes the object's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    // MARK: From the dispatcher

    /// The link went down: every waiter learns why.
    func wentDown(_ reason: HCI.StatusCode) {
        let waiters = state.withLock { state -> [CheckedContinuation<HCI.StatusCode?, Never>] in
            guard state.reason == nil else { return [] }
            state.reason = reason
            let waiters = Array(state.waiters.values)
            state.waiters = [:]
            return waiters
        }
        for waiter in waiters { waiter.resume(returning: reason) }
    }

    /// `true` once: whoever gets it exchanges ATT_MTU.
    func claimMTUExchange() -> Bool {
        state.withLock { state in
            defer { state.mtuClaimed = true }
            return !state.mtuClaimed
        }
    }

    func parametersChanged(_ parameters: ConnectionParameters) {
        state.withLock { $0.parameters = parameters }
    }

    func dataLengthChanged(tx: Int, rx: Int) {
        state.withLock { $0.dataLength = (tx, rx) }
    }

    // MARK: Helpers

    private func checkUp() throws(BLEError) {
        if let reason = disconnectReason { throw .disconnected(reason) }
    }

    /// A link that went down explains any failure of a call on it.
    private func failure(_ error: any Error) -> BLEError {
        let translated = core.translate(error)
        if case .procedureFailed = translated, let reason = disconnectReason { return .disconnected(reason) }
        return translated
    }

    /// The reason once the link is down; `nil` if the task is cancelled first (only when
    /// `cancellable`).
    private func waitUntilDown(cancellable: Bool = true) async -> HCI.StatusCode? {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let wait = {
            await withCheckedContinuation { (continuation: CheckedContinuation<HCI.StatusCode?, Never>) in
                let ready: HCI.StatusCode?? = self.state.withLock { state in
                    if let reason = state.reason { return .some(reason) }
                    if cancellable, Task.isCancelled { return .some(nil) }
                    state.waiters[id] = continuation
                    return .none
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
        guard cancellable else { return await wait() }
        return await withTaskCancellationHandler {
            await wait()
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume(returning: nil)
        }
    }
}
