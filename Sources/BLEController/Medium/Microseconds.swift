/// Time in the simulated world: whole microseconds since the world started. The link
/// layer's timing (T_IFS 150 µs, 1.25 ms connection-interval units, 0.625 ms advertising
/// units) is exact in this unit.
public typealias Microseconds = Int64
