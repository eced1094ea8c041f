extension L2CAP {
    /// Connection Parameter Update Request (Core 5.4, Vol 3, Part A, §4.20): a peripheral
    /// asks the central to change the connection's parameters.
    ///
    /// Values are carried as sent; range checks (interval 6–3200, latency ≤ 499, timeout
    /// 10–3200) belong to the central's decision, which answers out-of-range requests with
    /// a rejection rather than a Command Reject.
    public struct ConnectionParameterUpdateRequest: L2CAPSignalingData, Sendable {
        /// ``L2CAP/SignalingCode/connectionParameterUpdateRequest`` (0x12).
        public static let code = SignalingCode.connectionParameterUpdateRequest

        /// Minimum connection interval, in units of 1.25 ms.
        public var intervalMin: UInt16
        /// Maximum connection interval, in units of 1.25 ms.
        public var intervalMax: UInt16
        /// Peripheral latency, in connection events.
        public var latency: UInt16
        /// Supervision timeout multiplier, in units of 10 ms.
        public var timeout: UInt16

        /// A request from its fields.
        public init(intervalMin: UInt16, intervalMax: UInt16, latency: UInt16, timeout: UInt16) {
            self.intervalMin = intervalMin
            self.intervalMax = intervalMax
            self.latency = latency
            self.timeout = timeout
        }

        /// Reads the four parameters.
        public init(from reader: inout ByteReader) throws(WireError) {
            intervalMin = try reader.readUInt16("L2CAP.ConnectionParameterUpdateRequest.intervalMin")
            intervalMax = try reader.readUInt16("L2CAP.ConnectionParameterUpdateRequest.intervalMax")
            latency = try reader.readUInt16("L2CAP.ConnectionParameterUpdateRequest.latency")
            timeout = try reader.readUInt16("L2CAP.ConnectionParameterUpdateRequest.timeout")
        }

        /// Writes the four parameters.
        public func encode(to writer: inout ByteWriter) {
            writer.write(intervalMin)
            writer.write(intervalMax)
            writer.write(latency)
            writer.write(timeout)
        }
    }

    /// Connection Parameter Update Response (Core 5.4, Vol 3, Part A, §4.21): the
    /// central's answer.
    public struct ConnectionParameterUpdateResponse: L2CAPSignalingData, Sendable {
        /// ``L2CAP/SignalingCode/connectionParameterUpdateResponse`` (0x13).
        public static let code = SignalingCode.connectionParameterUpdateResponse

        /// The Result field (Table 4.12); reserved values are rejected.
        public enum Result: UInt16, Hashable, Sendable {
            /// 0x0000: the central will apply the parameters.
            case accepted = 0x0000
            /// 0x0001: the central declines them.
            case rejected = 0x0001
        }

        /// Whether the parameters were accepted.
        public var result: Result

        /// A response with `result`.
        public init(result: Result) { self.result = result }

        /// Reads the result; a reserved value throws.
        public init(from reader: inout ByteReader) throws(WireError) {
            let raw = try reader.readUInt16("L2CAP.ConnectionParameterUpdateResponse.result")
            guard let result = Result(rawValue: raw) else {
                throw WireError(field: "L2CAP.ConnectionParameterUpdateResponse.result", reason: .invalidValue(UInt64(raw)))
            }
            self.result = result
        }

        /// Writes the result.
        public func encode(to writer: inout ByteWriter) {
            writer.write(result.rawValue)
        }
    }
}
