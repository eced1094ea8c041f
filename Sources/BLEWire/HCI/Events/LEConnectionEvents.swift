extension HCI {
    /// LE Connection Complete event (Core 5.4, Vol 4, Part E, §7.7.65.1): a connection was
    /// created (or creating one failed), on either role.
    ///
    /// Timing parameters are raw integers in the specification's units.
    public struct LEConnectionComplete: HCILEMetaEvent {
        /// Subevent code 0x01.
        public static let subeventCode = LESubeventCode.connectionComplete

        /// Whether the connection was created.
        public var status: StatusCode
        /// The new connection's handle (0x0000–0x0EFF).
        public var connectionHandle: UInt16
        /// Which end of the link the local device is.
        public var role: Role
        /// The peer's address type; ``peerAddress``'s kind follows it.
        public var peerAddressType: AddressType
        /// The peer's address.
        public var peerAddress: BluetoothAddress
        /// Connection interval in units of 1.25 ms (0x0006–0x0C80: 7.5 ms–4 s).
        public var connectionInterval: UInt16
        /// Peripheral latency in connection events (0x0000–0x01F3).
        public var peripheralLatency: UInt16
        /// Supervision timeout in units of 10 ms (0x000A–0x0C80: 100 ms–32 s).
        public var supervisionTimeout: UInt16
        /// The central's sleep clock accuracy (meaningful to a peripheral only).
        public var centralClockAccuracy: ClockAccuracy

        /// An event with every field given.
        public init(
            status: StatusCode, connectionHandle: UInt16, role: Role, peerAddressType: AddressType,
            peerAddress: BluetoothAddress, connectionInterval: UInt16, peripheralLatency: UInt16,
            supervisionTimeout: UInt16, centralClockAccuracy: ClockAccuracy
        ) {
            self.status = status
            self.connectionHandle = connectionHandle
            self.role = role
            self.peerAddressType = peerAddressType
            self.peerAddress = peerAddress
            self.connectionInterval = connectionInterval
            self.peripheralLatency = peripheralLatency
            self.supervisionTimeout = supervisionTimeout
            self.centralClockAccuracy = centralClockAccuracy
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            status = try StatusCode(from: &reader, field: "HCI.LEConnectionComplete.status")
            connectionHandle = try reader.readEventConnectionHandle("HCI.LEConnectionComplete.connectionHandle")
            role = try reader.readEventEnumeration(Role.self, "HCI.LEConnectionComplete.role")
            peerAddressType = try AddressType(from: &reader, field: "HCI.LEConnectionComplete.peerAddressType")
            peerAddress = try reader.readEventAddress(type: peerAddressType, "HCI.LEConnectionComplete.peerAddress")
            connectionInterval = try reader.readUInt16("HCI.LEConnectionComplete.connectionInterval")
            peripheralLatency = try reader.readUInt16("HCI.LEConnectionComplete.peripheralLatency")
            supervisionTimeout = try reader.readUInt16("HCI.LEConnectionComplete.supervisionTimeout")
            centralClockAccuracy = try reader.readEventEnumeration(
                ClockAccuracy.self, "HCI.LEConnectionComplete.centralClockAccuracy")
        }

        public func encode(to writer: inout ByteWriter) {
            status.encode(to: &writer)
            writer.write(connectionHandle)
            writer.write(role.rawValue)
            writer.write(peerAddressType.rawValue)
            peerAddress.encode(to: &writer)
            writer.write(connectionInterval)
            writer.write(peripheralLatency)
            writer.write(supervisionTimeout)
            writer.write(centralClockAccuracy.rawValue)
        }
    }

    /// LE Enhanced Connection Complete [v1] event (Core 5.4, Vol 4, Part E, §7.7.65.10):
    /// LE Connection Complete plus the resolvable private addresses used on each side, sent
    /// instead of it when address resolution may be involved.
    public struct LEEnhancedConnectionComplete: HCILEMetaEvent {
        /// Subevent code 0x0A.
        public static let subeventCode = LESubeventCode.enhancedConnectionComplete

        /// Whether the connection was created.
        public var status: StatusCode
        /// The new connection's handle (0x0000–0x0EFF).
        public var connectionHandle: UInt16
        /// Which end of the link the local device is.
        public var role: Role
        /// The peer's address type (0x02/0x03 when resolved to an identity); ``peerAddress``'s
        /// kind follows it.
        public var peerAddressType: AddressType
        /// The peer's address (its identity address when resolved).
        public var peerAddress: BluetoothAddress
        /// The resolvable private address the local device used, or all zeros if none.
        public var localResolvablePrivateAddress: BluetoothAddress
        /// The resolvable private address the peer used, or all zeros if none.
        public var peerResolvablePrivateAddress: BluetoothAddress
        /// Connection interval in units of 1.25 ms.
        public var connectionInterval: UInt16
        /// Peripheral latency in connection events.
        public var peripheralLatency: UInt16
        /// Supervision timeout in units of 10 ms.
        public var supervisionTimeout: UInt16
        /// The central's sleep clock accuracy (meaningful to a peripheral only).
        public var centralClockAccuracy: ClockAccuracy

        /// An event with every field given.
        public init(
            status: StatusCode, connectionHandle: UInt16, role: Role, peerAddressType: AddressType,
            peerAddress: BluetoothAddress, localResolvablePrivateAddress: BluetoothAddress,
            peerResolvablePrivateAddress: BluetoothAddress, connectionInterval: UInt16,
            peripheralLatency: UInt16, supervisionTimeout: UInt16, centralClockAccuracy: ClockAccuracy
        ) {
            self.status = status
            self.connectionHandle = connectionHandle
            self.role = role
            self.peerAddressType = peerAddressType
            self.peerAddress = peerAddress
            self.localResolvablePrivateAddress = localResolvablePrivateAddress
            self.peerResolvablePrivateAddress = peerResolvablePrivateAddress
            self.connectionInterval = connectionInterval
            self.peripheralLatency = peripheralLatency
            self.supervisionTimeout = supervisionTimeout
            self.centralClockAccuracy = centralClockAccuracy
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            try self.init(from: &reader, name: "HCI.LEEnhancedConnectionComplete")
        }

        /// Decodes the fields v1 and v2 share, naming errors after `name`.
        init(from reader: inout ByteReader, name: StaticString) throws(WireError) {
            status = try StatusCode(from: &reader, field: "\(name).status")
            connectionHandle = try reader.readEventConnectionHandle("\(name).connectionHandle")
            role = try reader.readEventEnumeration(Role.self, "\(name).role")
            peerAddressType = try AddressType(from: &reader, field: "\(name).peerAddressType")
            peerAddress = try reader.readEventAddress(type: peerAddressType, "\(name).peerAddress")
            localResolvablePrivateAddress = try BluetoothAddress(
                from: &reader, kind: .random, field: "\(name).localResolvablePrivateAddress")
            peerResolvablePrivateAddress = try BluetoothAddress(
                from: &reader, kind: .random, field: "\(name).peerResolvablePrivateAddress")
            connectionInterval = try reader.readUInt16("\(name).connectionInterval")
            peripheralLatency = try reader.readUInt16("\(name).peripheralLatency")
            supervisionTimeout = try reader.readUInt16("\(name).supervisionTimeout")
            centralClockAccuracy = try reader.readEventEnumeration(ClockAccuracy.self, "\(name).centralClockAccuracy")
        }

        public func encode(to writer: inout ByteWriter) {
            status.encode(to: &writer)
            writer.write(connectionHandle)
            writer.write(role.rawValue)
            writer.write(peerAddressType.rawValue)
            peerAddress.encode(to: &writer)
            localResolvablePrivateAddress.encode(to: &writer)
            peerResolvablePrivateAddress.encode(to: &writer)
            writer.write(connectionInterval)
            writer.write(peripheralLatency)
            writer.write(supervisionTimeout)
            writer.write(centralClockAccuracy.rawValue)
        }
    }

    /// LE Enhanced Connection Complete [v2] event (Core 5.4, Vol 4, Part E, §7.7.65.10):
    /// v1 plus the advertising set and periodic sync the connection came from.
    public struct LEEnhancedConnectionCompleteV2: HCILEMetaEvent {
        /// Subevent code 0x29.
        public static let subeventCode = LESubeventCode.enhancedConnectionCompleteV2

        /// The fields shared with v1.
        public var connection: LEEnhancedConnectionComplete
        /// The advertising set that was connected to, or 0xFF if not applicable.
        public var advertisingHandle: UInt8
        /// The periodic advertising sync the connection came from (PAwR), or 0xFFFF.
        public var syncHandle: UInt16

        /// An event with every field given.
        public init(connection: LEEnhancedConnectionComplete, advertisingHandle: UInt8, syncHandle: UInt16) {
            self.connection = connection
            self.advertisingHandle = advertisingHandle
            self.syncHandle = syncHandle
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            connection = try LEEnhancedConnectionComplete(from: &reader, name: "HCI.LEEnhancedConnectionCompleteV2")
            advertisingHandle = try reader.readUInt8("HCI.LEEnhancedConnectionCompleteV2.advertisingHandle")
            syncHandle = try reader.readUInt16("HCI.LEEnhancedConnectionCompleteV2.syncHandle")
        }

        public func encode(to writer: inout ByteWriter) {
            connection.encode(to: &writer)
            writer.write(advertisingHandle)
            writer.write(syncHandle)
        }
    }
}
