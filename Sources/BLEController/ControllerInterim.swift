// INTERIM — deleted when the real controller (branches ll-advertising / ll-connection)
// merges. It declares only what the scenario and CLI slice uses: a `Controller` built from
// a `ControllerConfiguration` that answers nothing.

/// Interim stand-in for the virtual link-layer controller: built from its configuration,
/// it ignores every input and never transmits.
public struct Controller: SimulatedController {
    /// The configuration the controller was built with.
    public let configuration: ControllerConfiguration

    /// A controller with `configuration`.
    public init(configuration: ControllerConfiguration) { self.configuration = configuration }

    /// Ignores the input.
    public mutating func handle(_ input: ControllerInput, at now: Microseconds) -> [ControllerOutput] { [] }

    /// Never needs waking.
    public var nextDeadline: Microseconds? { nil }

    /// Nothing to lose.
    public mutating func powerCycle(at now: Microseconds) -> [ControllerOutput] { [] }
}
