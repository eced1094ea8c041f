extension L2CAP {
    /// The information payload of the first K-frame of an SDU on a credit-based channel
    /// (Core 5.4, Vol 3, Part A, §3.4.3): the 2-octet SDU Length, then the first segment.
    /// Later K-frames of the same SDU carry only a segment, so their payload is the
    /// B-frame's payload as it is.
    public struct FirstKFramePayload: WireCodable, Hashable, Sendable {
        /// The length of the whole SDU, across all its K-frames.
        public var sduLength: UInt16
        /// The first segment of the SDU, a view into the input.
        public var segment: ArraySlice<UInt8>

        /// A first-K-frame payload from its fields.
        public init(sduLength: UInt16, segment: ArraySlice<UInt8>) {
            self.sduLength = sduLength
            self.segment = segment
        }

        /// Reads the SDU Length and takes the remaining octets as the segment. A segment
        /// longer than the SDU is rejected, since the receiver could not place it.
        public init(from reader: inout ByteReader) throws(WireError) {
            sduLength = try reader.readUInt16("L2CAP.FirstKFramePayload.sduLength")
            segment = reader.readRemaining()
            guard segment.count <= Int(sduLength) else {
                throw WireError(field: "L2CAP.FirstKFramePayload.segment",
                                reason: .lengthMismatch(declared: Int(sduLength), actual: segment.count))
            }
        }

        /// Writes the SDU Length and the segment.
        public func encode(to writer: inout ByteWriter) {
            writer.write(sduLength)
            writer.write(contentsOf: segment)
        }

        /// Splits `sdu` into the information payloads of its K-frames, each at most `mps`
        /// octets: the first with the SDU Length and `mps − 2` octets, the rest with up to
        /// `mps` octets each (§3.4.3). An empty SDU gives one payload holding only the
        /// length. Returns `nil` when `sdu` exceeds 65 535 octets or `mps` is below 3.
        public static func segment(sdu: ArraySlice<UInt8>, mps: Int) -> [[UInt8]]? {
            guard sdu.count <= Int(UInt16.max), mps >= 3 else { return nil }
            var payloads: [[UInt8]] = []
            let firstCount = min(sdu.count, mps - 2)
            let firstEnd = sdu.startIndex + firstCount
            payloads.append(FirstKFramePayload(sduLength: UInt16(sdu.count), segment: sdu[sdu.startIndex ..< firstEnd]).encoded())
            var start = firstEnd
            while start < sdu.endIndex {
                let end = min(start + mps, sdu.endIndex)
                payloads.append(Array(sdu[start ..< end]))
                start = end
            }
            return payloads
        }
    }
}
