import BLEHost
import BLEProfiles
import Foundation
import Synchronization

/// The accessory's side of ANCS (the Notification Consumer): it advertises with the ANCS
/// solicitation so a phone lists and connects to it, then for each connection discovers
/// ANCS, subscribes to the Data Source and then the Notification Source (pairing when the
/// phone answers Insufficient Authentication or Encryption), and reports each notification
/// with its attributes fetched (app names once per app per session) as ``events``.
///
/// A session lasts as long as the link: on a disconnection the consumer reports
/// ``ANCSConsumerEvent/sessionEnded``, forgets the session's UIDs and app names, advertises
/// again, and the next connection starts a new session (whose notifications come flagged
/// PreExisting).
///
/// ```swift
/// let consumer = try await ANCSConsumer.start(on: device, name: "Light")
/// for await event in consumer.events {
///     if case let .notification(note) = event, note.category == .incomingCall { print(note.title ?? "") }
/// }
/// ```
public final class ANCSConsumer: Sendable {
    /// What the consumer asks for.
    public struct Configuration: Sendable, Hashable {
        /// The name advertised.
        public var name: String
        /// The most octets of a title fetched.
        public var titleLength: UInt16
        /// The most octets of a subtitle fetched.
        public var subtitleLength: UInt16
        /// The most octets of a message fetched.
        public var messageLength: UInt16
        /// How long a Data Source response may take, on the device's clock.
        public var responseTimeout: Duration

        /// A configuration; by default titles and subtitles of 64 octets, messages of 512.
        public init(name: String, titleLength: UInt16 = 64, subtitleLength: UInt16 = 64, messageLength: UInt16 = 512,
                    responseTimeout: Duration = .seconds(10)) {
            self.name = name
            self.titleLength = titleLength
            self.subtitleLength = subtitleLength
            self.messageLength = messageLength
            self.responseTimeout = responseTimeout
        }
    }

    /// The sessions' events, in order. One reader.
    public let events: AsyncStream<ANCSConsumerEvent>
    private let continuation: AsyncStream<ANCSConsumerEvent>.Continuation
    private let device: BLEDevice
    private let configuration: Configuration
    private let session = Mutex<ANCSConsumerSession?>(nil)
    private let runner = Mutex<Task<Void, Never>?>(nil)

    private init(device: BLEDevice, configuration: Configuration) {
        self.device = device
        self.configuration = configuration
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    /// Starts advertising on `device` and serving every phone that connects, one at a time.
    /// - Throws: what starting to advertise throws.
    public static func start(on device: BLEDevice, configuration: Configuration) async throws(BLEError) -> ANCSConsumer {
        let consumer = ANCSConsumer(device: device, configuration: configuration)
        try await consumer.advertise()
        consumer.runner.withLock { $0 = Task { await consumer.run() } }
        return consumer
    }

    /// Starts a consumer advertising `name`, with the default lengths.
    public static func start(on device: BLEDevice, name: String) async throws(BLEError) -> ANCSConsumer {
        try await start(on: device, configuration: Configuration(name: name))
    }

    /// Performs `action` on the notification `uid` of the current session (Perform
    /// Notification Action): the phone decides what it does (answer or decline a call).
    /// - Throws: ``ANCSConsumerError/refused(_:)`` with Invalid Parameter for a UID the
    ///   phone no longer has, Action Failed when it has no such action;
    ///   ``ANCSConsumerError/noSession``.
    public func perform(_ action: ANCS.ActionID, on uid: UInt32) async throws(ANCSConsumerError) {
        guard let session = session.withLock({ $0 }) else { throw .noSession }
        try await session.perform(action, on: uid)
    }

    /// Stops advertising and serving; the current link is left to end.
    public func stop() async {
        runner.withLock { $0?.cancel() }
        continuation.finish()
    }

    private func advertise() async throws(BLEError) {
        _ = try await device.peripheral.advertise(
            AdvertisingContent(name: configuration.name, solicitedServiceUUIDs: [ANCS.service]), connectable: true)
    }

    private func run() async {
        for await connection in device.peripheral.connections {
            if Task.isCancelled { return }
            let session = ANCSConsumerSession(connection: connection, configuration: configuration, report: continuation)
            self.session.withLock { $0 = session }
            await session.run()
            self.session.withLock { $0 = nil }
            continuation.yield(.sessionEnded)
            if Task.isCancelled { return }
            do {
                try await advertise()
            } catch {
                continuation.yield(.failure(.link(error)))
                return
            }
        }
    }
}
