extension HCI {
    /// HCI_LE_Read_Filter_Accept_List_Size (Core 5.4, Vol 4, Part E, §7.8.14): how many
    /// entries the Filter Accept List can hold.
    public struct LEReadFilterAcceptListSize: ParameterlessCommand {
        /// The command's opcode, ``HCI/Opcode/leReadFilterAcceptListSize``.
        public static let opcode = Opcode.leReadFilterAcceptListSize
        /// The command (it has no parameters).
        public init() {}

        /// The Command Complete return parameters.
        public struct ReturnParameters: WireCodable, Hashable {
            // Codec: generated from the stored properties below.
            /// Whether the command succeeded.
            public var status: StatusCode
            /// Filter_Accept_List_Size: entries the list can hold.
            public var filterAcceptListSize: UInt8

            /// Return parameters with every field.
            public init(status: StatusCode, filterAcceptListSize: UInt8) {
                self.status = status
                self.filterAcceptListSize = filterAcceptListSize
            }
        }
    }

    /// HCI_LE_Clear_Filter_Accept_List (Core 5.4, Vol 4, Part E, §7.8.15): empties the
    /// Filter Accept List.
    public struct LEClearFilterAcceptList: ParameterlessCommand {
        /// The command's opcode, ``HCI/Opcode/leClearFilterAcceptList``.
        public static let opcode = Opcode.leClearFilterAcceptList
        /// The command (it has no parameters).
        public init() {}
    }

    /// HCI_LE_Add_Device_To_Filter_Accept_List (Core 5.4, Vol 4, Part E, §7.8.16): adds a
    /// device, or all anonymous advertisers, to the Filter Accept List.
    public struct LEAddDeviceToFilterAcceptList: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leAddDeviceToFilterAcceptList``.
        public static let opcode = Opcode.leAddDeviceToFilterAcceptList

        /// Address_Type: public, random or anonymous (the identity types are reserved here).
        public var addressType: AddressType
        /// Address; ignored by the controller for anonymous. Decoding sets its kind from
        /// `addressType`.
        public var address: BluetoothAddress

        /// The command adding `address`.
        public init(addressType: AddressType, address: BluetoothAddress) {
            self.addressType = addressType
            self.address = address
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            (addressType, address) = try readFilterAcceptListEntry(&reader, type: "HCI.LEAddDeviceToFilterAcceptList")
        }

        public func encode(to writer: inout ByteWriter) {
            writer.write(addressType.rawValue)
            address.encode(to: &writer)
        }
    }

    /// HCI_LE_Remove_Device_From_Filter_Accept_List (Core 5.4, Vol 4, Part E, §7.8.17):
    /// removes a device from the Filter Accept List.
    public struct LERemoveDeviceFromFilterAcceptList: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leRemoveDeviceFromFilterAcceptList``.
        public static let opcode = Opcode.leRemoveDeviceFromFilterAcceptList

        /// Address_Type: public, random or anonymous (the identity types are reserved here).
        public var addressType: AddressType
        /// Address; decoding sets its kind from `addressType`.
        public var address: BluetoothAddress

        /// The command removing `address`.
        public init(addressType: AddressType, address: BluetoothAddress) {
            self.addressType = addressType
            self.address = address
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            (addressType, address) = try readFilterAcceptListEntry(&reader, type: "HCI.LERemoveDeviceFromFilterAcceptList")
        }

        public func encode(to writer: inout ByteWriter) {
            writer.write(addressType.rawValue)
            address.encode(to: &writer)
        }
    }

    /// HCI_LE_Set_Host_Channel_Classification (Core 5.4, Vol 4, Part E, §7.8.19): tells the
    /// controller which data channels the host knows to be bad (bit clear = bad).
    public struct LESetHostChannelClassification: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leSetHostChannelClassification``.
        public static let opcode = Opcode.leSetHostChannelClassification

        // Codec: generated from the stored properties below.
        /// Channel_Map: 37 channel bits in five octets.
        public var channelMap: LEChannelMap

        /// The command with `channelMap`.
        public init(channelMap: LEChannelMap) { self.channelMap = channelMap }
    }

    /// HCI_LE_Read_Channel_Map (Core 5.4, Vol 4, Part E, §7.8.20): the data channels a
    /// connection currently uses.
    public struct LEReadChannelMap: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leReadChannelMap``.
        public static let opcode = Opcode.leReadChannelMap

        // Codec: generated from the stored properties below.
        /// The connection to read.
        public var connectionHandle: UInt16

        /// The command reading `connectionHandle`'s map.
        public init(connectionHandle: UInt16) { self.connectionHandle = connectionHandle }

        /// The Command Complete return parameters.
        public struct ReturnParameters: WireCodable, Hashable {
            // Codec: generated from the stored properties below.
            /// Whether the command succeeded.
            public var status: StatusCode
            /// The connection that was read.
            public var connectionHandle: UInt16
            /// The channels in use.
            public var channelMap: LEChannelMap

            /// Return parameters with every field.
            public init(status: StatusCode, connectionHandle: UInt16, channelMap: LEChannelMap) {
                self.status = status
                self.connectionHandle = connectionHandle
                self.channelMap = channelMap
            }
        }
    }
}

/// Reads a Filter Accept List Address_Type (0x00, 0x01 or 0xFF) and the address.
private func readFilterAcceptListEntry(
    _ reader: inout ByteReader, type: String
) throws(WireError) -> (HCI.AddressType, BluetoothAddress) {
    let addressType = try HCI.AddressType(from: &reader, field: type + ".addressType")
    switch addressType {
    case .public, .random, .anonymous: break
    case .publicIdentity, .randomIdentity:
        throw WireError(field: type + ".addressType", reason: .invalidValue(UInt64(addressType.rawValue)))
    }
    return (addressType, try BluetoothAddress(from: &reader, kind: addressType.addressKind, field: type + ".address"))
}
