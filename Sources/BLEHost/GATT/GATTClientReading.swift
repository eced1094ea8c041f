import BLEWire

/// Read Characteristic Value or Descriptor (Core 5.4, Vol 3, Part G, §4.8.1, §4.12.1).
struct ReadMachine: GATTProcedureMachine {
    var handle: ATT.Handle

    func start(mtu: Int) -> GATTProcedureStep { .send(ATT.ReadRequest(attributeHandle: handle)) }

    func advance(_ response: ATT.PDU, mtu: Int) -> GATTProcedureStep {
        switch response {
        case let .readResponse(read): return .finish(.success(.value(Array(read.attributeValue))))
        case let .errorResponse(error): return .failed(error)
        default: return .unexpected(response)
        }
    }
}

/// Read Long Characteristic Value or Descriptor (§4.8.3, §4.12.2): a Read Request, then
/// Read Blob Requests from the octets read so far while each part fills ATT_MTU − 1
/// octets. A value of exactly k × (ATT_MTU − 1) octets ends with an empty part, or with
/// Attribute Not Long when k is 1 (Part F, §3.4.4.5 lets a server answer so). No attribute
/// value is longer than 512 octets (Part F, §3.2.9): the read ends at 512 without asking
/// for more, and a server that sends more fails it with `invalidResponse`, so a hostile
/// server cannot keep the client reading.
struct ReadLongMachine: GATTProcedureMachine {
    var handle: ATT.Handle
    var value: [UInt8]
    /// Whether to begin with Read Blob at `value.count` rather than a Read Request (to
    /// finish a value another response cut).
    var continuing: Bool

    init(handle: ATT.Handle, prefix: [UInt8] = [], continuing: Bool = false) {
        self.handle = handle
        value = prefix
        self.continuing = continuing
    }

    func start(mtu: Int) -> GATTProcedureStep {
        guard continuing else { return .send(ATT.ReadRequest(attributeHandle: handle)) }
        if value.count > ReadLongMachine.longestValue {
            return ReadLongMachine.tooLong
        }
        return value.count == ReadLongMachine.longestValue ? .finish(.success(.value(value))) : blob()
    }

    /// The longest attribute value (Core 5.4, Vol 3, Part F, §3.2.9).
    static let longestValue = 512

    /// The failure of a server that sends more than ``longestValue`` octets.
    static let tooLong = GATTProcedureStep.invalid(
        "the value passed \(longestValue) octets, the longest an attribute may hold (Core 5.4, Vol 3, Part F, §3.2.9)")

    func blob() -> GATTProcedureStep {
        .send(ATT.ReadBlobRequest(attributeHandle: handle, valueOffset: UInt16(value.count)))
    }

    mutating func advance(_ response: ATT.PDU, mtu: Int) -> GATTProcedureStep {
        let part: ArraySlice<UInt8>
        switch response {
        case let .readResponse(read): part = read.attributeValue
        case let .readBlobResponse(blob): part = blob.partAttributeValue
        case let .errorResponse(error):
            if error.errorCode == .attributeNotLong, error.requestOpcodeInError == .readBlobRequest {
                return .finish(.success(.value(value)))
            }
            return .failed(error)
        default:
            return .unexpected(response)
        }
        value += part
        if value.count > ReadLongMachine.longestValue {
            return ReadLongMachine.tooLong
        }
        return part.count < mtu - 1 || value.count == ReadLongMachine.longestValue ? .finish(.success(.value(value))) : blob()
    }
}

/// Read Multiple Characteristic Values (§4.8.4): one Read Multiple Request; the values come
/// back concatenated.
struct ReadMultipleMachine: GATTProcedureMachine {
    var handles: [ATT.Handle]

    func start(mtu: Int) -> GATTProcedureStep {
        guard handles.count >= 2 else { return .finish(.failure(.invalidRequest("Read Multiple needs two or more handles"))) }
        return .send(ATT.ReadMultipleRequest(setOfHandles: handles))
    }

    func advance(_ response: ATT.PDU, mtu: Int) -> GATTProcedureStep {
        switch response {
        case let .readMultipleResponse(read): return .finish(.success(.value(Array(read.setOfValues))))
        case let .errorResponse(error): return .failed(error)
        default: return .unexpected(response)
        }
    }
}

/// Read Multiple Variable Length Characteristic Values (§4.8.5). The server stops at
/// ATT_MTU − 1 octets, so the response may cut the last value it carries and leave out
/// later ones; those are finished with Read Blob (or read whole) afterwards.
struct ReadMultipleVariableMachine: GATTProcedureMachine {
    var handles: [ATT.Handle]
    var values: [[UInt8]] = []
    /// Values still to complete, in order: their index and how to read the rest.
    var pending: [(index: Int, reader: ReadLongMachine)] = []

    init(handles: [ATT.Handle]) { self.handles = handles }

    func start(mtu: Int) -> GATTProcedureStep {
        guard handles.count >= 2 else { return .finish(.failure(.invalidRequest("Read Multiple Variable needs two or more handles"))) }
        return .send(ATT.ReadMultipleVariableRequest(setOfHandles: handles))
    }

    mutating func advance(_ response: ATT.PDU, mtu: Int) -> GATTProcedureStep {
        if let first = pending.first {
            let index = first.index
            var reader = first.reader
            let step = reader.advance(response, mtu: mtu)
            guard case let .finish(.success(.value(value))) = step else {
                pending[0].reader = reader
                return step
            }
            values[index] = value
            pending.removeFirst()
            return nextStep(mtu: mtu)
        }
        switch response {
        case let .readMultipleVariableResponse(read):
            let tuples = read.lengthValueTuples
            guard tuples.count <= handles.count else { return .invalid("\(tuples.count) values for \(handles.count) handles") }
            values = tuples.map { Array($0.attributeValue) } + Array(repeating: [], count: handles.count - tuples.count)
            if let last = tuples.last, !last.isComplete {
                let index = tuples.count - 1
                pending.append((index, ReadLongMachine(handle: handles[index], prefix: values[index], continuing: true)))
            }
            for index in tuples.count ..< handles.count {
                pending.append((index, ReadLongMachine(handle: handles[index])))
            }
            return nextStep(mtu: mtu)
        case let .errorResponse(error):
            return .failed(error)
        default:
            return .unexpected(response)
        }
    }

    /// Starts completing the next pending value, or finishes.
    func nextStep(mtu: Int) -> GATTProcedureStep {
        guard let first = pending.first else { return .finish(.success(.values(values))) }
        return first.reader.start(mtu: mtu)
    }
}

/// Read Using Characteristic UUID (§4.8.2): Read By Type of the UUID through the range,
/// continuing after the last handle until Attribute Not Found. Values longer than a
/// response can carry arrive cut (Part F, §3.4.4.2); read those with Read Long.
struct ReadByUUIDMachine: GATTProcedureMachine {
    var uuid: BluetoothUUID
    var range: ClosedRange<ATT.Handle>
    var next: ATT.Handle
    var found: [GATTHandleValue] = []

    init(uuid: BluetoothUUID, range: ClosedRange<ATT.Handle>) {
        self.uuid = uuid
        self.range = range
        next = range.lowerBound
    }

    func start(mtu: Int) -> GATTProcedureStep {
        .send(ATT.ReadByTypeRequest(startingHandle: next, endingHandle: range.upperBound, attributeType: uuid))
    }

    mutating func advance(_ response: ATT.PDU, mtu: Int) -> GATTProcedureStep {
        switch response {
        case let .errorResponse(error):
            return error.errorCode == .attributeNotFound ? .finish(.success(.handleValues(found))) : .failed(error)
        case let .readByTypeResponse(list):
            if let problem = checkAscending(list.attributeDataList.map(\.attributeHandle), from: next, to: range.upperBound) {
                return .invalid(problem)
            }
            found += list.attributeDataList.map { GATTHandleValue(handle: $0.attributeHandle, value: Array($0.attributeValue)) }
            guard let last = list.attributeDataList.last?.attributeHandle, last < range.upperBound else {
                return .finish(.success(.handleValues(found)))
            }
            next = last + 1
            return start(mtu: mtu)
        default:
            return .unexpected(response)
        }
    }
}
