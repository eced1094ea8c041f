import BLEWorld

/// A field system that runs from its scenario (docs/systems.md): the name a scenario's
/// `system:` key gives, and how to play it.
public struct FieldSystem: Sendable {
    /// The name scenarios use (`ride-log`).
    public var name: String
    /// What it shows, in one line, for help and errors.
    public var summary: String
    private let play: @Sendable (SystemSetup) async throws -> SystemRun

    /// A system called `name` that `play` runs.
    public init(name: String, summary: String, play: @escaping @Sendable (SystemSetup) async throws -> SystemRun) {
        self.name = name
        self.summary = summary
        self.play = play
    }

    /// Runs the system from `setup` and returns its story.
    /// - Throws: what the system's runner throws: ``SystemError`` for a scenario it cannot play.
    public func run(_ setup: SystemSetup) async throws -> SystemRun {
        try await play(setup)
    }
}

/// What one run of a field system told: its story, and the system's answer in words (the
/// office's timetable, the ride logged…), which the story ends with.
public struct SystemRun: Sendable {
    /// The system's name.
    public var system: String
    /// The scenario's name.
    public var scenario: String
    /// The seed run.
    public var seed: UInt64
    /// Virtual seconds run.
    public var seconds: Double
    /// The story, in order.
    public var story: [SystemStoryLine]

    /// A run's story.
    public init(system: String, setup: SystemSetup, story: [SystemStoryLine]) {
        self.system = system
        scenario = setup.scenario.name
        seed = setup.scenario.seed
        seconds = setup.seconds
        self.story = story.storyOrdered()
    }

    /// `Scenario "ride log" (system ride-log), seed 29, 200.0 s simulated`: the line a printed story starts with.
    public var heading: String {
        "Scenario \"\(scenario)\" (system \(system)), seed \(seed), " + String(format: "%.1f", seconds) + " s simulated"
    }
}

/// The field systems by name: the registry `ble sim run` and the tests play scenarios through.
///
/// Adding one is a file with a runner (`static let cheating = FieldSystem(name: "cheating", …)`
/// that plays its world and apps and returns a ``SystemRun``), its name in ``all``, and
/// `system: cheating` in its scenario.
public enum FieldSystems {
    /// Every system, in the order docs/systems.md presents them.
    public static let all: [FieldSystem] = [BusOfficeSystem.system, ShopRegularsSystem.system, CarersVisitsSystem.system,
                                            RideLogSystemRun.system, StolenCarSystem.system, CheatingSystem.system]

    /// The system called `name`.
    /// - Throws: ``SystemError`` naming every system when none is called that.
    public static func system(named name: String) throws(SystemError) -> FieldSystem {
        guard let system = all.first(where: { $0.name == name }) else {
            throw SystemError("no field system is called \"\(name)\"; a scenario's system: is one of " + all.map(\.name).joined(separator: ", "))
        }
        return system
    }

    /// The system `scenario`'s `system:` key names.
    /// - Throws: ``SystemError`` when it names none, or one that does not exist.
    public static func system(of scenario: Scenario) throws(SystemError) -> FieldSystem {
        guard let name = scenario.system else {
            throw SystemError("scenario \"\(scenario.name)\" names no field system; add a top-level system: (one of "
                              + all.map(\.name).joined(separator: ", ") + ")")
        }
        do {
            return try system(named: name)
        } catch {
            throw SystemError("scenario \"\(scenario.name)\": \(error.description)")
        }
    }

    /// Runs the system `setup`'s scenario names.
    public static func run(_ setup: SystemSetup) async throws -> SystemRun {
        try await system(of: setup.scenario).run(setup)
    }
}
