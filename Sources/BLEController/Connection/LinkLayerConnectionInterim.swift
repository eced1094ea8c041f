import BLEWire

// INTERIM: a stand-in for the per-connection link layer that the ll-connection branch
// provides. It has exactly that branch's public API so the controller core builds and can be
// tested; it answers every command with "Unknown HCI Command" and never transmits. Delete
// this file when the branches merge.

/// What reaches one connection's link layer (Core 5.4, Vol 6, Part B, §4.5).
public enum ConnectionInput: Hashable, Sendable {
    /// A data-channel packet the world delivered to the connection's open receiver.
    case radio(RadioReception)
    /// The connection's ``LinkLayerConnection/nextDeadline`` arrived.
    case timer
    /// An ACL packet from the host; the controller has checked the handle and buffers.
    case hostData(HCI.ACLPacket)
    /// An HCI command the controller routed to this connection by its handle.
    case command(ConnectionCommand)
}

/// HCI commands that act on one connection (Core 5.4, Vol 4, Part E, §7.1, §7.8).
public enum ConnectionCommand: Hashable, Sendable {
    /// HCI_Disconnect with `reason`.
    case disconnect(reason: HCI.StatusCode)
    /// HCI_LE_Connection_Update.
    case updateParameters(HCI.LEConnectionUpdate)
    /// HCI_LE_Enable_Encryption (central).
    case startEncryption(random: UInt64, ediv: UInt16, longTermKey: UInt128)
    /// HCI_LE_Long_Term_Key_Request_Reply, or the negative reply when `nil` (peripheral).
    case longTermKeyReply(UInt128?)
    /// HCI_LE_Set_Data_Length.
    case setDataLength(txOctets: UInt16, txTime: UInt16)
    /// HCI_LE_Set_PHY.
    case setPHY(HCI.LESetPHY)
    /// HCI_LE_Read_Remote_Features.
    case readRemoteFeatures
    /// HCI_Read_Remote_Version_Information.
    case readRemoteVersion
}

/// What one connection's link layer asks of its controller.
public enum ConnectionOutput: Hashable, Sendable {
    /// A radio action (`.transmit`, `.listen`, `.stopListening`).
    case radio(ControllerOutput)
    /// A complete HCI event for the host; the controller applies the event masks.
    case event(HCI.Event)
    /// ACL data for the host, already fragmented to the LE ACL buffer size.
    case aclToHost(HCI.ACLPacket)
    /// Host ACL packets that left the controller's buffers (for Number Of Completed Packets).
    case completedPackets(Int)
    /// The connection is over; Disconnection Complete, if any, came as `.event`.
    case closed(reason: HCI.StatusCode)
}

/// INTERIM stand-in for one connection's link layer (see the note at the top of the file).
public struct LinkLayerConnection: Sendable {
    /// The connection handle the host knows this connection by.
    public let handleValue: UInt16
    /// The RSSI of the last packet received on the connection; never set by the stand-in.
    public var lastRSSI: Int8? { nil }
    /// The stand-in never needs waking.
    public var nextDeadline: Microseconds? { nil }

    /// Creates the connection that a CONNECT_IND ending at `connectIndicationEnd` opened.
    public init(
        handle: UInt16, role: HCI.Role, request: LL.ConnectionRequestData,
        connectIndicationEnd: Microseconds, localAddress: BluetoothAddress,
        peerAddress: BluetoothAddress, configuration: ControllerConfiguration, seed: UInt64
    ) {
        handleValue = handle
    }

    /// Answers commands with status 0x01 in the form the command's completion calls for;
    /// ignores everything else.
    public mutating func handle(_ input: ConnectionInput, at now: Microseconds) -> [ConnectionOutput] {
        guard case let .command(command) = input else { return [] }
        let unknown = HCI.StatusCode.unknownHCICommand
        func status(_ opcode: HCI.Opcode) -> [ConnectionOutput] {
            [.event(.commandStatus(HCI.CommandStatus(status: unknown, numHCICommandPackets: 1, opcode: opcode)))]
        }
        func complete(_ opcode: HCI.Opcode) -> [ConnectionOutput] {
            let parameters = HCI.StatusAndHandleReturnParameters(status: unknown, connectionHandle: handleValue)
            return [.event(.commandComplete(HCI.CommandComplete(
                numHCICommandPackets: 1, opcode: opcode, returnParameters: parameters.encoded()[...])))]
        }
        switch command {
        case .disconnect: return status(HCI.Disconnect.opcode)
        case .updateParameters: return status(HCI.LEConnectionUpdate.opcode)
        case .startEncryption: return status(HCI.LEEnableEncryption.opcode)
        case .longTermKeyReply(.some): return complete(HCI.LELongTermKeyRequestReply.opcode)
        case .longTermKeyReply(.none): return complete(HCI.LELongTermKeyRequestNegativeReply.opcode)
        case .setDataLength: return complete(HCI.LESetDataLength.opcode)
        case .setPHY: return status(HCI.LESetPHY.opcode)
        case .readRemoteFeatures: return status(HCI.LEReadRemoteFeatures.opcode)
        case .readRemoteVersion: return status(HCI.ReadRemoteVersionInformation.opcode)
        }
    }
}
