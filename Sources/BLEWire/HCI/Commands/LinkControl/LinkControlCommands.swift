extension HCI {
    /// HCI_Disconnect (Core 5.4, Vol 4, Part E, §7.1.6): ends a connection. Answered by
    /// Command Status, then Disconnection Complete.
    public struct Disconnect: HCICommand {
        /// The command's opcode, ``HCI/Opcode/disconnect``.
        public static let opcode = Opcode.disconnect
        /// Answered by Command Status, then by the event that carries the result.
        public static let completion = CommandCompletion.commandStatus

        // Codec: generated from the stored properties below.
        /// The connection to end.
        public var connectionHandle: UInt16
        /// Why, as sent to the peer: usually Remote User Terminated Connection (0x13).
        /// The specification allows only a few codes; the controller enforces that.
        public var reason: StatusCode

        /// A disconnect of `connectionHandle` for `reason`.
        public init(connectionHandle: UInt16, reason: StatusCode = .remoteUserTerminatedConnection) {
            self.connectionHandle = connectionHandle
            self.reason = reason
        }
    }

    /// HCI_Read_Remote_Version_Information (Core 5.4, Vol 4, Part E, §7.1.23): asks the
    /// peer's link layer for its version. Answered by Command Status, then Read Remote
    /// Version Information Complete.
    public struct ReadRemoteVersionInformation: HCICommand {
        /// The command's opcode, ``HCI/Opcode/readRemoteVersionInformation``.
        public static let opcode = Opcode.readRemoteVersionInformation
        /// Answered by Command Status, then by the event that carries the result.
        public static let completion = CommandCompletion.commandStatus

        // Codec: generated from the stored properties below.
        /// The connection whose peer is asked.
        public var connectionHandle: UInt16

        /// The request for `connectionHandle`.
        public init(connectionHandle: UInt16) { self.connectionHandle = connectionHandle }
    }
}
