extension HCI {
    /// HCI_LE_Set_Extended_Advertising_Enable (Core 5.4, Vol 4, Part E, §7.8.56): starts or
    /// stops advertising sets, each with an optional duration and event limit.
    public struct LESetExtendedAdvertisingEnable: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leSetExtendedAdvertisingEnable``.
        public static let opcode = Opcode.leSetExtendedAdvertisingEnable

        /// One advertising set to start or stop.
        public struct AdvertisingSet: Hashable, Sendable {
            /// Advertising_Handle[i]: the set.
            public var advertisingHandle: UInt8
            /// Duration[i], in units of 10 ms; 0 means until stopped.
            public var duration: UInt16
            /// Max_Extended_Advertising_Events[i]; 0 means no limit.
            public var maxExtendedAdvertisingEvents: UInt8

            /// An entry for set `advertisingHandle`.
            public init(advertisingHandle: UInt8, duration: UInt16 = 0, maxExtendedAdvertisingEvents: UInt8 = 0) {
                self.advertisingHandle = advertisingHandle
                self.duration = duration
                self.maxExtendedAdvertisingEvents = maxExtendedAdvertisingEvents
            }
        }

        /// Enable: start (`true`) or stop the sets.
        public var enable: Bool
        /// The sets, fields interleaved per set on the wire (§5.2); at most 63 fit in a
        /// command and the encoder sends at most 255. Empty with `enable == false` stops all
        /// sets.
        public var sets: [AdvertisingSet]

        /// The command starting or stopping `sets`.
        public init(enable: Bool, sets: [AdvertisingSet]) {
            self.enable = enable
            self.sets = sets
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            enable = try reader.readFlag("HCI.LESetExtendedAdvertisingEnable.enable")
            let count = Int(try reader.readUInt8("HCI.LESetExtendedAdvertisingEnable.numSets"))
            try reader.require(count * 4, "HCI.LESetExtendedAdvertisingEnable.sets")
            var sets: [AdvertisingSet] = []
            sets.reserveCapacity(count)
            for _ in 0 ..< count {
                sets.append(AdvertisingSet(
                    advertisingHandle: try reader.readUInt8("HCI.LESetExtendedAdvertisingEnable.advertisingHandle"),
                    duration: try reader.readUInt16("HCI.LESetExtendedAdvertisingEnable.duration"),
                    maxExtendedAdvertisingEvents: try reader.readUInt8(
                        "HCI.LESetExtendedAdvertisingEnable.maxExtendedAdvertisingEvents")
                ))
            }
            self.sets = sets
        }

        public func encode(to writer: inout ByteWriter) {
            let written = sets.prefix(255)
            writer.writeFlag(enable)
            writer.write(UInt8(written.count))
            for set in written {
                writer.write(set.advertisingHandle)
                writer.write(set.duration)
                writer.write(set.maxExtendedAdvertisingEvents)
            }
        }
    }

    /// HCI_LE_Read_Maximum_Advertising_Data_Length (Core 5.4, Vol 4, Part E, §7.8.57): the
    /// most advertising data one set can hold across fragments.
    public struct LEReadMaximumAdvertisingDataLength: ParameterlessCommand {
        /// The command's opcode, ``HCI/Opcode/leReadMaximumAdvertisingDataLength``.
        public static let opcode = Opcode.leReadMaximumAdvertisingDataLength
        /// The command (it has no parameters).
        public init() {}

        /// The Command Complete return parameters.
        public struct ReturnParameters: WireCodable, Hashable {
            // Codec: generated from the stored properties below.
            /// Whether the command succeeded.
            public var status: StatusCode
            /// Max_Advertising_Data_Length, octets (31 to 1650).
            public var maxAdvertisingDataLength: UInt16

            /// Return parameters with every field.
            public init(status: StatusCode, maxAdvertisingDataLength: UInt16) {
                self.status = status
                self.maxAdvertisingDataLength = maxAdvertisingDataLength
            }
        }
    }

    /// HCI_LE_Read_Number_Of_Supported_Advertising_Sets (Core 5.4, Vol 4, Part E, §7.8.58):
    /// how many advertising sets the controller can run at once.
    public struct LEReadNumberOfSupportedAdvertisingSets: ParameterlessCommand {
        /// The command's opcode, ``HCI/Opcode/leReadNumberOfSupportedAdvertisingSets``.
        public static let opcode = Opcode.leReadNumberOfSupportedAdvertisingSets
        /// The command (it has no parameters).
        public init() {}

        /// The Command Complete return parameters.
        public struct ReturnParameters: WireCodable, Hashable {
            // Codec: generated from the stored properties below.
            /// Whether the command succeeded.
            public var status: StatusCode
            /// Num_Supported_Advertising_Sets (1 to 240).
            public var numSupportedAdvertisingSets: UInt8

            /// Return parameters with every field.
            public init(status: StatusCode, numSupportedAdvertisingSets: UInt8) {
                self.status = status
                self.numSupportedAdvertisingSets = numSupportedAdvertisingSets
            }
        }
    }

    /// HCI_LE_Remove_Advertising_Set (Core 5.4, Vol 4, Part E, §7.8.59): deletes one
    /// advertising set.
    public struct LERemoveAdvertisingSet: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leRemoveAdvertisingSet``.
        public static let opcode = Opcode.leRemoveAdvertisingSet

        // Codec: generated from the stored properties below.
        /// Advertising_Handle: the set.
        public var advertisingHandle: UInt8

        /// The command deleting set `advertisingHandle`.
        public init(advertisingHandle: UInt8) { self.advertisingHandle = advertisingHandle }
    }

    /// HCI_LE_Clear_Advertising_Sets (Core 5.4, Vol 4, Part E, §7.8.60): deletes every
    /// advertising set.
    public struct LEClearAdvertisingSets: ParameterlessCommand {
        /// The command's opcode, ``HCI/Opcode/leClearAdvertisingSets``.
        public static let opcode = Opcode.leClearAdvertisingSets
        /// The command (it has no parameters).
        public init() {}
    }
}
