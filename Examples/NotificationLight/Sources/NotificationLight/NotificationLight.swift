import BLE
import BLEProfiles

/// The notification light: an ANCS accessory on the `BLE` API that shows incoming calls,
/// missed calls and unread notifications as a colour. A phone connects to it (it solicits
/// ANCS), it pairs when asked, and every notification event updates ``state`` and calls
/// `show` with it. As an ``BLE/AccessoryProgram`` it runs on a scenario's accessory
/// (`program: notification-light`, ``BLE/PhoneStory``).
///
/// ```swift
/// let device = try await BLEDevice.open(hci: "tcp:127.0.0.1:9001")
/// let light = try await NotificationLight.start(on: device) { state in print(state) }
/// ```
public final class NotificationLight: AccessoryProgram {
    private let consumer: ANCSConsumer
    private let task: Task<Void, Never>

    private init(consumer: ANCSConsumer, task: Task<Void, Never>) {
        self.consumer = consumer
        self.task = task
    }

    /// Starts the light on `device`, advertising `name`; `show` gets every new state, in order.
    public static func start(on device: BLEDevice, name: String = "Notification Light",
                             show: @escaping @Sendable (LightState) -> Void) async throws(BLEError) -> NotificationLight {
        // Titles are not shown: ask for little of them.
        let consumer = try await ANCSConsumer.start(on: device, configuration: .init(name: name, titleLength: 16, subtitleLength: 0, messageLength: 0))
        let task = Task {
            var state = LightState()
            for await event in consumer.events {
                switch event {
                case .sessionStarted, .sessionEnded:
                    state.reset()
                case let .notification(note):
                    state.apply(note)
                case .failure:
                    continue
                }
                show(state)
            }
        }
        return NotificationLight(consumer: consumer, task: task)
    }

    /// Turns the light off: stops advertising and following the phone.
    public func stop() async {
        task.cancel()
        await consumer.stop()
    }
}
