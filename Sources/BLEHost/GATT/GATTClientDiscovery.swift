import BLEWire

/// «Primary Service» (0x2800), «Include» (0x2802), «Characteristic» (0x2803) declarations
/// (Core 5.4, Vol 3, Part G, §3.1–§3.3).
enum GATTDeclaration {
    static let primaryService = BluetoothUUID(0x2800)
    static let include = BluetoothUUID(0x2802)
    static let characteristic = BluetoothUUID(0x2803)
}

/// Checks that each discovered handle lies in the asked range and after the one before,
/// so a server cannot make a discovery go backwards or loop (Core 5.4, Vol 3, Part G, §4).
/// Returns why not, or `nil`.
func checkAscending(_ handles: [ATT.Handle], from start: ATT.Handle, to end: ATT.Handle) -> String? {
    var previous: ATT.Handle?
    for handle in handles {
        guard handle >= start, handle <= end else {
            return "handle 0x\(String(handle, radix: 16)) is outside 0x\(String(start, radix: 16))–0x\(String(end, radix: 16))"
        }
        if let previous, handle <= previous { return "handle 0x\(String(handle, radix: 16)) does not follow 0x\(String(previous, radix: 16))" }
        previous = handle
    }
    return nil
}

/// Exchange MTU (§4.3.1).
struct ExchangeMTUMachine: GATTProcedureMachine {
    var receiveMTU: Int

    func start(mtu: Int) -> GATTProcedureStep {
        .send(ATT.ExchangeMTURequest(clientRxMTU: UInt16(receiveMTU)))
    }

    func advance(_ response: ATT.PDU, mtu: Int) -> GATTProcedureStep {
        switch response {
        case .exchangeMTUResponse: return .finish(.success(.mtu(mtu)))
        case let .errorResponse(error): return .failed(error)
        default: return .unexpected(response)
        }
    }
}

/// Discover All Primary Services (§4.4.1) and Discover Primary Service by Service UUID
/// (§4.4.2): ask from the handle after the last group found until Attribute Not Found or
/// a group ending at 0xFFFF.
struct PrimaryServiceDiscovery: GATTProcedureMachine {
    var uuid: BluetoothUUID?
    var next: ATT.Handle = 0x0001
    var found: [GATTDiscoveredService] = []

    init(uuid: BluetoothUUID?) { self.uuid = uuid }

    func request() -> GATTProcedureStep {
        guard let uuid else {
            return .send(ATT.ReadByGroupTypeRequest(startingHandle: next, endingHandle: 0xFFFF, attributeGroupType: GATTDeclaration.primaryService))
        }
        // The value compared is the declaration's value: 2 octets for a 16-bit UUID, else 16.
        var writer = ByteWriter(capacity: 16)
        uuid.encode(to: &writer, width: uuid.uuid16 != nil ? .bits16 : .bits128)
        return .send(ATT.FindByTypeValueRequest(startingHandle: next, endingHandle: 0xFFFF, attributeType: 0x2800,
                                                attributeValue: writer.bytes[...]))
    }

    func start(mtu: Int) -> GATTProcedureStep { request() }

    mutating func advance(_ response: ATT.PDU, mtu: Int) -> GATTProcedureStep {
        var groups: [(handle: ATT.Handle, end: ATT.Handle, uuid: BluetoothUUID)] = []
        switch response {
        case let .errorResponse(error):
            return error.errorCode == .attributeNotFound ? .finish(.success(.services(found))) : .failed(error)
        case let .readByGroupTypeResponse(list) where uuid == nil:
            for entry in list.attributeDataList {
                guard entry.attributeValue.count == 2 || entry.attributeValue.count == 16,
                      let type = try? BluetoothUUID(decoding: entry.attributeValue) else {
                    return .invalid("a service UUID of \(entry.attributeValue.count) octets")
                }
                groups.append((entry.attributeHandle, entry.endGroupHandle, type))
            }
        case let .findByTypeValueResponse(list):
            guard let uuid else { return .unexpected(response) }
            groups = list.handlesInformationList.map { ($0.foundAttributeHandle, $0.groupEndHandle, uuid) }
        default:
            return .unexpected(response)
        }
        if let problem = checkAscending(groups.map(\.handle), from: next, to: 0xFFFF) { return .invalid(problem) }
        for group in groups {
            guard group.end >= group.handle, group.handle > (found.last?.handles.upperBound ?? 0) else {
                return .invalid("service group 0x\(String(group.handle, radix: 16))–0x\(String(group.end, radix: 16)) overlaps or is reversed")
            }
            found.append(GATTDiscoveredService(uuid: group.uuid, handles: group.handle ... group.end))
        }
        guard let last = found.last?.handles.upperBound, last < 0xFFFF else { return .finish(.success(.services(found))) }
        next = last + 1
        return request()
    }
}

/// Find Included Services (§4.5.1): Read By Type of «Include» in the service; an include
/// declaration without a UUID (4 octets: its service has a 128-bit UUID) is followed by a
/// Read of that service's declaration for the UUID.
struct IncludedServiceDiscovery: GATTProcedureMachine {
    var range: ClosedRange<ATT.Handle>
    var next: ATT.Handle
    var found: [GATTDiscoveredIncludedService] = []
    /// Indices into `found` whose UUID must still be read.
    var unresolved: [Int] = []
    /// Whether the last declaration found ends the range.
    var reachedEnd = false

    init(range: ClosedRange<ATT.Handle>) {
        self.range = range
        next = range.lowerBound
    }

    func start(mtu: Int) -> GATTProcedureStep {
        .send(ATT.ReadByTypeRequest(startingHandle: next, endingHandle: range.upperBound, attributeType: GATTDeclaration.include))
    }

    mutating func advance(_ response: ATT.PDU, mtu: Int) -> GATTProcedureStep {
        switch response {
        case let .errorResponse(error):
            guard unresolved.isEmpty, error.errorCode == .attributeNotFound else { return .failed(error) }
            return .finish(.success(.includedServices(found)))
        case let .readByTypeResponse(list):
            guard unresolved.isEmpty else { return .unexpected(response) }
            if let problem = checkAscending(list.attributeDataList.map(\.attributeHandle), from: next, to: range.upperBound) {
                return .invalid(problem)
            }
            for entry in list.attributeDataList {
                var reader = ByteReader(entry.attributeValue)
                guard entry.attributeValue.count == 6 || entry.attributeValue.count == 4,
                      let start = try? reader.readUInt16("start"), let end = try? reader.readUInt16("end"), start <= end else {
                    return .invalid("an include declaration value of \(entry.attributeValue.count) octets")
                }
                let type = entry.attributeValue.count == 6 ? (try? reader.readUInt16("uuid")).map { BluetoothUUID($0) } : nil
                if type == nil { unresolved.append(found.count) }
                found.append(GATTDiscoveredIncludedService(declarationHandle: entry.attributeHandle,
                                                          uuid: type ?? BluetoothUUID(uuid128: 0), handles: start ... end))
            }
            let last = list.attributeDataList.last?.attributeHandle ?? range.upperBound
            reachedEnd = last >= range.upperBound
            next = reachedEnd ? range.upperBound : last + 1
        case let .readResponse(read):
            guard let index = unresolved.first else { return .unexpected(response) }
            guard read.attributeValue.count == 16, let type = try? BluetoothUUID(decoding: read.attributeValue) else {
                return .invalid("an included service declaration of \(read.attributeValue.count) octets, not a 128-bit UUID")
            }
            found[index].uuid = type
            unresolved.removeFirst()
        default:
            return .unexpected(response)
        }
        if let index = unresolved.first {
            return .send(ATT.ReadRequest(attributeHandle: found[index].handles.lowerBound))
        }
        return reachedEnd ? .finish(.success(.includedServices(found))) : start(mtu: mtu)
    }
}

/// Discover All Characteristics of a Service (§4.6.1) and by UUID (§4.6.2): Read By Type of
/// «Characteristic» through the range. Each characteristic ends before the next
/// declaration, the last at the range's end.
struct CharacteristicDiscovery: GATTProcedureMachine {
    var range: ClosedRange<ATT.Handle>
    var uuid: BluetoothUUID?
    var next: ATT.Handle
    var found: [GATTDiscoveredCharacteristic] = []

    init(range: ClosedRange<ATT.Handle>, uuid: BluetoothUUID?) {
        self.range = range
        self.uuid = uuid
        next = range.lowerBound
    }

    func start(mtu: Int) -> GATTProcedureStep {
        .send(ATT.ReadByTypeRequest(startingHandle: next, endingHandle: range.upperBound, attributeType: GATTDeclaration.characteristic))
    }

    func finished() -> GATTProcedureStep {
        var all = found
        for index in all.indices {
            all[index].endHandle = index + 1 < all.count ? all[index + 1].declarationHandle - 1 : range.upperBound
        }
        if let uuid { all = all.filter { $0.uuid == uuid } }
        return .finish(.success(.characteristics(all)))
    }

    mutating func advance(_ response: ATT.PDU, mtu: Int) -> GATTProcedureStep {
        switch response {
        case let .errorResponse(error):
            return error.errorCode == .attributeNotFound ? finished() : .failed(error)
        case let .readByTypeResponse(list):
            if let problem = checkAscending(list.attributeDataList.map(\.attributeHandle), from: next, to: range.upperBound) {
                return .invalid(problem)
            }
            for entry in list.attributeDataList {
                var reader = ByteReader(entry.attributeValue)
                guard entry.attributeValue.count == 5 || entry.attributeValue.count == 19,
                      let properties = try? reader.readUInt8("properties"), let valueHandle = try? reader.readUInt16("value"),
                      let type = try? BluetoothUUID(decoding: reader.readRemaining()) else {
                    return .invalid("a characteristic declaration value of \(entry.attributeValue.count) octets")
                }
                guard valueHandle > entry.attributeHandle, valueHandle <= range.upperBound else {
                    return .invalid("value handle 0x\(String(valueHandle, radix: 16)) of declaration 0x\(String(entry.attributeHandle, radix: 16))")
                }
                found.append(GATTDiscoveredCharacteristic(uuid: type, declarationHandle: entry.attributeHandle, valueHandle: valueHandle,
                                                          properties: GATTCharacteristicProperties(rawValue: properties),
                                                          endHandle: range.upperBound))
            }
            guard let last = list.attributeDataList.last?.attributeHandle, last < range.upperBound else { return finished() }
            next = last + 1
            return start(mtu: mtu)
        default:
            return .unexpected(response)
        }
    }
}

/// Discover All Characteristic Descriptors (§4.7.1): Find Information from the handle
/// after the value to the characteristic's end.
struct DescriptorDiscovery: GATTProcedureMachine {
    var next: ATT.Handle
    var end: ATT.Handle
    var isEmpty: Bool
    var found: [GATTDiscoveredDescriptor] = []

    init(characteristic: GATTDiscoveredCharacteristic) {
        isEmpty = characteristic.valueHandle >= characteristic.endHandle
        next = isEmpty ? characteristic.endHandle : characteristic.valueHandle + 1
        end = characteristic.endHandle
    }

    func start(mtu: Int) -> GATTProcedureStep {
        isEmpty ? .finish(.success(.descriptors([]))) : .send(ATT.FindInformationRequest(startingHandle: next, endingHandle: end))
    }

    mutating func advance(_ response: ATT.PDU, mtu: Int) -> GATTProcedureStep {
        switch response {
        case let .errorResponse(error):
            return error.errorCode == .attributeNotFound ? .finish(.success(.descriptors(found))) : .failed(error)
        case let .findInformationResponse(list):
            if let problem = checkAscending(list.entries.map(\.handle), from: next, to: end) { return .invalid(problem) }
            found += list.entries.map { GATTDiscoveredDescriptor(uuid: $0.attributeType, handle: $0.handle) }
            guard let last = list.entries.last?.handle, last < end else { return .finish(.success(.descriptors(found))) }
            next = last + 1
            return start(mtu: mtu)
        default:
            return .unexpected(response)
        }
    }
}
