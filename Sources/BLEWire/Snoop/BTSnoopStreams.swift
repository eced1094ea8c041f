extension BTSnoop {
    /// Turns H4 packets into btsnoop octets for datalink 1002: the file header on the
    /// first call, then one record per packet. Append what it returns to a file or buffer.
    public struct Writer: Sendable {
        /// Packets the caller reports lost so far, written into every record.
        public var cumulativeDrops: UInt32
        /// Whether the file header has been produced.
        public private(set) var hasWrittenHeader: Bool

        /// A writer that has produced nothing yet.
        public init(cumulativeDrops: UInt32 = 0) {
            self.cumulativeDrops = cumulativeDrops
            hasWrittenHeader = false
        }

        /// The 16 header octets for datalink 1002, for callers that write them themselves.
        public static var headerBytes: [UInt8] { Header(datalink: .hciUART).encoded() }

        /// The octets for one H4 packet (type octet first), preceded by the file header if
        /// this is the first call. Flags come from `direction` and the type octet; throws,
        /// producing nothing, when the packet is empty or its type octet is unknown.
        public mutating func bytes(forH4Packet packet: [UInt8], direction: Direction, unixMicroseconds: Int64) throws(WireError) -> [UInt8] {
            let record = try Record(h4Packet: packet, direction: direction, unixMicroseconds: unixMicroseconds,
                                    cumulativeDrops: cumulativeDrops)
            var writer = ByteWriter(capacity: Header.encodedLength + Record.headerLength + packet.count)
            if !hasWrittenHeader {
                Header(datalink: .hciUART).encode(to: &writer)
                hasWrittenHeader = true
            }
            record.encode(to: &writer)
            return writer.bytes
        }
    }

    /// Reads a btsnoop capture held in memory: the header when created, then records one
    /// by one with ``next()``.
    ///
    /// Any datalink is accepted and exposed in ``header``, so a caller can report "unknown
    /// datalink 2001" instead of failing; ``Record/hciPacket(datalink:)`` interprets
    /// packets of the supported ones. A truncated or inconsistent record throws a
    /// ``WireError`` whose field names the record's index, e.g. `BTSnoop.Record[3].data`.
    public struct Reader: Sendable {
        /// The file header.
        public let header: Header
        /// The index of the next record to read.
        public private(set) var recordIndex: Int
        private var reader: ByteReader

        /// A reader over `bytes`; throws if the header is missing or wrong.
        public init(_ bytes: ArraySlice<UInt8>) throws(WireError) {
            var reader = ByteReader(bytes)
            header = try Header(from: &reader)
            self.reader = reader
            recordIndex = 0
        }

        /// A reader over `bytes`; throws if the header is missing or wrong.
        public init(_ bytes: [UInt8]) throws(WireError) {
            try self.init(bytes[...])
        }

        /// The next record, or `nil` at the end of the input.
        public mutating func next() throws(WireError) -> Record? {
            guard !reader.isAtEnd else { return nil }
            let index = recordIndex
            let record = try Record(from: &reader, field: "BTSnoop.Record[\(index)]")
            recordIndex += 1
            return record
        }

        /// Every remaining record; throws at the first malformed one.
        public mutating func readAll() throws(WireError) -> [Record] {
            var records: [Record] = []
            while let record = try next() { records.append(record) }
            return records
        }
    }
}
