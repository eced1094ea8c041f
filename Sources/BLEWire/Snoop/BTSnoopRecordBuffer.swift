extension BTSnoop {
    /// The bytes of a btsnoop file as they arrive (a capture still being written, read as it
    /// grows), handing out each record once it is whole: each record's 24-octet header gives
    /// its included length (the RFC 1761 snoop layout that btsnoop, BlueZ and Android use).
    public struct RecordBuffer: Sendable {
        private var bytes: [UInt8] = []
        private var offset = 0

        /// An empty buffer, before the file's first octet.
        public init() {}

        /// Adds the octets read since the last call.
        public mutating func append(_ more: [UInt8]) { bytes += more }

        /// The file header once its 16 octets are there.
        public mutating func header() throws(WireError) -> Header? {
            guard offset == 0, bytes.count >= Header.encodedLength else { return nil }
            var reader = ByteReader(bytes[0 ..< Header.encodedLength])
            let header = try Header(from: &reader)
            offset = Header.encodedLength
            return header
        }

        /// Every whole record after those already handed out.
        public mutating func completeRecords() throws(WireError) -> [Record] {
            var records: [Record] = []
            while bytes.count - offset >= Record.headerLength {
                let included = bytes[(offset + 4) ..< (offset + 8)].reduce(0) { $0 << 8 | Int($1) }
                let end = offset + Record.headerLength + included
                guard bytes.count >= end else { break }
                var reader = ByteReader(bytes[offset ..< end])
                records.append(try Record(from: &reader))
                offset = end
            }
            if offset > 65_536 {
                bytes.removeFirst(offset)
                offset = 0
            }
            return records
        }

        /// Octets of a record not yet whole.
        public var pendingCount: Int { bytes.count - offset }
    }
}
