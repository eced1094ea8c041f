/// The simulated world (DESIGN.md, "The world"): devices with positions, antennas and
/// motion in a space with obstacles, a radio model with path loss, shadowing, sensitivity
/// and collisions, and a discrete-event scheduler on a virtual clock. Each device runs a
/// `SimulatedController`; hosts reach it only through HCI packets.
public enum BLEWorldModule {}
