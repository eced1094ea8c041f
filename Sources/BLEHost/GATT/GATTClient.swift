import BLEWire

/// The GATT client of one connection (Core 5.4, Vol 3, Part G, §4) as a sans-IO state
/// machine on top of an ``ATTBearer`` it does not own (the connection's server shares it).
///
/// ``start(_:on:at:)`` queues a ``GATTProcedure``; procedures run one at a time, each as
/// a chain of ATT requests, and end with ``GATTClientEvent/completed(_:_:)``. Everything
/// the bearer outputs goes through ``handle(_:on:at:)``: the client takes the responses to
/// its requests and the notifications and indications, and passes the rest back in
/// ``GATTClientStep/outputs`` for the host (PDUs to send, requests for the server).
/// Service Changed indications (§7.1) become ``GATTClientEvent/serviceChanged(_:)``.
///
/// Write Without Response and Signed Write are not procedures: they go out at once with
/// ``writeWithoutResponse(_:to:on:)`` and ``signedWrite(_:to:csrk:signCounter:on:)``.
public struct GATTClient: Sendable {
    /// «Client Characteristic Configuration» (0x2902).
    public static let clientCharacteristicConfigurationUUID = BluetoothUUID(0x2902)
    /// «Service Changed» (0x2A05).
    public static let serviceChangedUUID = BluetoothUUID(0x2A05)
    /// «Database Hash» (0x2B2A).
    public static let databaseHashUUID = BluetoothUUID(0x2B2A)

    /// The procedure running now.
    struct Running: Sendable {
        var id: GATTProcedureID
        var machine: any GATTProcedureMachine
        var request: ATTRequestID?
    }

    /// The client's fixed settings.
    public let configuration: GATTClientConfiguration
    /// Value handles of Service Changed characteristics: indications on them are read as
    /// Service Changed. Learnt from characteristic discovery; a host restoring a
    /// ``GATTCache`` may set them.
    public var serviceChangedValueHandles: Set<ATT.Handle> = []

    var running: Running?
    var queue = ATTFIFO<(GATTProcedureID, GATTProcedure)>()
    var nextProcedureNumber: UInt64 = 1

    /// A client with nothing queued.
    public init(configuration: GATTClientConfiguration = .init()) {
        self.configuration = configuration
    }

    /// Procedures waiting behind the running one.
    public var queuedProcedureCount: Int { queue.count }
    /// Whether a procedure is running.
    public var isBusy: Bool { running != nil }

    /// Queues a procedure; it starts at once when none is running.
    /// - Parameters:
    ///   - procedure: what to do.
    ///   - bearer: the connection's bearer, which carries the requests.
    ///   - now: the current time, for the bearer's transaction timer.
    /// - Returns: the procedure's identifier (its result carries it) and the first step.
    public mutating func start(_ procedure: GATTProcedure, on bearer: inout ATTBearer, at now: HostTime) -> (id: GATTProcedureID, step: GATTClientStep) {
        let id = GATTProcedureID(rawValue: nextProcedureNumber)
        nextProcedureNumber += 1
        queue.push((id, procedure))
        var step = GATTClientStep()
        startNext(on: &bearer, at: now, into: &step)
        return (id, step)
    }

    /// Takes the bearer's outputs (from ``ATTBearer/receive(_:at:)``, ``ATTBearer/tick(now:)``,
    /// ``ATTBearer/disconnected()``): advances the running procedure on its response,
    /// reports notifications and indications, and fails every queued procedure when the
    /// bearer closes.
    /// - Returns: the outputs the host must still act on, and the events, in order.
    public mutating func handle(_ outputs: [ATTBearerOutput], on bearer: inout ATTBearer, at now: HostTime) -> GATTClientStep {
        var step = GATTClientStep()
        for output in outputs {
            switch output {
            case let .response(request, pdu) where request == running?.request:
                advance(with: pdu, on: &bearer, at: now, into: &step)
            case let .requestFailed(request, error) where request == running?.request:
                finishRunning(.failure(GATTClientError(error)), into: &step)
                startNext(on: &bearer, at: now, into: &step)
            case let .notification(notification):
                step.events.append(.notification(handle: notification.attributeHandle, value: Array(notification.attributeValue)))
            case let .multipleNotification(notifications):
                for tuple in notifications.handleLengthValueTuples {
                    step.events.append(.notification(handle: tuple.attributeHandle, value: Array(tuple.attributeValue)))
                }
            case let .indication(indication):
                receiveIndication(indication, into: &step)
                if configuration.confirmsIndicationsAutomatically { step.outputs += bearer.confirmIndication() }
            case let .closed(reason):
                if let current = running {
                    running = nil
                    step.events.append(.completed(current.id, .failure(GATTClientError(reason))))
                }
                for (id, _) in queue.drain() { step.events.append(.completed(id, .failure(GATTClientError(reason)))) }
                step.outputs.append(output)
            default:
                step.outputs.append(output)
            }
        }
        return step
    }

    /// Writes without response (Write Command, Core 5.4, Vol 3, Part G, §4.9.1): at once,
    /// not queued behind procedures, no answer.
    /// - Returns: the bearer's outputs (the PDU to send).
    /// - Throws: ``GATTClientError/valueTooLong(length:maximum:)`` beyond ATT_MTU − 3, or
    ///   the bearer's close reason.
    public func writeWithoutResponse(_ value: [UInt8], to handle: ATT.Handle, on bearer: inout ATTBearer) throws(GATTClientError) -> [ATTBearerOutput] {
        guard value.count <= bearer.mtu - 3 else { throw .valueTooLong(length: value.count, maximum: bearer.mtu - 3) }
        do {
            return try bearer.sendCommand(ATT.WriteCommand(attributeHandle: handle, attributeValue: value[...]).encoded())
        } catch {
            throw GATTClientError(error)
        }
    }

    /// Signed Write Without Response (Core 5.4, Vol 3, Part G, §4.9.2): a Write Command
    /// signed with the CSRK and the sign counter (Part H, §2.4.5), at once, no answer. The
    /// caller keeps the counter and increments it after each signed write.
    /// - Returns: the bearer's outputs (the PDU to send).
    /// - Throws: ``GATTClientError/valueTooLong(length:maximum:)`` beyond ATT_MTU − 15, or
    ///   the bearer's close reason.
    public func signedWrite(_ value: [UInt8], to handle: ATT.Handle, csrk: UInt128, signCounter: UInt32,
                            on bearer: inout ATTBearer) throws(GATTClientError) -> [ATTBearerOutput] {
        guard value.count <= bearer.mtu - 15 else { throw .valueTooLong(length: value.count, maximum: bearer.mtu - 15) }
        let command = ATTSigning.signedWriteCommand(handle: handle, value: value, csrk: csrk, signCounter: signCounter)
        do {
            return try bearer.sendCommand(command.encoded())
        } catch {
            throw GATTClientError(error)
        }
    }

    // MARK: Running procedures

    private mutating func startNext(on bearer: inout ATTBearer, at now: HostTime, into step: inout GATTClientStep) {
        while running == nil, let (id, procedure) = queue.pop() {
            var machine = Self.machine(for: procedure, receiveMTU: bearer.configuration.receiveMTU)
            running = Running(id: id, machine: machine, request: nil)
            let first = machine.start(mtu: bearer.mtu)
            perform(first, machine: machine, on: &bearer, at: now, into: &step)
        }
    }

    private mutating func advance(with response: ATT.PDU, on bearer: inout ATTBearer, at now: HostTime, into step: inout GATTClientStep) {
        guard var machine = running?.machine else { return }
        let next = machine.advance(response, mtu: bearer.mtu)
        perform(next, machine: machine, on: &bearer, at: now, into: &step)
        startNext(on: &bearer, at: now, into: &step)
    }

    /// Sends the machine's next request, or ends the procedure.
    private mutating func perform(_ next: GATTProcedureStep, machine: any GATTProcedureMachine, on bearer: inout ATTBearer,
                                  at now: HostTime, into step: inout GATTClientStep) {
        switch next {
        case let .request(pdu):
            do {
                let (request, outputs) = try bearer.sendRequest(pdu, at: now)
                running?.machine = machine
                running?.request = request
                step.outputs += outputs
            } catch {
                finishRunning(.failure(GATTClientError(error)), into: &step)
            }
        case let .finish(result):
            finishRunning(result, into: &step)
        }
    }

    private mutating func finishRunning(_ result: Result<GATTClientResult, GATTClientError>, into step: inout GATTClientStep) {
        guard let current = running else { return }
        running = nil
        if case let .success(.characteristics(found)) = result {
            for characteristic in found where characteristic.uuid == Self.serviceChangedUUID {
                serviceChangedValueHandles.insert(characteristic.valueHandle)
            }
        }
        step.events.append(.completed(current.id, result))
    }

    private func receiveIndication(_ indication: ATT.HandleValueIndication, into step: inout GATTClientStep) {
        let value = Array(indication.attributeValue)
        step.events.append(.indication(handle: indication.attributeHandle, value: value))
        guard serviceChangedValueHandles.contains(indication.attributeHandle) else { return }
        // The value is the affected range (§7.1); a malformed one means "everything".
        if value.count == 4 {
            let start = UInt16(value[0]) | UInt16(value[1]) << 8
            let end = UInt16(value[2]) | UInt16(value[3]) << 8
            step.events.append(.serviceChanged(start <= end ? start ... end : 0x0001 ... 0xFFFF))
        } else {
            step.events.append(.serviceChanged(0x0001 ... 0xFFFF))
        }
    }

    static func machine(for procedure: GATTProcedure, receiveMTU: Int) -> any GATTProcedureMachine {
        switch procedure {
        case .exchangeMTU: return ExchangeMTUMachine(receiveMTU: receiveMTU)
        case .discoverAllPrimaryServices: return PrimaryServiceDiscovery(uuid: nil)
        case let .discoverPrimaryServices(uuid): return PrimaryServiceDiscovery(uuid: uuid)
        case let .findIncludedServices(range): return IncludedServiceDiscovery(range: range)
        case let .discoverAllCharacteristics(range): return CharacteristicDiscovery(range: range, uuid: nil)
        case let .discoverCharacteristics(uuid, range): return CharacteristicDiscovery(range: range, uuid: uuid)
        case let .discoverAllDescriptors(characteristic): return DescriptorDiscovery(characteristic: characteristic)
        case let .read(handle): return ReadMachine(handle: handle)
        case let .readLong(handle): return ReadLongMachine(handle: handle)
        case let .readMultiple(handles): return ReadMultipleMachine(handles: handles)
        case let .readMultipleVariable(handles): return ReadMultipleVariableMachine(handles: handles)
        case let .readUsingCharacteristicUUID(uuid, range): return ReadByUUIDMachine(uuid: uuid, range: range)
        case let .write(handle, value): return WriteMachine(handle: handle, value: value)
        case let .writeLong(handle, value): return PreparedWriteMachine(writes: [GATTHandleValue(handle: handle, value: value)])
        case let .reliableWrite(writes): return PreparedWriteMachine(writes: writes)
        }
    }
}
