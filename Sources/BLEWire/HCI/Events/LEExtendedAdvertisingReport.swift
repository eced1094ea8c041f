extension HCI {
    /// LE Extended Advertising Report event (Core 5.4, Vol 4, Part E, §7.7.65.13): legacy
    /// and extended advertising PDUs received while scanning with the extended commands.
    ///
    /// Reports are interleaved per report on the wire (§5.2). Long advertising data arrives
    /// in several reports, each marked by ``EventType/dataStatus``; joining them is the
    /// scanner's job, not the wire format's.
    public struct LEExtendedAdvertisingReport: HCILEMetaEvent {
        /// Subevent code 0x0D.
        public static let subeventCode = LESubeventCode.extendedAdvertisingReport
        /// The most data one report carries (so a single report fits an event).
        public static let maximumDataLength = 229
        /// The TX power and RSSI value that means "not available".
        public static let notAvailable: Int8 = 127
        /// The Advertising_SID value that means "no ADI field in the PDU".
        public static let noAdvertisingSID: UInt8 = 0xFF

        /// The Event_Type bit field (§7.7.65.13). Reserved bits 7–15 are kept as received so
        /// decoding and encoding round-trip; the receiver ignores them.
        public struct EventType: RawRepresentable, Hashable, Sendable {
            /// Whether the data is complete or more reports follow (bits 5–6).
            public enum DataStatus: UInt16, Hashable, Sendable, CaseIterable {
                /// The data is complete.
                case complete = 0b00
                /// Incomplete; more reports with the rest will follow.
                case incompleteMoreToCome = 0b01
                /// Incomplete and truncated; no more reports will follow.
                case incompleteTruncated = 0b10
            }

            /// The 16 bits as on the wire.
            public let rawValue: UInt16

            /// An event type from its 16 bits (data status 0b11 is reserved; decoding rejects it).
            public init(rawValue: UInt16) { self.rawValue = rawValue }

            /// An event type from its flags.
            public init(
                connectable: Bool = false, scannable: Bool = false, directed: Bool = false,
                scanResponse: Bool = false, legacy: Bool = false, dataStatus: DataStatus = .complete
            ) {
                var raw: UInt16 = dataStatus.rawValue << 5
                if connectable { raw |= 1 << 0 }
                if scannable { raw |= 1 << 1 }
                if directed { raw |= 1 << 2 }
                if scanResponse { raw |= 1 << 3 }
                if legacy { raw |= 1 << 4 }
                rawValue = raw
            }

            /// Bit 0: connectable advertising.
            public var isConnectable: Bool { rawValue & 0x0001 != 0 }
            /// Bit 1: scannable advertising.
            public var isScannable: Bool { rawValue & 0x0002 != 0 }
            /// Bit 2: directed advertising.
            public var isDirected: Bool { rawValue & 0x0004 != 0 }
            /// Bit 3: a scan response.
            public var isScanResponse: Bool { rawValue & 0x0008 != 0 }
            /// Bit 4: a legacy advertising PDU.
            public var isLegacy: Bool { rawValue & 0x0010 != 0 }
            /// Bits 5–6; `nil` for the reserved value 0b11.
            public var dataStatus: DataStatus? { DataStatus(rawValue: (rawValue >> 5) & 0b11) }
        }

        /// One received advertising PDU (or a fragment of its data).
        public struct Report: Hashable, Sendable {
            /// What kind of PDU it was and whether the data is complete.
            public var eventType: EventType
            /// The advertiser's address type (0xFF: anonymous); ``address``'s kind follows it.
            public var addressType: AddressType
            /// The advertiser's address (zero when anonymous).
            public var address: BluetoothAddress
            /// The PHY of the primary advertising channel (LE 1M or LE Coded).
            public var primaryPHY: PHY
            /// The PHY of the secondary channel, or `nil` (0x00) when nothing was received there.
            public var secondaryPHY: PHY?
            /// Advertising_SID 0x00–0x0F, or 0xFF when the PDU had no ADI.
            public var advertisingSID: UInt8
            /// The advertiser's TX power in dBm (−127 to +20), or 127 if not available.
            public var txPower: Int8
            /// Received signal strength in dBm (−127 to +20), or 127 if not available.
            public var rssi: Int8
            /// Periodic advertising interval in units of 1.25 ms, or 0 for none.
            public var periodicAdvertisingInterval: UInt16
            /// The kind of TargetA address of a directed PDU (0x00 otherwise).
            public var directAddressType: DirectAddressType
            /// The TargetA address of a directed PDU (zero otherwise).
            public var directAddress: BluetoothAddress
            /// The advertising data (or a fragment of it), at most 229 octets.
            public var data: ArraySlice<UInt8>

            /// A report with every field given.
            public init(
                eventType: EventType, addressType: AddressType, address: BluetoothAddress,
                primaryPHY: PHY, secondaryPHY: PHY?, advertisingSID: UInt8, txPower: Int8, rssi: Int8,
                periodicAdvertisingInterval: UInt16, directAddressType: DirectAddressType,
                directAddress: BluetoothAddress, data: ArraySlice<UInt8>
            ) {
                self.eventType = eventType
                self.addressType = addressType
                self.address = address
                self.primaryPHY = primaryPHY
                self.secondaryPHY = secondaryPHY
                self.advertisingSID = advertisingSID
                self.txPower = txPower
                self.rssi = rssi
                self.periodicAdvertisingInterval = periodicAdvertisingInterval
                self.directAddressType = directAddressType
                self.directAddress = directAddress
                self.data = data
            }

            /// The RSSI in dBm, or `nil` when not available.
            public var availableRSSI: Int8? { rssi == LEExtendedAdvertisingReport.notAvailable ? nil : rssi }
            /// The TX power in dBm, or `nil` when not available.
            public var availableTxPower: Int8? { txPower == LEExtendedAdvertisingReport.notAvailable ? nil : txPower }

            init(from reader: inout ByteReader) throws(WireError) {
                eventType = EventType(rawValue: try reader.readUInt16("HCI.LEExtendedAdvertisingReport.eventType"))
                guard eventType.dataStatus != nil else {
                    throw WireError(field: "HCI.LEExtendedAdvertisingReport.eventType", reason: .invalidValue(UInt64(eventType.rawValue)))
                }
                addressType = try AddressType(from: &reader, field: "HCI.LEExtendedAdvertisingReport.addressType")
                address = try reader.readEventAddress(type: addressType, "HCI.LEExtendedAdvertisingReport.address")
                primaryPHY = try reader.readEventEnumeration(PHY.self, "HCI.LEExtendedAdvertisingReport.primaryPHY")
                guard primaryPHY != .le2M else {
                    throw WireError(field: "HCI.LEExtendedAdvertisingReport.primaryPHY", reason: .invalidValue(UInt64(PHY.le2M.rawValue)))
                }
                let secondary = try reader.readUInt8("HCI.LEExtendedAdvertisingReport.secondaryPHY")
                if secondary == 0 {
                    secondaryPHY = nil
                } else if let phy = PHY(rawValue: secondary) {
                    secondaryPHY = phy
                } else {
                    throw WireError(field: "HCI.LEExtendedAdvertisingReport.secondaryPHY", reason: .invalidValue(UInt64(secondary)))
                }
                advertisingSID = try reader.readUInt8("HCI.LEExtendedAdvertisingReport.advertisingSID")
                guard advertisingSID <= 0x0F || advertisingSID == LEExtendedAdvertisingReport.noAdvertisingSID else {
                    throw WireError(field: "HCI.LEExtendedAdvertisingReport.advertisingSID", reason: .invalidValue(UInt64(advertisingSID)))
                }
                txPower = try reader.readInt8("HCI.LEExtendedAdvertisingReport.txPower")
                rssi = try reader.readInt8("HCI.LEExtendedAdvertisingReport.rssi")
                periodicAdvertisingInterval = try reader.readUInt16("HCI.LEExtendedAdvertisingReport.periodicAdvertisingInterval")
                directAddressType = try reader.readEventEnumeration(
                    DirectAddressType.self, "HCI.LEExtendedAdvertisingReport.directAddressType")
                directAddress = try BluetoothAddress(
                    from: &reader, kind: directAddressType.addressKind, field: "HCI.LEExtendedAdvertisingReport.directAddress")
                let length = try reader.readUInt8("HCI.LEExtendedAdvertisingReport.dataLength")
                guard Int(length) <= LEExtendedAdvertisingReport.maximumDataLength else {
                    throw WireError(field: "HCI.LEExtendedAdvertisingReport.dataLength", reason: .invalidValue(UInt64(length)))
                }
                data = try reader.readBytes(Int(length), "HCI.LEExtendedAdvertisingReport.data")
            }

            func encode(to writer: inout ByteWriter) {
                writer.write(eventType.rawValue)
                writer.write(addressType.rawValue)
                address.encode(to: &writer)
                writer.write(primaryPHY.rawValue)
                writer.write(secondaryPHY?.rawValue ?? 0)
                writer.write(advertisingSID)
                writer.write(txPower)
                writer.write(rssi)
                writer.write(periodicAdvertisingInterval)
                writer.write(directAddressType.rawValue)
                directAddress.encode(to: &writer)
                let kept = data.prefix(LEExtendedAdvertisingReport.maximumDataLength)
                writer.write(UInt8(kept.count))
                writer.write(contentsOf: kept)
            }
        }

        /// The reports, in the order received (Num_Reports is 0x01–0x0A).
        public var reports: [Report]

        /// An event carrying `reports`.
        public init(reports: [Report]) { self.reports = reports }

        public init(from reader: inout ByteReader) throws(WireError) {
            let count = Int(try reader.readUInt8("HCI.LEExtendedAdvertisingReport.numReports"))
            // Each report is at least 24 octets; refuse an impossible count before allocating.
            try reader.require(count * 24, "HCI.LEExtendedAdvertisingReport.reports")
            var reports: [Report] = []
            reports.reserveCapacity(count)
            for _ in 0 ..< count {
                reports.append(try Report(from: &reader))
            }
            self.reports = reports
        }

        /// Appends Num_Reports and the reports. Data over 229 octets and reports beyond 255
        /// (only possible when built by hand) are cut so every length field stays true.
        public func encode(to writer: inout ByteWriter) {
            let count = min(reports.count, Int(UInt8.max))
            writer.write(UInt8(count))
            for report in reports.prefix(count) {
                report.encode(to: &writer)
            }
        }
    }
}
