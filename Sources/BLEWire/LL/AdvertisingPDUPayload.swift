extension LL.AdvertisingPDU {
    /// The payload of an advertising physical channel PDU, by PDU type (Core 5.4, Vol 6,
    /// Part B, §2.3.1–§2.3.3). Each address carries its kind: the TxAdd bit for the
    /// sender's address, the RxAdd bit for the addressee's.
    public enum Payload: Hashable, Sendable {
        /// ADV_IND (§2.3.1.1): AdvA and 0–31 octets of AdvData.
        case advInd(advertiserAddress: BluetoothAddress, data: ArraySlice<UInt8>)
        /// ADV_DIRECT_IND (§2.3.1.2): AdvA and TargetA, the one device that may connect.
        case advDirectInd(advertiserAddress: BluetoothAddress, targetAddress: BluetoothAddress)
        /// ADV_NONCONN_IND (§2.3.1.3): AdvA and 0–31 octets of AdvData.
        case advNonconnInd(advertiserAddress: BluetoothAddress, data: ArraySlice<UInt8>)
        /// ADV_SCAN_IND (§2.3.1.4): AdvA and 0–31 octets of AdvData.
        case advScanInd(advertiserAddress: BluetoothAddress, data: ArraySlice<UInt8>)
        /// SCAN_REQ (§2.3.2.1): ScanA (TxAdd) asks AdvA (RxAdd) for its scan response.
        case scanReq(scannerAddress: BluetoothAddress, advertiserAddress: BluetoothAddress)
        /// SCAN_RSP (§2.3.2.2): AdvA and 0–31 octets of ScanRspData.
        case scanRsp(advertiserAddress: BluetoothAddress, data: ArraySlice<UInt8>)
        /// CONNECT_IND (§2.3.3.1): InitA (TxAdd) connects to AdvA (RxAdd) with LLData.
        case connectInd(
            initiatorAddress: BluetoothAddress, advertiserAddress: BluetoothAddress, linkLayerData: LL.ConnectionRequestData)
        /// ADV_EXT_IND or AUX_CONNECT_RSP (§2.3.4, §2.3.3.2): the Common Extended Advertising
        /// Payload Format, kept undecoded (this stack advertises with legacy PDUs only).
        case extended(type: LL.AdvertisingPDUType, payload: ArraySlice<UInt8>)

        /// The PDU type that carries this payload.
        public var pduType: LL.AdvertisingPDUType {
            switch self {
            case .advInd: return .advInd
            case .advDirectInd: return .advDirectInd
            case .advNonconnInd: return .advNonconnInd
            case .advScanInd: return .advScanInd
            case .scanReq: return .scanReq
            case .scanRsp: return .scanRsp
            case .connectInd: return .connectInd
            case let .extended(type, _): return type
            }
        }

        /// The address of the device that sent the PDU (AdvA, ScanA or InitA), if decoded.
        public var senderAddress: BluetoothAddress? {
            switch self {
            case let .advInd(address, _), let .advNonconnInd(address, _), let .advScanInd(address, _),
                 let .scanRsp(address, _), let .advDirectInd(address, _), let .scanReq(address, _),
                 let .connectInd(address, _, _):
                return address
            case .extended:
                return nil
            }
        }

        /// Whether the TxAdd bit is set: the sender's address is random.
        var txAddIsRandom: Bool { senderAddress?.kind == .random }

        /// Whether the RxAdd bit is set: the addressee (TargetA or AdvA) is random.
        var rxAddIsRandom: Bool {
            switch self {
            case let .advDirectInd(_, target): return target.kind == .random
            case let .scanReq(_, advertiser): return advertiser.kind == .random
            case let .connectInd(_, advertiser, _): return advertiser.kind == .random
            default: return false
            }
        }

        /// Decodes the payload of a PDU of `type`, whose header gave `txKind` and `rxKind`.
        init(
            type: LL.AdvertisingPDUType, txKind: BluetoothAddress.Kind, rxKind: BluetoothAddress.Kind,
            from reader: inout ByteReader
        ) throws(WireError) {
            switch type {
            case .advInd:
                let (address, data) = try Payload.readAddressAndData(&reader, kind: txKind, "ADV_IND")
                self = .advInd(advertiserAddress: address, data: data)
            case .advNonconnInd:
                let (address, data) = try Payload.readAddressAndData(&reader, kind: txKind, "ADV_NONCONN_IND")
                self = .advNonconnInd(advertiserAddress: address, data: data)
            case .advScanInd:
                let (address, data) = try Payload.readAddressAndData(&reader, kind: txKind, "ADV_SCAN_IND")
                self = .advScanInd(advertiserAddress: address, data: data)
            case .scanRsp:
                let (address, data) = try Payload.readAddressAndData(&reader, kind: txKind, "SCAN_RSP")
                self = .scanRsp(advertiserAddress: address, data: data)
            case .advDirectInd:
                let advertiser = try BluetoothAddress(from: &reader, kind: txKind, field: "LL.ADV_DIRECT_IND.advA")
                let target = try BluetoothAddress(from: &reader, kind: rxKind, field: "LL.ADV_DIRECT_IND.targetA")
                self = .advDirectInd(advertiserAddress: advertiser, targetAddress: target)
            case .scanReq:
                let scanner = try BluetoothAddress(from: &reader, kind: txKind, field: "LL.SCAN_REQ.scanA")
                let advertiser = try BluetoothAddress(from: &reader, kind: rxKind, field: "LL.SCAN_REQ.advA")
                self = .scanReq(scannerAddress: scanner, advertiserAddress: advertiser)
            case .connectInd:
                let initiator = try BluetoothAddress(from: &reader, kind: txKind, field: "LL.CONNECT_IND.initA")
                let advertiser = try BluetoothAddress(from: &reader, kind: rxKind, field: "LL.CONNECT_IND.advA")
                let data = try LL.ConnectionRequestData(from: &reader)
                self = .connectInd(initiatorAddress: initiator, advertiserAddress: advertiser, linkLayerData: data)
            case .advExtInd, .auxConnectRsp:
                self = .extended(type: type, payload: reader.readRemaining())
            }
        }

        /// Reads AdvA and the rest of the payload as data of at most 31 octets.
        private static func readAddressAndData(
            _ reader: inout ByteReader, kind: BluetoothAddress.Kind, _ name: String
        ) throws(WireError) -> (BluetoothAddress, ArraySlice<UInt8>) {
            let address = try BluetoothAddress(from: &reader, kind: kind, field: "LL.\(name).advA")
            let data = reader.readRemaining()
            guard data.count <= LL.AdvertisingPDU.maximumLegacyDataLength else {
                throw WireError(
                    field: "LL.\(name).data",
                    reason: .constraint("\(data.count) octets exceed the 31-octet legacy limit"))
            }
            return (address, data)
        }

        /// Appends the payload (without the header).
        func encode(to writer: inout ByteWriter) {
            let limit = LL.AdvertisingPDU.maximumLegacyDataLength
            switch self {
            case let .advInd(address, data), let .advNonconnInd(address, data), let .advScanInd(address, data),
                 let .scanRsp(address, data):
                address.encode(to: &writer)
                writer.write(contentsOf: data.prefix(limit))
            case let .advDirectInd(first, second), let .scanReq(first, second):
                first.encode(to: &writer)
                second.encode(to: &writer)
            case let .connectInd(initiator, advertiser, data):
                initiator.encode(to: &writer)
                advertiser.encode(to: &writer)
                data.encode(to: &writer)
            case let .extended(_, payload):
                writer.write(contentsOf: payload.prefix(Int(UInt8.max)))
            }
        }
    }
}
