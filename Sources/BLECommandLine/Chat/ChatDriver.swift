import BLEChat
import BLEHost
import ChatApp
import Foundation
import FrontDoorChatApp

/// What `ble chat` needs from a chat app's Bluetooth side: the Core Bluetooth-style
/// `ChatEngine` of Examples/Chat or the front-door ``FrontDoorChat``.
@MainActor
protocol ChatDriver: AnyObject {
    /// Receives every event.
    var onEvent: ((ChatEvent) -> Void)? { get set }
    /// The session (counters, configuration).
    var session: ChatSession { get }
    /// The partner, once chosen.
    var partner: ChatDeviceID? { get }
    /// How many times a link to the partner came up.
    var linksEstablished: Int { get }
    /// Whether everything sent was acknowledged and no acknowledgement waits to go out.
    var isSettled: Bool { get }
    /// How many notifications waited for room in the transmit queue (back-pressure), where known.
    var notificationsDeferred: Int { get }
    /// The clock the engine's heartbeats keep, which ``ChatRun`` times the run by; read it
    /// once ``begin()`` returned.
    var clock: any StackClock { get }
    /// Opens the controller and starts advertising and scanning.
    func begin() async throws
    /// Queues a message for the partner.
    func send(_ message: Data) throws(ChatSession.SendError)
    /// Stops everything.
    func end() async
}

extension FrontDoorChat: ChatDriver {
    func begin() async throws {
        do {
            try await start()
        } catch {
            throw CommandFailure("Cannot start the chat: \(error); check --hci.")
        }
    }

    func end() async { await stop() }

    /// The front door's `notify` suspends instead of refusing, so nothing is counted.
    var notificationsDeferred: Int { 0 }
}

extension ChatEngine: ChatDriver {
    func begin() async throws { start() }

    func end() async { stop() }

    /// The wall clock: Examples/Chat's engine paces its heartbeats with `ContinuousClock`
    /// and `Task.sleep`, as a Core Bluetooth app does, so the run's timeout and linger keep
    /// the same time.
    var clock: any StackClock { WallClock() }
}
