/// The system refused a ``Simulation`` its thread (`pthread_create` failed, e.g. EAGAIN
/// when the process is at its thread limit).
public struct SimulationError: Error, CustomStringConvertible {
    /// The simulation's name.
    public var name: String
    /// The error number `pthread_create` returned.
    public var code: Int32

    public var description: String {
        "cannot start the thread of simulation \(name): pthread_create returned \(code) (EAGAIN = too many threads)"
    }
}
