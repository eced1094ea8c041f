import BLEWire

/// What reaches an established connection's Link Layer (Core 5.4, Vol 6, Part B, §4.5):
/// a packet from the air, the deadline it asked for, data or a command from the host.
public enum ConnectionInput: Sendable {
    /// A packet the world delivered to the receiver window this connection opened.
    case radio(RadioReception)
    /// ``LinkLayerConnection/nextDeadline`` arrived (an early call does nothing harmful).
    case timer
    /// An ACL data packet from the host; its handle and buffer credits are already checked.
    case hostData(HCI.ACLPacket)
    /// An HCI command the controller routed to this connection (it sent the Command Status).
    case command(ConnectionCommand)
    /// The controller gives this connection the radio for the event starting at
    /// ``LinkLayerConnection/nextEventStart``. Another link of the same controller needs the
    /// radio at `radioFreeUntil` (if not `nil`): the event ends before then, the central
    /// sending nothing whose answer would not arrive in time, the peripheral stopping to
    /// answer and listen (Core 5.4, Vol 6, Part B, §4.5.6: either side may close an event).
    /// A connection that never gets this input runs its events unrestricted.
    case beginEvent(radioFreeUntil: Microseconds?)
    /// The controller gives the radio to another activity for the event starting at
    /// ``LinkLayerConnection/nextEventStart``: the connection sends and listens nothing in it
    /// and waits for the next one, as after an event in which nothing was received (§4.5.1).
    case skipEvent
}

/// The HCI commands a controller hands to a connection: each starts a Link Layer control
/// procedure (Core 5.4, Vol 6, Part B, §5.1) whose completion event the connection sends.
public enum ConnectionCommand: Sendable {
    /// HCI_Disconnect: the termination procedure (§5.1.6) with `reason` for the peer.
    case disconnect(reason: HCI.StatusCode)
    /// HCI_LE_Connection_Update: the connection update procedure (§5.1.1), central only.
    case updateParameters(HCI.LEConnectionUpdate)
    /// HCI_LE_Enable_Encryption: encryption start (§5.1.3.1), or a key refresh
    /// (pause and restart, §5.1.3.2) when the link is already encrypted. Central only.
    case startEncryption(random: UInt64, ediv: UInt16, longTermKey: UInt128)
    /// HCI_LE_Long_Term_Key_Request_Reply with the key, or the negative reply for `nil`.
    case longTermKeyReply(UInt128?)
    /// HCI_LE_Set_Data_Length: the data length update procedure (§5.1.9).
    case setDataLength(txOctets: UInt16, txTime: UInt16)
    /// HCI_LE_Set_PHY: the PHY update procedure (§5.1.10).
    case setPHY(HCI.LESetPHY)
    /// HCI_LE_Read_Remote_Features: the feature exchange (§5.1.4 and §5.1.7).
    case readRemoteFeatures
    /// HCI_Read_Remote_Version_Information: the version exchange (§5.1.5).
    case readRemoteVersion
    /// HCI_LE_Set_Host_Channel_Classification reached a central: the channel map update
    /// procedure (§5.1.2) with the new 37-bit map. Ignored by a peripheral.
    case updateChannelMap(UInt64)
}

/// What an established connection asks of its controller.
public enum ConnectionOutput: Sendable {
    /// A radio action: only `.transmit`, `.listen` and `.stopListening`.
    case radio(ControllerOutput)
    /// A complete HCI event for the host; the controller applies the event masks.
    case event(HCI.Event)
    /// Received data for the host, already fragmented to the controller's LE ACL buffer size.
    case aclToHost(HCI.ACLPacket)
    /// This many host ACL packets left the buffer (the peer acknowledged all their
    /// fragments): the controller reports them in Number Of Completed Packets.
    case completedPackets(Int)
    /// The connection is over; its Disconnection Complete event is in an earlier `.event`.
    case closed(reason: HCI.StatusCode)
}

/// SplitMix64, the connection's own seeded random source (session key diversifiers and
/// IVs), so a world replays exactly from its seed.
struct ConnectionRandom: Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
