extension HCI {
    /// HCI_Set_Controller_To_Host_Flow_Control (Core 5.4, Vol 4, Part E, §7.3.38): turns on
    /// flow control of data from the controller, paced by Host Number Of Completed Packets.
    public struct SetControllerToHostFlowControl: HCICommand {
        /// The command's opcode, ``HCI/Opcode/setControllerToHostFlowControl``.
        public static let opcode = Opcode.setControllerToHostFlowControl

        /// Flow_Control_Enable: which data packet kinds are flow controlled.
        public enum FlowControl: UInt8, Hashable, Sendable, CaseIterable {
            /// Off for ACL and synchronous data (the default).
            case off = 0x00
            /// On for ACL data, off for synchronous data.
            case aclOnly = 0x01
            /// Off for ACL data, on for synchronous data.
            case synchronousOnly = 0x02
            /// On for both.
            case aclAndSynchronous = 0x03
        }

        // Codec: generated from the stored properties below.
        /// The flow control to use.
        public var flowControlEnable: FlowControl

        /// The command selecting `flowControlEnable`.
        public init(flowControlEnable: FlowControl) { self.flowControlEnable = flowControlEnable }
    }

    /// HCI_Host_Buffer_Size (Core 5.4, Vol 4, Part E, §7.3.39): the host's receive buffers,
    /// used by the controller when controller-to-host flow control is on.
    public struct HostBufferSize: HCICommand {
        /// The command's opcode, ``HCI/Opcode/hostBufferSize``.
        public static let opcode = Opcode.hostBufferSize

        // Codec: generated from the stored properties below.
        /// Largest ACL data payload the host accepts, in octets.
        public var hostACLDataPacketLength: UInt16
        /// Largest synchronous data payload the host accepts, in octets.
        public var hostSynchronousDataPacketLength: UInt8
        /// How many ACL data packets the host can hold.
        public var hostTotalNumACLDataPackets: UInt16
        /// How many synchronous data packets the host can hold.
        public var hostTotalNumSynchronousDataPackets: UInt16

        /// The command describing the host's buffers.
        public init(
            hostACLDataPacketLength: UInt16, hostSynchronousDataPacketLength: UInt8,
            hostTotalNumACLDataPackets: UInt16, hostTotalNumSynchronousDataPackets: UInt16
        ) {
            self.hostACLDataPacketLength = hostACLDataPacketLength
            self.hostSynchronousDataPacketLength = hostSynchronousDataPacketLength
            self.hostTotalNumACLDataPackets = hostTotalNumACLDataPackets
            self.hostTotalNumSynchronousDataPackets = hostTotalNumSynchronousDataPackets
        }
    }

    /// HCI_Host_Number_Of_Completed_Packets (Core 5.4, Vol 4, Part E, §7.3.40): returns
    /// receive buffers to the controller, per connection. Normally answered by nothing.
    public struct HostNumberOfCompletedPackets: HCICommand {
        /// The command's opcode, ``HCI/Opcode/hostNumberOfCompletedPackets``.
        public static let opcode = Opcode.hostNumberOfCompletedPackets

        /// One Connection_Handle[i] / Host_Num_Completed_Packets[i] pair.
        public struct Entry: Hashable, Sendable {
            /// The connection whose buffers were freed.
            public var connectionHandle: UInt16
            /// How many packets of that connection the host has processed.
            public var hostNumCompletedPackets: UInt16

            /// An entry freeing `hostNumCompletedPackets` buffers of `connectionHandle`.
            public init(connectionHandle: UInt16, hostNumCompletedPackets: UInt16) {
                self.connectionHandle = connectionHandle
                self.hostNumCompletedPackets = hostNumCompletedPackets
            }
        }

        /// The connections and their counts; at most 255 (the count is one octet), each
        /// entry's fields interleaved on the wire (§5.2).
        public var entries: [Entry]

        /// The command returning `entries`.
        public init(entries: [Entry]) { self.entries = entries }

        public init(from reader: inout ByteReader) throws(WireError) {
            let count = Int(try reader.readUInt8("HCI.HostNumberOfCompletedPackets.numHandles"))
            try reader.require(count * 4, "HCI.HostNumberOfCompletedPackets.entries")
            var entries: [Entry] = []
            entries.reserveCapacity(count)
            for _ in 0 ..< count {
                entries.append(Entry(
                    connectionHandle: try reader.readConnectionHandle("HCI.HostNumberOfCompletedPackets.connectionHandle"),
                    hostNumCompletedPackets: try reader.readUInt16("HCI.HostNumberOfCompletedPackets.hostNumCompletedPackets")
                ))
            }
            self.entries = entries
        }

        /// Appends the count and the entries; entries past the 255th are left out so the
        /// count octet stays true.
        public func encode(to writer: inout ByteWriter) {
            let written = entries.prefix(255)
            writer.write(UInt8(written.count))
            for entry in written {
                writer.write(entry.connectionHandle)
                writer.write(entry.hostNumCompletedPackets)
            }
        }
    }
}
