extension HCI {
    /// LE Scan Timeout event (Core 5.4, Vol 4, Part E, §7.7.65.17): extended scanning with
    /// a duration has ended. It has no parameters.
    public struct LEScanTimeout: HCILEMetaEvent {
        /// Subevent code 0x11.
        public static let subeventCode = LESubeventCode.scanTimeout

        /// The event (it carries nothing).
        public init() {}

        public init(from reader: inout ByteReader) throws(WireError) {}

        public func encode(to writer: inout ByteWriter) {}
    }

    /// LE Advertising Set Terminated event (Core 5.4, Vol 4, Part E, §7.7.65.18): an
    /// extended advertising set stopped because a connection was made, its duration ran
    /// out or it reached its maximum number of events.
    public struct LEAdvertisingSetTerminated: HCILEMetaEvent {
        /// Subevent code 0x12.
        public static let subeventCode = LESubeventCode.advertisingSetTerminated

        /// Success when a connection ended advertising; otherwise why it stopped, e.g.
        /// Advertising Timeout (0x3C) or Limit Reached (0x43).
        public var status: StatusCode
        /// The advertising set that stopped (0x00–0xEF).
        public var advertisingHandle: UInt8
        /// The connection that was created; only meaningful when `status` is Success.
        ///
        /// Kept as received (not range-checked), because the specification leaves its value
        /// undefined when no connection was made.
        public var connectionHandle: UInt16
        /// Num_Completed_Extended_Advertising_Events: how many advertising events were sent.
        public var numCompletedExtendedAdvertisingEvents: UInt8

        /// An event with every field given.
        public init(status: StatusCode, advertisingHandle: UInt8, connectionHandle: UInt16, numCompletedExtendedAdvertisingEvents: UInt8) {
            self.status = status
            self.advertisingHandle = advertisingHandle
            self.connectionHandle = connectionHandle
            self.numCompletedExtendedAdvertisingEvents = numCompletedExtendedAdvertisingEvents
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            status = try StatusCode(from: &reader, field: "HCI.LEAdvertisingSetTerminated.status")
            advertisingHandle = try reader.readUInt8("HCI.LEAdvertisingSetTerminated.advertisingHandle")
            connectionHandle = try reader.readUInt16("HCI.LEAdvertisingSetTerminated.connectionHandle")
            numCompletedExtendedAdvertisingEvents = try reader.readUInt8(
                "HCI.LEAdvertisingSetTerminated.numCompletedExtendedAdvertisingEvents")
        }

        public func encode(to writer: inout ByteWriter) {
            status.encode(to: &writer)
            writer.write(advertisingHandle)
            writer.write(connectionHandle)
            writer.write(numCompletedExtendedAdvertisingEvents)
        }
    }

    /// LE Scan Request Received event (Core 5.4, Vol 4, Part E, §7.7.65.19): an advertising
    /// set with scan request notifications enabled received a scan request.
    public struct LEScanRequestReceived: HCILEMetaEvent {
        /// Subevent code 0x13.
        public static let subeventCode = LESubeventCode.scanRequestReceived

        /// The advertising set that was scanned (0x00–0xEF).
        public var advertisingHandle: UInt8
        /// The scanner's address type; ``scannerAddress``'s kind follows it.
        public var scannerAddressType: AddressType
        /// The scanner's address.
        public var scannerAddress: BluetoothAddress

        /// An event with every field given.
        public init(advertisingHandle: UInt8, scannerAddressType: AddressType, scannerAddress: BluetoothAddress) {
            self.advertisingHandle = advertisingHandle
            self.scannerAddressType = scannerAddressType
            self.scannerAddress = scannerAddress
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            advertisingHandle = try reader.readUInt8("HCI.LEScanRequestReceived.advertisingHandle")
            scannerAddressType = try AddressType(from: &reader, field: "HCI.LEScanRequestReceived.scannerAddressType")
            scannerAddress = try reader.readEventAddress(type: scannerAddressType, "HCI.LEScanRequestReceived.scannerAddress")
        }

        public func encode(to writer: inout ByteWriter) {
            writer.write(advertisingHandle)
            writer.write(scannerAddressType.rawValue)
            scannerAddress.encode(to: &writer)
        }
    }
}
