extension HCI {
    /// HCI_LE_Add_Device_To_Resolving_List (Core 5.4, Vol 4, Part E, §7.8.38): lets the
    /// controller resolve a peer's private addresses and generate local ones for it.
    public struct LEAddDeviceToResolvingList: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leAddDeviceToResolvingList``.
        public static let opcode = Opcode.leAddDeviceToResolvingList

        // Codec: generated from the stored properties below.
        /// Peer_Identity_Address_Type and Peer_Identity_Address, public or random (static).
        public var peerIdentityAddress: BluetoothAddress
        /// Peer_IRK, most significant octet first as written in the specification.
        public var peerIRK: UInt128
        /// Local_IRK, most significant octet first as written in the specification.
        public var localIRK: UInt128

        /// The command adding the peer with both IRKs.
        public init(peerIdentityAddress: BluetoothAddress, peerIRK: UInt128, localIRK: UInt128) {
            self.peerIdentityAddress = peerIdentityAddress
            self.peerIRK = peerIRK
            self.localIRK = localIRK
        }
    }

    /// HCI_LE_Remove_Device_From_Resolving_List (Core 5.4, Vol 4, Part E, §7.8.39): removes a
    /// peer from the resolving list.
    public struct LERemoveDeviceFromResolvingList: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leRemoveDeviceFromResolvingList``.
        public static let opcode = Opcode.leRemoveDeviceFromResolvingList

        // Codec: generated from the stored properties below.
        /// The peer's identity address, public or random (static).
        public var peerIdentityAddress: BluetoothAddress

        /// The command removing `peerIdentityAddress`.
        public init(peerIdentityAddress: BluetoothAddress) { self.peerIdentityAddress = peerIdentityAddress }
    }

    /// HCI_LE_Clear_Resolving_List (Core 5.4, Vol 4, Part E, §7.8.40): empties the resolving
    /// list.
    public struct LEClearResolvingList: ParameterlessCommand {
        /// The command's opcode, ``HCI/Opcode/leClearResolvingList``.
        public static let opcode = Opcode.leClearResolvingList
        /// The command (it has no parameters).
        public init() {}
    }

    /// HCI_LE_Read_Resolving_List_Size (Core 5.4, Vol 4, Part E, §7.8.41): how many entries
    /// the resolving list can hold.
    public struct LEReadResolvingListSize: ParameterlessCommand {
        /// The command's opcode, ``HCI/Opcode/leReadResolvingListSize``.
        public static let opcode = Opcode.leReadResolvingListSize
        /// The command (it has no parameters).
        public init() {}

        /// The Command Complete return parameters.
        public struct ReturnParameters: WireCodable, Hashable {
            // Codec: generated from the stored properties below.
            /// Whether the command succeeded.
            public var status: StatusCode
            /// Resolving_List_Size: entries the list can hold.
            public var resolvingListSize: UInt8

            /// Return parameters with every field.
            public init(status: StatusCode, resolvingListSize: UInt8) {
                self.status = status
                self.resolvingListSize = resolvingListSize
            }
        }
    }

    /// HCI_LE_Read_Peer_Resolvable_Address (Core 5.4, Vol 4, Part E, §7.8.42): the private
    /// address the controller last saw a resolving-list peer use.
    public struct LEReadPeerResolvableAddress: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leReadPeerResolvableAddress``.
        public static let opcode = Opcode.leReadPeerResolvableAddress

        // Codec: generated from the stored properties below.
        /// The peer's identity address, public or random (static).
        public var peerIdentityAddress: BluetoothAddress

        /// The command for `peerIdentityAddress`.
        public init(peerIdentityAddress: BluetoothAddress) { self.peerIdentityAddress = peerIdentityAddress }

        /// The Command Complete return parameters.
        public struct ReturnParameters: WireCodable, Hashable {
            /// Whether the command succeeded.
            public var status: StatusCode
            /// Peer_Resolvable_Address; decoding gives it the random kind.
            public var peerResolvableAddress: BluetoothAddress

            /// Return parameters with every field.
            public init(status: StatusCode, peerResolvableAddress: BluetoothAddress) {
                self.status = status
                self.peerResolvableAddress = peerResolvableAddress
            }

            public init(from reader: inout ByteReader) throws(WireError) {
                status = try StatusCode(from: &reader, field: "HCI.LEReadPeerResolvableAddress.status")
                peerResolvableAddress = try BluetoothAddress(
                    from: &reader, kind: .random, field: "HCI.LEReadPeerResolvableAddress.peerResolvableAddress")
            }

            public func encode(to writer: inout ByteWriter) {
                status.encode(to: &writer)
                peerResolvableAddress.encode(to: &writer)
            }
        }
    }

    /// HCI_LE_Read_Local_Resolvable_Address (Core 5.4, Vol 4, Part E, §7.8.43): the private
    /// address the controller currently uses towards a resolving-list peer.
    public struct LEReadLocalResolvableAddress: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leReadLocalResolvableAddress``.
        public static let opcode = Opcode.leReadLocalResolvableAddress

        // Codec: generated from the stored properties below.
        /// The peer's identity address, public or random (static).
        public var peerIdentityAddress: BluetoothAddress

        /// The command for `peerIdentityAddress`.
        public init(peerIdentityAddress: BluetoothAddress) { self.peerIdentityAddress = peerIdentityAddress }

        /// The Command Complete return parameters.
        public struct ReturnParameters: WireCodable, Hashable {
            /// Whether the command succeeded.
            public var status: StatusCode
            /// Local_Resolvable_Address; decoding gives it the random kind.
            public var localResolvableAddress: BluetoothAddress

            /// Return parameters with every field.
            public init(status: StatusCode, localResolvableAddress: BluetoothAddress) {
                self.status = status
                self.localResolvableAddress = localResolvableAddress
            }

            public init(from reader: inout ByteReader) throws(WireError) {
                status = try StatusCode(from: &reader, field: "HCI.LEReadLocalResolvableAddress.status")
                localResolvableAddress = try BluetoothAddress(
                    from: &reader, kind: .random, field: "HCI.LEReadLocalResolvableAddress.localResolvableAddress")
            }

            public func encode(to writer: inout ByteWriter) {
                status.encode(to: &writer)
                localResolvableAddress.encode(to: &writer)
            }
        }
    }

    /// HCI_LE_Set_Address_Resolution_Enable (Core 5.4, Vol 4, Part E, §7.8.44): turns the
    /// controller's address resolution on or off.
    public struct LESetAddressResolutionEnable: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leSetAddressResolutionEnable``.
        public static let opcode = Opcode.leSetAddressResolutionEnable

        // Codec: generated from the stored properties below.
        /// Address_Resolution_Enable.
        public var addressResolutionEnable: Bool

        /// The command turning resolution on (`true`) or off.
        public init(addressResolutionEnable: Bool) { self.addressResolutionEnable = addressResolutionEnable }
    }

    /// HCI_LE_Set_Resolvable_Private_Address_Timeout (Core 5.4, Vol 4, Part E, §7.8.45): how
    /// often the controller changes the private addresses it generates.
    public struct LESetResolvablePrivateAddressTimeout: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leSetResolvablePrivateAddressTimeout``.
        public static let opcode = Opcode.leSetResolvablePrivateAddressTimeout

        // Codec: generated from the stored properties below.
        /// RPA_Timeout, in seconds (0x0001 to 0x0E10; 900 s, i.e. 15 minutes, by default).
        public var rpaTimeout: UInt16

        /// The command setting `rpaTimeout`.
        public init(rpaTimeout: UInt16) { self.rpaTimeout = rpaTimeout }
    }

    /// HCI_LE_Set_Privacy_Mode (Core 5.4, Vol 4, Part E, §7.8.77): whether a resolving-list
    /// peer is also accepted under its identity address.
    public struct LESetPrivacyMode: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leSetPrivacyMode``.
        public static let opcode = Opcode.leSetPrivacyMode

        /// Privacy_Mode.
        public enum PrivacyMode: UInt8, Hashable, Sendable, CaseIterable {
            /// Network privacy: only the peer's private addresses are accepted (default).
            case network = 0x00
            /// Device privacy: the identity address is accepted too.
            case device = 0x01
        }

        // Codec: generated from the stored properties below.
        /// The peer's identity address, public or random (static).
        public var peerIdentityAddress: BluetoothAddress
        /// The mode for that peer.
        public var privacyMode: PrivacyMode

        /// The command setting `privacyMode` for `peerIdentityAddress`.
        public init(peerIdentityAddress: BluetoothAddress, privacyMode: PrivacyMode) {
            self.peerIdentityAddress = peerIdentityAddress
            self.privacyMode = privacyMode
        }
    }
}
