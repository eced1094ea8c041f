extension L2CAP {
    /// Command Reject (Core 5.4, Vol 3, Part A, §4.1): the answer to a signaling command
    /// that was not understood, too long, or named a channel that does not exist.
    public struct CommandReject: L2CAPSignalingData, Sendable {
        /// ``L2CAP/SignalingCode/commandReject`` (0x01).
        public static let code = SignalingCode.commandReject

        /// The Reason field with the data each reason carries (Table 4.3). Reserved reason
        /// codes are rejected.
        public enum Reason: Hashable, Sendable {
            /// 0x0000: the command's code is unknown or its data malformed. No data.
            case commandNotUnderstood
            /// 0x0001: the command exceeded the signaling MTU; carries the MTU in use.
            case signalingMTUExceeded(actualMTU: UInt16)
            /// 0x0002: the request named a channel that is not open; carries the CIDs as
            /// the request named them (local = the rejecting device's).
            case invalidCIDInRequest(localCID: ChannelIdentifier, remoteCID: ChannelIdentifier)

            /// The 16-bit reason code.
            public var rawValue: UInt16 {
                switch self {
                case .commandNotUnderstood: return 0x0000
                case .signalingMTUExceeded: return 0x0001
                case .invalidCIDInRequest: return 0x0002
                }
            }
        }

        /// Why the command was rejected.
        public var reason: Reason

        /// A reject with `reason`.
        public init(reason: Reason) { self.reason = reason }

        /// Reads the reason and exactly the data it carries.
        public init(from reader: inout ByteReader) throws(WireError) {
            let raw = try reader.readUInt16("L2CAP.CommandReject.reason")
            switch raw {
            case 0x0000:
                reason = .commandNotUnderstood
            case 0x0001:
                reason = .signalingMTUExceeded(actualMTU: try reader.readUInt16("L2CAP.CommandReject.actualMTU"))
            case 0x0002:
                let local = try reader.readChannelIdentifier("L2CAP.CommandReject.localCID")
                let remote = try reader.readChannelIdentifier("L2CAP.CommandReject.remoteCID")
                reason = .invalidCIDInRequest(localCID: local, remoteCID: remote)
            default:
                throw WireError(field: "L2CAP.CommandReject.reason", reason: .invalidValue(UInt64(raw)))
            }
        }

        /// Writes the reason and its data.
        public func encode(to writer: inout ByteWriter) {
            writer.write(reason.rawValue)
            switch reason {
            case .commandNotUnderstood:
                break
            case let .signalingMTUExceeded(actualMTU):
                writer.write(actualMTU)
            case let .invalidCIDInRequest(localCID, remoteCID):
                writer.write(localCID)
                writer.write(remoteCID)
            }
        }
    }
}
