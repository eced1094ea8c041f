extension HCI {
    /// The six connection parameters that LE Create Connection, LE Extended Create
    /// Connection, LE Connection Update and the Remote Connection Parameter Request Reply
    /// share (Core 5.4, Vol 4, Part E, §7.8.12), in their wire order.
    public struct LEConnectionParameters: Hashable, Sendable {
        /// Connection_Interval_Min, in units of 1.25 ms (0x0006 to 0x0C80).
        public var connectionIntervalMin: UInt16
        /// Connection_Interval_Max, in units of 1.25 ms.
        public var connectionIntervalMax: UInt16
        /// Max_Latency: connection events the peripheral may skip (0x0000 to 0x01F3).
        public var maxLatency: UInt16
        /// Supervision_Timeout, in units of 10 ms (0x000A to 0x0C80).
        public var supervisionTimeout: UInt16
        /// Min_CE_Length, in units of 0.625 ms: a hint for the connection event length.
        public var minCELength: UInt16
        /// Max_CE_Length, in units of 0.625 ms.
        public var maxCELength: UInt16

        /// Parameters with every field.
        public init(
            connectionIntervalMin: UInt16, connectionIntervalMax: UInt16, maxLatency: UInt16,
            supervisionTimeout: UInt16, minCELength: UInt16 = 0, maxCELength: UInt16 = 0
        ) {
            self.connectionIntervalMin = connectionIntervalMin
            self.connectionIntervalMax = connectionIntervalMax
            self.maxLatency = maxLatency
            self.supervisionTimeout = supervisionTimeout
            self.minCELength = minCELength
            self.maxCELength = maxCELength
        }

        /// Reads the twelve octets; `type` prefixes the field names in errors.
        public init(from reader: inout ByteReader, type: @autoclosure () -> String) throws(WireError) {
            try reader.require(12, type() + ".connectionParameters")
            connectionIntervalMin = try reader.readUInt16(type() + ".connectionIntervalMin")
            connectionIntervalMax = try reader.readUInt16(type() + ".connectionIntervalMax")
            maxLatency = try reader.readUInt16(type() + ".maxLatency")
            supervisionTimeout = try reader.readUInt16(type() + ".supervisionTimeout")
            minCELength = try reader.readUInt16(type() + ".minCELength")
            maxCELength = try reader.readUInt16(type() + ".maxCELength")
        }

        /// Appends the twelve octets.
        public func encode(to writer: inout ByteWriter) {
            writer.write(connectionIntervalMin)
            writer.write(connectionIntervalMax)
            writer.write(maxLatency)
            writer.write(supervisionTimeout)
            writer.write(minCELength)
            writer.write(maxCELength)
        }
    }
}

extension ByteReader {
    /// Reads a Peer_Address_Type that may name an identity address (0x00 to 0x03; the
    /// anonymous 0xFF is reserved here) and the six address octets; the address's kind
    /// follows from the type.
    mutating func readPeerAddress(
        _ typeField: @autoclosure () -> String, _ addressField: @autoclosure () -> String
    ) throws(WireError) -> (HCI.AddressType, BluetoothAddress) {
        let type = try HCI.AddressType(from: &self, field: typeField())
        guard type != .anonymous else {
            throw WireError(field: typeField(), reason: .invalidValue(UInt64(type.rawValue)))
        }
        return (type, try BluetoothAddress(from: &self, kind: type.addressKind, field: addressField()))
    }
}

extension HCI {
    /// HCI_LE_Create_Connection (Core 5.4, Vol 4, Part E, §7.8.12): starts initiating a
    /// connection on LE 1M with legacy PDUs. Answered by Command Status, then LE
    /// (Enhanced) Connection Complete.
    public struct LECreateConnection: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leCreateConnection``.
        public static let opcode = Opcode.leCreateConnection
        /// Answered by Command Status, then by the event that carries the result.
        public static let completion = CommandCompletion.commandStatus

        /// LE_Scan_Interval, in units of 0.625 ms.
        public var leScanInterval: UInt16
        /// LE_Scan_Window, in units of 0.625 ms.
        public var leScanWindow: UInt16
        /// Initiator_Filter_Policy: the peer below, or the Filter Accept List.
        public var initiatorFilterPolicy: InitiatorFilterPolicy
        /// Peer_Address_Type: public or random device address, or (with privacy) public or
        /// random identity address. Never ``AddressType/anonymous``.
        public var peerAddressType: AddressType
        /// Peer_Address; only its value is on the wire, decoding sets its kind from
        /// `peerAddressType`.
        public var peerAddress: BluetoothAddress
        /// Which own address goes into the CONNECT_IND.
        public var ownAddressType: OwnAddressType
        /// The connection parameters to ask for.
        public var connectionParameters: LEConnectionParameters

        /// The command with every parameter.
        public init(
            leScanInterval: UInt16, leScanWindow: UInt16, initiatorFilterPolicy: InitiatorFilterPolicy = .usePeerAddress,
            peerAddressType: AddressType, peerAddress: BluetoothAddress, ownAddressType: OwnAddressType,
            connectionParameters: LEConnectionParameters
        ) {
            self.leScanInterval = leScanInterval
            self.leScanWindow = leScanWindow
            self.initiatorFilterPolicy = initiatorFilterPolicy
            self.peerAddressType = peerAddressType
            self.peerAddress = peerAddress
            self.ownAddressType = ownAddressType
            self.connectionParameters = connectionParameters
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            leScanInterval = try reader.readUInt16("HCI.LECreateConnection.leScanInterval")
            leScanWindow = try reader.readUInt16("HCI.LECreateConnection.leScanWindow")
            initiatorFilterPolicy = try reader.readEnumeration(
                InitiatorFilterPolicy.self, "HCI.LECreateConnection.initiatorFilterPolicy")
            (peerAddressType, peerAddress) = try reader.readPeerAddress(
                "HCI.LECreateConnection.peerAddressType", "HCI.LECreateConnection.peerAddress")
            ownAddressType = try reader.readEnumeration(OwnAddressType.self, "HCI.LECreateConnection.ownAddressType")
            connectionParameters = try LEConnectionParameters(from: &reader, type: "HCI.LECreateConnection")
        }

        public func encode(to writer: inout ByteWriter) {
            writer.write(leScanInterval)
            writer.write(leScanWindow)
            writer.write(initiatorFilterPolicy.rawValue)
            writer.write(peerAddressType.rawValue)
            peerAddress.encode(to: &writer)
            writer.write(ownAddressType.rawValue)
            connectionParameters.encode(to: &writer)
        }
    }

    /// HCI_LE_Create_Connection_Cancel (Core 5.4, Vol 4, Part E, §7.8.13): stops initiating;
    /// the pending create ends with LE Connection Complete, Unknown Connection Identifier.
    public struct LECreateConnectionCancel: ParameterlessCommand {
        /// The command's opcode, ``HCI/Opcode/leCreateConnectionCancel``.
        public static let opcode = Opcode.leCreateConnectionCancel
        /// The command (it has no parameters).
        public init() {}
    }

    /// HCI_LE_Connection_Update (Core 5.4, Vol 4, Part E, §7.8.18): asks for new connection
    /// parameters. Answered by Command Status, then LE Connection Update Complete.
    public struct LEConnectionUpdate: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leConnectionUpdate``.
        public static let opcode = Opcode.leConnectionUpdate
        /// Answered by Command Status, then by the event that carries the result.
        public static let completion = CommandCompletion.commandStatus

        /// The connection to update.
        public var connectionHandle: UInt16
        /// The parameters to ask for.
        public var connectionParameters: LEConnectionParameters

        /// The command updating `connectionHandle`.
        public init(connectionHandle: UInt16, connectionParameters: LEConnectionParameters) {
            self.connectionHandle = connectionHandle
            self.connectionParameters = connectionParameters
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            connectionHandle = try reader.readConnectionHandle("HCI.LEConnectionUpdate.connectionHandle")
            connectionParameters = try LEConnectionParameters(from: &reader, type: "HCI.LEConnectionUpdate")
        }

        public func encode(to writer: inout ByteWriter) {
            writer.write(connectionHandle)
            connectionParameters.encode(to: &writer)
        }
    }

    /// HCI_LE_Remote_Connection_Parameter_Request_Reply (Core 5.4, Vol 4, Part E, §7.8.31):
    /// accepts a peer's connection parameter request, with the parameters to use.
    public struct LERemoteConnectionParameterRequestReply: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leRemoteConnectionParameterRequestReply``.
        public static let opcode = Opcode.leRemoteConnectionParameterRequestReply
        /// Command Complete returns the status and the connection handle.
        public typealias ReturnParameters = StatusAndHandleReturnParameters

        /// The connection whose request is answered.
        public var connectionHandle: UInt16
        /// The parameters the host accepts.
        public var connectionParameters: LEConnectionParameters

        /// The reply for `connectionHandle`.
        public init(connectionHandle: UInt16, connectionParameters: LEConnectionParameters) {
            self.connectionHandle = connectionHandle
            self.connectionParameters = connectionParameters
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            connectionHandle = try reader.readConnectionHandle("HCI.LERemoteConnectionParameterRequestReply.connectionHandle")
            connectionParameters = try LEConnectionParameters(from: &reader, type: "HCI.LERemoteConnectionParameterRequestReply")
        }

        public func encode(to writer: inout ByteWriter) {
            writer.write(connectionHandle)
            connectionParameters.encode(to: &writer)
        }
    }

    /// HCI_LE_Remote_Connection_Parameter_Request_Negative_Reply (Core 5.4, Vol 4, Part E,
    /// §7.8.32): rejects a peer's connection parameter request.
    public struct LERemoteConnectionParameterRequestNegativeReply: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leRemoteConnectionParameterRequestNegativeReply``.
        public static let opcode = Opcode.leRemoteConnectionParameterRequestNegativeReply
        /// Command Complete returns the status and the connection handle.
        public typealias ReturnParameters = StatusAndHandleReturnParameters

        // Codec: generated from the stored properties below.
        /// The connection whose request is rejected.
        public var connectionHandle: UInt16
        /// Why, e.g. Unacceptable Connection Parameters (0x3B).
        public var reason: StatusCode

        /// The rejection for `connectionHandle`.
        public init(connectionHandle: UInt16, reason: StatusCode = .unacceptableConnectionParameters) {
            self.connectionHandle = connectionHandle
            self.reason = reason
        }
    }

    /// HCI_LE_Read_Remote_Features (Core 5.4, Vol 4, Part E, §7.8.21): asks the peer for its
    /// LE features. Answered by Command Status, then LE Read Remote Features Complete.
    public struct LEReadRemoteFeatures: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leReadRemoteFeatures``.
        public static let opcode = Opcode.leReadRemoteFeatures
        /// Answered by Command Status, then by the event that carries the result.
        public static let completion = CommandCompletion.commandStatus

        // Codec: generated from the stored properties below.
        /// The connection whose peer is asked.
        public var connectionHandle: UInt16

        /// The request for `connectionHandle`.
        public init(connectionHandle: UInt16) { self.connectionHandle = connectionHandle }
    }
}
