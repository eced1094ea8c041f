import BLEPhone
import BLETime
import BLEWorld
import Foundation
import Synchronization

/// One line of a simulated phone's story (``PhoneStory``): an entry of the phone's timeline
/// (an app's state change, a delegate call delivered, a relaunch, an alert, a dropped event)
/// or a line a program said, with its simulated time. `ble sim run` prints them.
public struct PhoneStoryLine: Hashable, Sendable {
    /// When, in microseconds of simulated time.
    public var time: Int64
    /// The device the line is about: the phone, or an accessory.
    public var device: String
    /// The app (or accessory program, or `system`) the line is about.
    public var app: String
    /// `state`, `deliver`, `relaunched`, `dropped`, `alert`, `notification`, `network`,
    /// `system` (a setting the system changed by itself), `log` (the program's own line) or `observe` (the phone's region monitoring: an entry,
    /// an exit, a beacon heard first, ranged or passed, in the words of a scenario timeline).
    public var event: String
    /// What happened, in words.
    public var detail: String

    /// The line of a phone's timeline entry.
    public init(device: String, entry: PhoneTimelineEntry) {
        time = entry.time
        self.device = device
        switch entry.output {
        case let .stateChanged(app, from, to): (self.app, event, detail) = (app, "state", "\(from) → \(to)")
        case let .deliver(app, events): (self.app, event, detail) = (app, "deliver", events.map(\.detail).joined(separator: ", "))
        case let .relaunched(app, event): (self.app, self.event, detail) = (app, "relaunched", event.detail)
        case let .dropped(app, event, reason): (self.app, self.event, detail) = (app, "dropped", "\(event.detail) (\(reason))")
        case let .alert(app, message): (self.app, event, detail) = (app, "alert", message)
        case let .notification(app, change): (self.app, event, detail) = (app, "notification", change)
        case let .network(app, exchange): (self.app, event, detail) = (app, "network", exchange)
        case let .crashed(app, reason): (self.app, event, detail) = (app, "crashed", reason)
        case let .system(change): (app, event, detail) = ("system", "system", change)
        }
    }

    /// A line a program (`app`) on `device` said at `time`; `event` is `log` unless the
    /// phone's system said it (`observe`).
    public init(device: String, app: String, time: Int64, said text: String, event: String = "log") {
        self.time = time
        self.device = device
        self.app = app
        self.event = event
        detail = text
    }

    /// `   12.345 s  iPhone  Pulse: ← didUpdateValueFor 2A37`.
    public var text: String {
        let seconds = String(format: "%9.3f s", Double(time) / 1e6)
        let words: String
        switch event {
        case "deliver": words = "← " + detail
        case "relaunched": words = "relaunched by the system for " + detail
        case "dropped": words = "dropped " + detail
        case "alert": words = "alert \"\(detail)\""
        case "notification": words = "notification " + detail
        case "crashed": words = "crashed: " + detail
        case "log": words = "“\(detail)”"
        default: words = detail
        }
        return "\(seconds)  \(device)  \(app): \(words)"
    }

    /// `{"time": 12.345, "device": "iPhone", "app": "Pulse", "event": "deliver", "detail": "…"}`.
    public var json: SimulationLog.JSON {
        .object([("time", .seconds(time)), ("device", .string(device)), ("app", .string(app)), ("event", .string(event)),
                 ("detail", .string(detail))])
    }
}

/// What the phone's programs, its system and the accessories' programs said, each with its
/// time and the number of phone timeline entries made before it, so that the story can
/// put it in its place.
final class StoryRecorder: Sendable {
    private struct Said {
        var time: Int64, position: Int, device: String, app: String, text: String, event: String
    }

    private let lines = Mutex<[Said]>([])
    private let clock: any StackClock
    private let position: @Sendable () -> Int

    init(clock: any StackClock, position: @escaping @Sendable () -> Int) {
        self.clock = clock
        self.position = position
    }

    /// Records `text`, said by `app` on `device`, now, as a line of kind `event`.
    func record(_ device: String, _ app: String, _ text: String, event: String = "log") {
        let said = Said(time: clock.microseconds, position: position(), device: device, app: app, text: text, event: event)
        lines.withLock { $0.append(said) }
    }

    /// The phone's `timeline` with every recorded line before the first entry made after it.
    func merged(with timeline: [PhoneTimelineEntry], device: String) -> [PhoneStoryLine] {
        var said = lines.withLock { $0 }[...]
        var story: [PhoneStoryLine] = []
        func take(_ line: Said) {
            story.append(PhoneStoryLine(device: line.device, app: line.app, time: line.time, said: line.text, event: line.event))
        }
        for (index, entry) in timeline.enumerated() {
            while let line = said.first, line.position <= index {
                take(line)
                said = said.dropFirst()
            }
            story.append(PhoneStoryLine(device: device, entry: entry))
        }
        said.forEach(take)
        return story
    }
}

/// The program objects the phone's launches made: an app's objects live as long as the run.
@MainActor
final class ProgramObjects {
    private var objects: [AnyObject] = []

    nonisolated init() {}

    func keep(_ object: AnyObject) { objects.append(object) }
}
