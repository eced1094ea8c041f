extension LL {
    /// The Common Extended Advertising Payload Format (Core 5.4, Vol 6, Part B, §2.3.4) of
    /// ADV_EXT_IND, AUX_ADV_IND, AUX_CHAIN_IND and the other PDUs of type 0b0111: a 6-bit
    /// Extended Header Length, a 2-bit AdvMode, the extended header (a flags octet, then the
    /// fields it announces, in order) and AdvData.
    ///
    /// The kind of AdvA and TargetA travel in the PDU header's TxAdd and RxAdd bits
    /// (``LL/AdvertisingPDU/reservedBits`` of a `.extended` payload); ``init(decoding:txKind:rxKind:)``
    /// and ``headerBits`` carry them across.
    public struct ExtendedAdvertisingPayload: Hashable, Sendable {
        /// The longest payload of an extended advertising PDU (§2.3.4: Length is 8 bits).
        public static let maximumLength = 255

        /// AdvMode (§2.3.4.1): whether the advertising is connectable or scannable.
        public enum AdvertisingMode: UInt8, Hashable, Sendable, CaseIterable {
            /// Neither connectable nor scannable.
            case nonConnectableNonScannable = 0b00
            /// Connectable.
            case connectable = 0b01
            /// Scannable.
            case scannable = 0b10
        }

        /// AdvDataInfo (ADI, §2.3.4.5): the set (SID) and the version of its data (DID).
        public struct AdvertisingDataInfo: Hashable, Sendable {
            /// Advertising Data ID, 12 bits: changes when the set's data changes.
            public var dataID: UInt16
            /// Advertising Set ID, 4 bits (the host's Advertising_SID).
            public var setID: UInt8
            /// An ADI; values are cut to their 12 and 4 bits.
            public init(dataID: UInt16, setID: UInt8) {
                self.dataID = dataID & 0x0FFF
                self.setID = setID & 0x0F
            }
        }

        /// AuxPtr (§2.3.4.4): where and when the next auxiliary packet is sent.
        public struct AuxiliaryPointer: Hashable, Sendable {
            /// Offset Units: 30 µs, or 300 µs for offsets of 245,700 µs and more.
            public enum OffsetUnit: UInt8, Hashable, Sendable {
                /// 30 µs.
                case thirty = 0
                /// 300 µs.
                case threeHundred = 1
                /// The unit in microseconds.
                public var microseconds: Int64 { self == .thirty ? 30 : 300 }
            }

            /// The secondary channel index, 0–36.
            public var channelIndex: UInt8
            /// CA: the sender's clock accuracy is 0–50 ppm (`true`) or 51–500 ppm.
            public var clockAccuracyIs50ppm: Bool
            /// The unit of ``offset``.
            public var offsetUnit: OffsetUnit
            /// AUX Offset, 13 bits: from the start of this packet to the start of the next, in ``offsetUnit``s.
            public var offset: UInt16
            /// AUX PHY: the PHY of the next packet.
            public var phy: HCI.PHY

            /// A pointer with every field; channel and offset are cut to their 6 and 13 bits.
            public init(channelIndex: UInt8, clockAccuracyIs50ppm: Bool = true, offsetUnit: OffsetUnit, offset: UInt16, phy: HCI.PHY) {
                self.channelIndex = channelIndex & 0x3F
                self.clockAccuracyIs50ppm = clockAccuracyIs50ppm
                self.offsetUnit = offsetUnit
                self.offset = offset & 0x1FFF
                self.phy = phy
            }

            /// The offset in microseconds.
            public var offsetMicroseconds: Int64 { Int64(offset) * offsetUnit.microseconds }
        }

        /// The advertising mode.
        public var mode: AdvertisingMode
        /// AdvA, the advertiser's address, if present.
        public var advertiserAddress: BluetoothAddress?
        /// TargetA, the addressee of directed advertising, if present.
        public var targetAddress: BluetoothAddress?
        /// CTEInfo, kept raw, if present.
        public var cteInfo: UInt8?
        /// ADI, if present.
        public var dataInfo: AdvertisingDataInfo?
        /// AuxPtr, if present.
        public var auxiliaryPointer: AuxiliaryPointer?
        /// SyncInfo (18 octets), kept raw, if present.
        public var syncInfo: ArraySlice<UInt8>?
        /// TxPower in dBm, if present.
        public var txPower: Int8?
        /// ACAD: the rest of the extended header, kept raw.
        public var additionalControllerData: ArraySlice<UInt8>
        /// AdvData.
        public var data: ArraySlice<UInt8>

        /// A payload with the given fields (all optional fields absent by default).
        public init(
            mode: AdvertisingMode = .nonConnectableNonScannable, advertiserAddress: BluetoothAddress? = nil,
            targetAddress: BluetoothAddress? = nil, dataInfo: AdvertisingDataInfo? = nil,
            auxiliaryPointer: AuxiliaryPointer? = nil, txPower: Int8? = nil, data: ArraySlice<UInt8> = []
        ) {
            self.mode = mode
            self.advertiserAddress = advertiserAddress
            self.targetAddress = targetAddress
            self.dataInfo = dataInfo
            self.auxiliaryPointer = auxiliaryPointer
            self.txPower = txPower
            self.additionalControllerData = []
            self.data = data
        }

        /// The length of the extended header (flags and fields), without the length octet.
        public var extendedHeaderLength: Int {
            var length = 0
            if advertiserAddress != nil { length += 6 }
            if targetAddress != nil { length += 6 }
            if cteInfo != nil { length += 1 }
            if dataInfo != nil { length += 2 }
            if auxiliaryPointer != nil { length += 3 }
            if syncInfo != nil { length += 18 }
            if txPower != nil { length += 1 }
            length += additionalControllerData.count
            return length == 0 ? 0 : length + 1
        }

        /// The whole payload's length.
        public var encodedCount: Int { 1 + extendedHeaderLength + data.count }

        /// The TxAdd and RxAdd header bits of the PDU that carries this payload.
        public var headerBits: UInt8 {
            var bits: UInt8 = 0
            if advertiserAddress?.kind == .random { bits |= LL.AdvertisingPDU.txAddBit }
            if targetAddress?.kind == .random { bits |= LL.AdvertisingPDU.rxAddBit }
            return bits
        }

        /// This payload in an advertising-channel PDU of type 0b0111.
        public var pdu: LL.AdvertisingPDU {
            LL.AdvertisingPDU(payload: .extended(type: .advExtInd, payload: encoded()[...]), reservedBits: headerBits)
        }

        /// Decodes a payload; `txKind` and `rxKind` come from the PDU header.
        public init(decoding bytes: ArraySlice<UInt8>, txKind: BluetoothAddress.Kind, rxKind: BluetoothAddress.Kind) throws(WireError) {
            var reader = ByteReader(bytes)
            let first = try reader.readUInt8("LL.ExtendedAdvertisingPayload.extendedHeaderLength")
            let headerLength = Int(first & 0x3F)
            guard let mode = AdvertisingMode(rawValue: first >> 6) else {
                throw WireError(field: "LL.ExtendedAdvertisingPayload.advMode", reason: .invalidValue(UInt64(first >> 6)))
            }
            self.init(mode: mode)
            if headerLength > 0 {
                var header = try reader.subReader(headerLength, "LL.ExtendedAdvertisingPayload.extendedHeader")
                let flags = try header.readUInt8("LL.ExtendedAdvertisingPayload.extendedHeaderFlags")
                if flags & 0x01 != 0 { advertiserAddress = try BluetoothAddress(from: &header, kind: txKind, field: "LL.ExtendedAdvertisingPayload.advA") }
                if flags & 0x02 != 0 { targetAddress = try BluetoothAddress(from: &header, kind: rxKind, field: "LL.ExtendedAdvertisingPayload.targetA") }
                if flags & 0x04 != 0 { cteInfo = try header.readUInt8("LL.ExtendedAdvertisingPayload.cteInfo") }
                if flags & 0x08 != 0 {
                    let adi = try header.readUInt16("LL.ExtendedAdvertisingPayload.adi")
                    dataInfo = AdvertisingDataInfo(dataID: adi & 0x0FFF, setID: UInt8(adi >> 12))
                }
                if flags & 0x10 != 0 { auxiliaryPointer = try Self.readAuxiliaryPointer(&header) }
                if flags & 0x20 != 0 { syncInfo = try header.readBytes(18, "LL.ExtendedAdvertisingPayload.syncInfo") }
                if flags & 0x40 != 0 { txPower = try header.readInt8("LL.ExtendedAdvertisingPayload.txPower") }
                additionalControllerData = header.readRemaining()
            }
            data = reader.readRemaining()
        }

        private static func readAuxiliaryPointer(_ reader: inout ByteReader) throws(WireError) -> AuxiliaryPointer {
            let first = try reader.readUInt8("LL.ExtendedAdvertisingPayload.auxPtr")
            let rest = try reader.readUInt16("LL.ExtendedAdvertisingPayload.auxPtr")
            let phyBits = UInt8(rest >> 13)
            // AUX PHY 0, 1, 2 are LE 1M, 2M and Coded; other values are reserved.
            guard let phy = HCI.PHY(rawValue: phyBits + 1) else {
                throw WireError(field: "LL.ExtendedAdvertisingPayload.auxPtr.auxPHY", reason: .invalidValue(UInt64(phyBits)))
            }
            return AuxiliaryPointer(
                channelIndex: first & 0x3F, clockAccuracyIs50ppm: first & 0x40 != 0,
                offsetUnit: first & 0x80 != 0 ? .threeHundred : .thirty, offset: rest & 0x1FFF, phy: phy)
        }

        /// The payload's octets. Fields that would pass 63 header octets or 255 payload
        /// octets (only possible when built by hand) are not the encoder's concern: callers
        /// keep within ``maximumLength``.
        public func encoded() -> [UInt8] {
            var writer = ByteWriter()
            let headerLength = extendedHeaderLength
            writer.write(UInt8(headerLength & 0x3F) | mode.rawValue << 6)
            if headerLength > 0 {
                var flags: UInt8 = 0
                if advertiserAddress != nil { flags |= 0x01 }
                if targetAddress != nil { flags |= 0x02 }
                if cteInfo != nil { flags |= 0x04 }
                if dataInfo != nil { flags |= 0x08 }
                if auxiliaryPointer != nil { flags |= 0x10 }
                if syncInfo != nil { flags |= 0x20 }
                if txPower != nil { flags |= 0x40 }
                writer.write(flags)
                advertiserAddress?.encode(to: &writer)
                targetAddress?.encode(to: &writer)
                if let cteInfo { writer.write(cteInfo) }
                if let dataInfo { writer.write(dataInfo.dataID | UInt16(dataInfo.setID) << 12) }
                if let pointer = auxiliaryPointer {
                    var first = pointer.channelIndex
                    if pointer.clockAccuracyIs50ppm { first |= 0x40 }
                    if pointer.offsetUnit == .threeHundred { first |= 0x80 }
                    writer.write(first)
                    writer.write(pointer.offset | UInt16(pointer.phy.rawValue - 1) << 13)
                }
                if let syncInfo { writer.write(contentsOf: syncInfo) }
                if let txPower { writer.write(txPower) }
                writer.write(contentsOf: additionalControllerData)
            }
            writer.write(contentsOf: data)
            return writer.bytes
        }
    }
}
