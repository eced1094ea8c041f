import BLEWorld

/// What a ``ScenarioRunner`` keeps of what its observers notice: everything, for a
/// ``ScenarioTimeline`` at the end (`ble sim run`, tests), or nothing, each event and
/// reception handed out as it is recorded, so that a long run's memory grows with its world
/// and not with its simulated time (issue 31, item 4: a city run for a simulated hour).
public enum ScenarioRecording {
    /// The runner keeps every event and reception; ``ScenarioRunner/timeline`` holds them.
    case timeline
    /// The runner keeps no event or reception: each event goes to `events` when it is
    /// recorded and each reception of a monitored beacon to `receptions` (none are built when
    /// it is `nil`). A scripted action's event is handed out at the action's time; an exit or a
    /// pass is stamped with the moment it describes, which can precede events already handed
    /// out, so events arrive in the order they are noticed rather than sorted by time.
    /// ``ScenarioRunner/timeline`` then has no events or receptions.
    case streaming(events: (ScenarioTimelineEvent) -> Void, receptions: ((BeaconReception) -> Void)? = nil)
}
