extension HCI {
    /// HCI_LE_Extended_Create_Connection [v1] (Core 5.4, Vol 4, Part E, §7.8.66): starts
    /// initiating a connection on one or more PHYs. Answered by Command Status, then LE
    /// Enhanced Connection Complete.
    ///
    /// On the wire, Initiating_PHYs has bit 0 (LE 1M), bit 1 (LE 2M) and bit 2 (LE Coded);
    /// one block of scan and connection parameters follows per set bit, interleaved (§5.2),
    /// in bit order. Here each PHY's block is an optional field: present means its bit is set.
    public struct LEExtendedCreateConnection: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leExtendedCreateConnection``.
        public static let opcode = Opcode.leExtendedCreateConnection
        /// Answered by Command Status, then by the event that carries the result.
        public static let completion = CommandCompletion.commandStatus

        /// One PHY's scan and connection parameters.
        public struct PHYParameters: Hashable, Sendable {
            /// Scan_Interval[i], in units of 0.625 ms (ignored for LE 2M, which is not scanned).
            public var scanInterval: UInt16
            /// Scan_Window[i], in units of 0.625 ms.
            public var scanWindow: UInt16
            /// The connection parameters to ask for on this PHY.
            public var connectionParameters: LEConnectionParameters

            /// Parameters with every field.
            public init(scanInterval: UInt16, scanWindow: UInt16, connectionParameters: LEConnectionParameters) {
                self.scanInterval = scanInterval
                self.scanWindow = scanWindow
                self.connectionParameters = connectionParameters
            }
        }

        /// Initiator_Filter_Policy: the peer below, or the Filter Accept List.
        public var initiatorFilterPolicy: InitiatorFilterPolicy
        /// Which own address goes into the connect request.
        public var ownAddressType: OwnAddressType
        /// Peer_Address_Type: public or random device or identity address; never anonymous.
        public var peerAddressType: AddressType
        /// Peer_Address; decoding sets its kind from `peerAddressType`.
        public var peerAddress: BluetoothAddress
        /// Parameters for LE 1M, if initiating on it.
        public var le1M: PHYParameters?
        /// Parameters for LE 2M, if a connection on it is acceptable.
        public var le2M: PHYParameters?
        /// Parameters for LE Coded, if initiating on it.
        public var leCoded: PHYParameters?

        /// The command with every parameter.
        public init(
            initiatorFilterPolicy: InitiatorFilterPolicy = .usePeerAddress, ownAddressType: OwnAddressType,
            peerAddressType: AddressType, peerAddress: BluetoothAddress,
            le1M: PHYParameters?, le2M: PHYParameters? = nil, leCoded: PHYParameters? = nil
        ) {
            self.initiatorFilterPolicy = initiatorFilterPolicy
            self.ownAddressType = ownAddressType
            self.peerAddressType = peerAddressType
            self.peerAddress = peerAddress
            self.le1M = le1M
            self.le2M = le2M
            self.leCoded = leCoded
        }

        /// The Initiating_PHYs bits this value encodes.
        public var initiatingPHYs: LEPHYs {
            var phys: LEPHYs = []
            if le1M != nil { phys.insert(.le1M) }
            if le2M != nil { phys.insert(.le2M) }
            if leCoded != nil { phys.insert(.leCoded) }
            return phys
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            initiatorFilterPolicy = try reader.readEnumeration(
                InitiatorFilterPolicy.self, "HCI.LEExtendedCreateConnection.initiatorFilterPolicy")
            ownAddressType = try reader.readEnumeration(OwnAddressType.self, "HCI.LEExtendedCreateConnection.ownAddressType")
            (peerAddressType, peerAddress) = try reader.readPeerAddress(
                "HCI.LEExtendedCreateConnection.peerAddressType", "HCI.LEExtendedCreateConnection.peerAddress")
            let phys = LEPHYs(rawValue: try reader.readUInt8("HCI.LEExtendedCreateConnection.initiatingPHYs"))
            guard phys.subtracting([.le1M, .le2M, .leCoded]).isEmpty else {
                throw WireError(field: "HCI.LEExtendedCreateConnection.initiatingPHYs", reason: .invalidValue(UInt64(phys.rawValue)))
            }
            try reader.require(phys.rawValue.nonzeroBitCount * 16, "HCI.LEExtendedCreateConnection.phyParameters")
            le1M = phys.contains(.le1M) ? try Self.readPHY(&reader) : nil
            le2M = phys.contains(.le2M) ? try Self.readPHY(&reader) : nil
            leCoded = phys.contains(.leCoded) ? try Self.readPHY(&reader) : nil
        }

        private static func readPHY(_ reader: inout ByteReader) throws(WireError) -> PHYParameters {
            PHYParameters(
                scanInterval: try reader.readUInt16("HCI.LEExtendedCreateConnection.scanInterval"),
                scanWindow: try reader.readUInt16("HCI.LEExtendedCreateConnection.scanWindow"),
                connectionParameters: try LEConnectionParameters(from: &reader, type: "HCI.LEExtendedCreateConnection")
            )
        }

        public func encode(to writer: inout ByteWriter) {
            writer.write(initiatorFilterPolicy.rawValue)
            writer.write(ownAddressType.rawValue)
            writer.write(peerAddressType.rawValue)
            peerAddress.encode(to: &writer)
            writer.write(initiatingPHYs.rawValue)
            if let le1M { Self.writePHY(le1M, to: &writer) }
            if let le2M { Self.writePHY(le2M, to: &writer) }
            if let leCoded { Self.writePHY(leCoded, to: &writer) }
        }

        private static func writePHY(_ parameters: PHYParameters, to writer: inout ByteWriter) {
            writer.write(parameters.scanInterval)
            writer.write(parameters.scanWindow)
            parameters.connectionParameters.encode(to: &writer)
        }
    }
}
