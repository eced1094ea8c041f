import BLEWorld
import Foundation

/// One line of a field system's story (`ble sim run bus-fleet`): when, in virtual time, who
/// acted — the radio, a gateway, a phone's system, an app, the back end, an office — and what
/// it did, in words. Only virtual times appear, so a scenario and seed give the same story on
/// any machine.
public struct SystemStoryLine: Hashable, Sendable, CustomStringConvertible {
    /// Who a line is about.
    public enum Actor: String, Hashable, Sendable, CaseIterable {
        /// What the radio carried: a gateway or a phone's radio hearing an identity, a phone's link going down.
        case radio
        /// A gateway (scanner → sightings → the store).
        case gateway
        /// A phone's system: app states, region events it delivered, requests it sent.
        case phone
        /// An app or an office program: what it decided, recorded or showed.
        case app
        /// The back end: each request it answered, with the status.
        case backEnd = "back end"
    }

    /// When, in microseconds of virtual time since the world started.
    public var time: Int64
    /// The kind of actor.
    public var actor: Actor
    /// Which one: a gateway's name, a phone's device name, an app's name, a host.
    public var who: String
    /// What happened, in words.
    public var text: String

    /// A line.
    public init(time: Int64, actor: Actor, who: String, text: String) {
        self.time = time
        self.actor = actor
        self.who = who
        self.text = text
    }

    /// `   62.400 s  phone rider  Rides: suspended → background`.
    public var description: String {
        String(format: "%9.3f s  ", Double(time) / 1e6) + "\(actor.rawValue) \(who)  \(text)"
    }

    /// `{"time": 62.4, "actor": "phone", "who": "rider", "text": "…"}`, one line of `--json`.
    public var json: SimulationLog.JSON {
        .object([("time", .seconds(time)), ("actor", .string(actor.rawValue)), ("who", .string(who)), ("text", .string(text))])
    }
}

extension [SystemStoryLine] {
    /// The lines in story order: by time, and lines of one instant as recorded, so a runner
    /// records what causes before what follows (the phone's delivery before the app's line,
    /// the back end's answers before the office's conclusion).
    func storyOrdered() -> [SystemStoryLine] {
        enumerated().sorted { lhs, rhs in (lhs.element.time, lhs.offset) < (rhs.element.time, rhs.offset) }.map(\.element)
    }
}
