extension HCI {
    /// LE Advertising Report event (Core 5.4, Vol 4, Part E, §7.7.65.2): legacy
    /// advertising and scan response PDUs the scanner received.
    ///
    /// The report arrays are interleaved per report on the wire (§5.2): all fields of
    /// report 0 (event type, address type, address, data length, data, RSSI), then report 1,
    /// … — as BlueZ and Zephyr parse it and as controllers send it. Decoding allocates
    /// once (the reports array); each report's data is a view into the input.
    public struct LEAdvertisingReport: HCILEMetaEvent {
        /// Subevent code 0x02.
        public static let subeventCode = LESubeventCode.advertisingReport
        /// The most advertising data a legacy PDU carries (§7.7.65.2). Decoding keeps longer
        /// data from non-conforming controllers instead of dropping the report.
        public static let maximumDataLength = 31
        /// The RSSI value that means "not available".
        public static let rssiNotAvailable: Int8 = 127

        /// The legacy PDU type a report came from (Event_Type).
        public enum EventType: UInt8, Hashable, Sendable, CaseIterable {
            /// ADV_IND: connectable and scannable undirected advertising.
            case advInd = 0x00
            /// ADV_DIRECT_IND: connectable directed advertising.
            case advDirectInd = 0x01
            /// ADV_SCAN_IND: scannable undirected advertising.
            case advScanInd = 0x02
            /// ADV_NONCONN_IND: non-connectable undirected advertising.
            case advNonconnInd = 0x03
            /// SCAN_RSP: a scan response.
            case scanRsp = 0x04
        }

        /// One received advertising PDU.
        public struct Report: Hashable, Sendable {
            /// The PDU type.
            public var eventType: EventType
            /// The advertiser's address type; ``address``'s kind follows it.
            public var addressType: AddressType
            /// The advertiser's address.
            public var address: BluetoothAddress
            /// The advertising or scan response data (AD structures), at most 31 octets.
            public var data: ArraySlice<UInt8>
            /// Received signal strength in dBm (−127 to +20), or 127 if not available.
            public var rssi: Int8

            /// A report with every field given.
            public init(eventType: EventType, addressType: AddressType, address: BluetoothAddress, data: ArraySlice<UInt8>, rssi: Int8) {
                self.eventType = eventType
                self.addressType = addressType
                self.address = address
                self.data = data
                self.rssi = rssi
            }

            /// The RSSI in dBm, or `nil` when the controller reported it as not available.
            public var availableRSSI: Int8? { rssi == LEAdvertisingReport.rssiNotAvailable ? nil : rssi }
        }

        /// The reports, in the order received (Num_Reports is 0x01–0x19).
        public var reports: [Report]

        /// An event carrying `reports`.
        public init(reports: [Report]) { self.reports = reports }

        public init(from reader: inout ByteReader) throws(WireError) {
            let count = Int(try reader.readUInt8("HCI.LEAdvertisingReport.numReports"))
            // Each report is at least 10 octets; refuse an impossible count before allocating.
            try reader.require(count * 10, "HCI.LEAdvertisingReport.reports")
            var reports: [Report] = []
            reports.reserveCapacity(count)
            for _ in 0 ..< count {
                let eventType = try reader.readEventEnumeration(EventType.self, "HCI.LEAdvertisingReport.eventType")
                let addressType = try AddressType(from: &reader, field: "HCI.LEAdvertisingReport.addressType")
                let address = try reader.readEventAddress(type: addressType, "HCI.LEAdvertisingReport.address")
                // The specification caps Data_Length at 31, but controllers exist that pass
                // longer legacy data through (Bumble 0.0.236 reports 33 octets when its host
                // sets them). The report is kept rather than dropped: the length is still
                // checked against the octets present, so nothing is read past the event.
                let length = try reader.readUInt8("HCI.LEAdvertisingReport.dataLength")
                let data = try reader.readBytes(Int(length), "HCI.LEAdvertisingReport.data")
                let rssi = try reader.readInt8("HCI.LEAdvertisingReport.rssi")
                reports.append(Report(eventType: eventType, addressType: addressType, address: address, data: data, rssi: rssi))
            }
            self.reports = reports
        }

        /// Appends Num_Reports and the reports. Data over 255 octets and reports beyond 255
        /// (only possible when built by hand) are cut so every length field stays true.
        public func encode(to writer: inout ByteWriter) {
            let count = min(reports.count, Int(UInt8.max))
            writer.write(UInt8(count))
            for report in reports.prefix(count) {
                writer.write(report.eventType.rawValue)
                writer.write(report.addressType.rawValue)
                report.address.encode(to: &writer)
                let data = report.data.prefix(Int(UInt8.max))
                writer.write(UInt8(data.count))
                writer.write(contentsOf: data)
                writer.write(report.rssi)
            }
        }
    }

    /// LE Directed Advertising Report event (Core 5.4, Vol 4, Part E, §7.7.65.11):
    /// ADV_DIRECT_IND PDUs addressed to a resolvable private address the controller could
    /// not resolve, reported when the scanning filter policy asks for them.
    ///
    /// Reports are interleaved per report on the wire (§5.2), like the advertising report.
    public struct LEDirectedAdvertisingReport: HCILEMetaEvent {
        /// Subevent code 0x0B.
        public static let subeventCode = LESubeventCode.directedAdvertisingReport

        /// One received directed advertisement.
        public struct Report: Hashable, Sendable {
            /// The PDU type (ADV_DIRECT_IND, 0x01, in every report the specification allows).
            public var eventType: LEAdvertisingReport.EventType
            /// The advertiser's address type; ``address``'s kind follows it.
            public var addressType: AddressType
            /// The advertiser's address.
            public var address: BluetoothAddress
            /// The kind of TargetA address the PDU was directed to.
            public var directAddressType: DirectAddressType
            /// The TargetA address (a random address the controller could not resolve).
            public var directAddress: BluetoothAddress
            /// Received signal strength in dBm (−127 to +20), or 127 if not available.
            public var rssi: Int8

            /// A report with every field given.
            public init(
                eventType: LEAdvertisingReport.EventType, addressType: AddressType, address: BluetoothAddress,
                directAddressType: DirectAddressType, directAddress: BluetoothAddress, rssi: Int8
            ) {
                self.eventType = eventType
                self.addressType = addressType
                self.address = address
                self.directAddressType = directAddressType
                self.directAddress = directAddress
                self.rssi = rssi
            }
        }

        /// The reports, in the order received.
        public var reports: [Report]

        /// An event carrying `reports`.
        public init(reports: [Report]) { self.reports = reports }

        public init(from reader: inout ByteReader) throws(WireError) {
            let count = Int(try reader.readUInt8("HCI.LEDirectedAdvertisingReport.numReports"))
            try reader.require(count * 16, "HCI.LEDirectedAdvertisingReport.reports")
            var reports: [Report] = []
            reports.reserveCapacity(count)
            for _ in 0 ..< count {
                let eventType = try reader.readEventEnumeration(
                    LEAdvertisingReport.EventType.self, "HCI.LEDirectedAdvertisingReport.eventType")
                let addressType = try AddressType(from: &reader, field: "HCI.LEDirectedAdvertisingReport.addressType")
                let address = try reader.readEventAddress(type: addressType, "HCI.LEDirectedAdvertisingReport.address")
                let directType = try reader.readEventEnumeration(
                    DirectAddressType.self, "HCI.LEDirectedAdvertisingReport.directAddressType")
                let direct = try BluetoothAddress(
                    from: &reader, kind: directType.addressKind, field: "HCI.LEDirectedAdvertisingReport.directAddress")
                let rssi = try reader.readInt8("HCI.LEDirectedAdvertisingReport.rssi")
                reports.append(Report(
                    eventType: eventType, addressType: addressType, address: address,
                    directAddressType: directType, directAddress: direct, rssi: rssi))
            }
            self.reports = reports
        }

        /// Appends Num_Reports and the reports (at most 255; more are cut).
        public func encode(to writer: inout ByteWriter) {
            let count = min(reports.count, Int(UInt8.max))
            writer.write(UInt8(count))
            for report in reports.prefix(count) {
                writer.write(report.eventType.rawValue)
                writer.write(report.addressType.rawValue)
                report.address.encode(to: &writer)
                writer.write(report.directAddressType.rawValue)
                report.directAddress.encode(to: &writer)
                writer.write(report.rssi)
            }
        }
    }
}

extension HCI.DirectAddressType {
    /// The kind of the 48-bit address this type accompanies.
    public var addressKind: BluetoothAddress.Kind {
        switch self {
        case .public, .publicIdentity: return .public
        case .random, .randomIdentity, .unresolvedRandom: return .random
        }
    }
}
