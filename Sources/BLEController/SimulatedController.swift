import BLEWire

/// What reaches a simulated controller: a packet from its host, a packet from the air, or
/// the time it asked to be woken at.
public enum ControllerInput: Hashable, Sendable {
    /// An HCI packet from the host (commands and ACL data).
    case hci(H4.Packet)
    /// A packet the world delivered to this controller's open receiver.
    case radio(RadioReception)
    /// The deadline the controller reported in ``SimulatedController/nextDeadline`` arrived.
    case timer
}

/// What a simulated controller asks of the world in answer to an input.
public enum ControllerOutput: Hashable, Sendable {
    /// An HCI packet for the host (events and ACL data).
    case hci(H4.Packet)
    /// Put a packet on the air. Its `start` is at or after the current time.
    case transmit(RadioTransmission)
    /// Open the receiver as described (replaces any window open before).
    case listen(ReceiverWindow)
    /// Close the receiver.
    case stopListening
    /// Hand connection data straight to the peer's controller, with no airtime (only
    /// controllers configured ``ControllerConfiguration/airtimeFreeData`` send it).
    case linkData(DirectLinkData)
    /// An LE Advertising Report for the host (Core 5.4, Vol 4, Part E, §7.7.65.2) as a
    /// value, not yet encoded: sent instead of ``hci(_:)`` only by a controller configured
    /// with ``ControllerConfiguration/reportsAdvertisingAsValues``. It stands for the packet
    /// `.event(HCI.Event.leMeta(.advertisingReport(report)).packet)`, and counts as one.
    case advertisingReport(HCI.LEAdvertisingReport)
}

/// A controller the world can run: a sans-IO state machine that takes inputs with the
/// current virtual time and returns outputs, with no clocks, threads or sockets inside
/// (DESIGN.md, "Sans-IO protocol cores"). Given the same inputs at the same times it must
/// produce the same outputs, which is what makes a world replay from its seed.
public protocol SimulatedController: Sendable {
    /// Handles one input at virtual time `now` and returns what to do.
    mutating func handle(_ input: ControllerInput, at now: Microseconds) -> [ControllerOutput]

    /// When the controller next needs a ``ControllerInput/timer`` input, or `nil` for never.
    var nextDeadline: Microseconds? { get }

    /// Power off and on: everything is lost, as after a hardware reset, and the controller
    /// waits for its host's HCI_Reset. Returns outputs (e.g. `stopListening`).
    mutating func powerCycle(at now: Microseconds) -> [ControllerOutput]

    /// Takes data another controller handed over an airtime-free link (``ControllerOutput/linkData(_:)``)
    /// and returns what to do; a controller without that connection returns nothing.
    mutating func receiveLinkData(_ data: DirectLinkData, at now: Microseconds) -> [ControllerOutput]
}

extension SimulatedController {
    /// A controller without airtime-free links takes no such data.
    public mutating func receiveLinkData(_ data: DirectLinkData, at now: Microseconds) -> [ControllerOutput] { [] }
}
