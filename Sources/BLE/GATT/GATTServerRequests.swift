import BLEHost
import Synchronization

/// A client's read of a value declared with
/// ``Characteristic/answeredByRequests(_:properties:permissions:subscriptionPermissions:descriptors:)``
/// (Core 5.4, Vol 3, Part F, §3.4.4): answer it exactly once with ``respond(_:)``.
public final class GATTReadRequestToAnswer: Sendable {
    /// What is read: the client's connection and the offset (Read Blob, §3.4.4.5).
    public let request: GATTReadRequest
    /// The characteristic value's handle.
    public let valueHandle: UInt16
    private let answer: GATTAnswer

    init(_ request: GATTAppRequest, host: BLEHost.Host) {
        self.request = GATTReadRequest(request)
        valueHandle = request.handle
        answer = GATTAnswer(ids: [request.id], host: host)
    }

    /// Answers with the value from ``GATTReadRequest/offset`` on, or an ATT error
    /// (`ATT.ErrorCode.invalidOffset` for an offset past the end).
    /// - Returns: `false` (and nothing is sent) if it was already answered.
    @discardableResult
    public func respond(_ result: Result<[UInt8], ATT.ErrorCode>) async -> Bool {
        await answer.send(result)
    }

    /// Answers without waiting, for callers that cannot suspend (Core Bluetooth's
    /// `respond(to:withResult:)`): the answer is claimed now and sent right after.
    /// - Returns: `false` (and nothing is sent) if it was already answered.
    @discardableResult
    public func respondNow(_ result: Result<[UInt8], ATT.ErrorCode>) -> Bool {
        answer.sendNow(result)
    }
}

/// A client's writes of values declared with
/// ``Characteristic/answeredByRequests(_:properties:permissions:subscriptionPermissions:descriptors:)``: one
/// write (Write Request or Command, §3.4.5), or every app-answered part of one Execute
/// Write (§3.4.6.3). Answer exactly once with ``respond(_:)``: success applies them all, an
/// error refuses them all (the client sees it for the batch's first write).
public final class GATTWritesToAnswer: Sendable {
    /// The writes, in the client's order.
    public let writes: [(request: GATTWriteRequest, valueHandle: UInt16)]
    private let answer: GATTAnswer

    init(_ requests: [GATTAppRequest], host: BLEHost.Host) {
        writes = requests.map { (GATTWriteRequest($0), $0.handle) }
        answer = GATTAnswer(ids: requests.filter(\.expectsResponse).map(\.id), host: host)
    }

    /// Whether the client waits for the answer (not for a Write Command).
    public var expectsResponse: Bool { writes.contains { $0.request.expectsResponse } }

    /// Answers every write of the batch at once.
    /// - Returns: `false` (and nothing is sent) if it was already answered.
    @discardableResult
    public func respond(_ result: Result<Void, ATT.ErrorCode>) async -> Bool {
        await answer.send(result.map { [] })
    }

    /// Answers without waiting (see ``GATTReadRequestToAnswer/respondNow(_:)``).
    /// - Returns: `false` (and nothing is sent) if it was already answered.
    @discardableResult
    public func respondNow(_ result: Result<Void, ATT.ErrorCode>) -> Bool {
        answer.sendNow(result.map { [] })
    }
}

/// What a client asks of an app-answered value (``Peripheral/requests``).
public enum GATTServerRequest: Sendable {
    /// A read.
    case read(GATTReadRequestToAnswer)
    /// A write, or the parts of one Execute Write.
    case write(GATTWritesToAnswer)
}

/// A change of a client's Client Characteristic Configuration (Vol 3, Part G, §3.3.3.3),
/// or the end of its subscriptions when its link went down.
public struct GATTSubscriptionChange: Hashable, Sendable {
    /// The client's connection handle.
    public let connection: UInt16
    /// The characteristic value's handle.
    public let valueHandle: UInt16
    /// Whether the client now receives the value's updates (notifications or indications).
    public let isSubscribed: Bool
}

/// The answer of one request, given once.
final class GATTAnswer: Sendable {
    private let ids: [GATTAppRequest.ID]
    private let host: BLEHost.Host
    private let answered = Mutex(false)

    init(ids: [GATTAppRequest.ID], host: BLEHost.Host) {
        self.ids = ids
        self.host = host
    }

    func send(_ result: Result<[UInt8], ATT.ErrorCode>) async -> Bool {
        guard claim() else { return false }
        for id in ids { await host.respond(to: id, with: result) }
        return true
    }

    /// Claims the answer now and sends it from a task.
    func sendNow(_ result: Result<[UInt8], ATT.ErrorCode>) -> Bool {
        guard claim() else { return false }
        // Captures `self`, not copies of its fields (a debug-build hazard, brief-common).
        Task {
            for id in self.ids { await self.host.respond(to: id, with: result) }
        }
        return true
    }

    /// `true` the first time only.
    private func claim() -> Bool {
        answered.withLock { answered in
            defer { answered = true }
            return !answered
        }
    }
}

extension Peripheral {
    /// The reads and writes of values declared with
    /// ``Characteristic/answeredByRequests(_:properties:permissions:subscriptionPermissions:descriptors:)``, in the
    /// order they came; the client waits until the answer (up to ATT's 30 s, Vol 3, Part F,
    /// §3.3.3). Several loops share them, each request going to one.
    public nonisolated var requests: GATTServerRequests { GATTServerRequests(mailbox: core.gatt.requests) }

    /// Clients subscribing and unsubscribing, and the subscriptions a link took down with
    /// it, in order. One reader.
    public nonisolated var subscriptionChanges: AsyncStream<GATTSubscriptionChange> { core.gatt.subscriptionChanges }

    /// The subscription changes from now on, in a stream of the caller's own: any number of
    /// services (an ANCS and an AMS provider on one phone) each follow them apart from
    /// ``subscriptionChanges``.
    public nonisolated func watchSubscriptions() -> AsyncStream<GATTSubscriptionChange> { core.gatt.watchSubscriptions() }
}

/// The requests of ``Peripheral/requests`` as an `AsyncSequence`.
public struct GATTServerRequests: AsyncSequence, Sendable {
    /// What the sequence yields.
    public typealias Element = GATTServerRequest
    /// Iteration never throws: it ends when the device closes.
    public typealias Failure = Never
    let mailbox: Mailbox<GATTServerRequest>

    /// An iterator taking requests from the queue.
    public func makeAsyncIterator() -> Iterator { Iterator(mailbox: mailbox) }

    /// Takes one request per step.
    public struct Iterator: AsyncIteratorProtocol {
        let mailbox: Mailbox<GATTServerRequest>

        /// The next request; `nil` once the device closed, or the task was cancelled.
        public mutating func next() async -> GATTServerRequest? { await mailbox.next() }
    }
}
