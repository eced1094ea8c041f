import BLEWire

/// The GATT server of one ``GATTDatabase`` (Core 5.4, Vol 3, Part G; the server role of
/// Part F), sans-IO: it takes ATT PDUs from clients and the app's answers, and returns
/// what to send and what happened as ``GATTServerOutput`` values. It keeps per-client
/// state keyed by connection handle: ATT_MTU, Client Characteristic Configurations,
/// Client Supported Features, the prepare-write queue, authorization and the signing key.
///
/// The bearer around it paces notifications and indications and enforces one outstanding
/// indication; the server only builds their PDUs (see `notification(of:value:for:)`).
public struct GATTServer: Sendable {
    /// Limits the server applies.
    public struct Configuration: Hashable, Sendable {
        /// The server's receive MTU, sent in Exchange MTU Responses (23–517; §3.4.2.2).
        public var receiveMTU: Int
        /// How many Prepare Write Requests a client may queue before Prepare Queue Full.
        public var prepareQueueLimit: Int

        /// A configuration; by default MTU 517 and 64 prepared writes.
        public init(receiveMTU: Int = 517, prepareQueueLimit: Int = 64) {
            self.receiveMTU = min(max(receiveMTU, GATTServer.defaultMTU), 517)
            self.prepareQueueLimit = max(prepareQueueLimit, 1)
        }
    }

    /// ATT_MTU before an exchange (Core 5.4, Vol 3, Part F, §3.2.8; Part G, §5.2.1).
    public static let defaultMTU = 23

    /// The attributes and their current stored values.
    public internal(set) var database: GATTDatabase
    /// The limits in force.
    public let configuration: Configuration
    /// Signed Write Commands dropped without an answer (§4.9.2; Part C, §10.4.2): no CSRK
    /// for the client, a replayed SignCounter, a signature that does not verify, or a
    /// characteristic without the authenticated-signed-writes property.
    public internal(set) var signedWritesDropped = 0
    var clients: [UInt16: ClientState] = [:]
    var pendingApp: [GATTAppRequest.ID: UInt16] = [:]
    var nextRequestID: GATTAppRequest.ID = 1

    /// A server for `database`.
    public init(database: GATTDatabase, configuration: Configuration = Configuration()) {
        self.database = database
        self.configuration = configuration
    }

    /// Handles one ATT PDU received on `connection` (Core 5.4, Vol 3, Part F, §3.4).
    ///
    /// Requests are answered (possibly later, when the app answers a dynamic value);
    /// commands are never answered, even when they fail (§3.4.5.3). An undecodable request
    /// gets Invalid PDU; an opcode no request has gets Request Not Supported unless its
    /// command flag is set (§3.3). PDUs meant for the client role (responses,
    /// notifications, indications) return nothing: route them to the client by opcode.
    /// - Parameters:
    ///   - pdu: the ATT PDU, opcode first.
    ///   - connection: the client's connection handle.
    ///   - security: the link's security now, for the permission checks.
    public mutating func handle(_ pdu: [UInt8], from connection: UInt16, security: LinkSecurity) -> [GATTServerOutput] {
        guard let first = pdu.first else { return [] }
        let opcode = ATT.Opcode(rawValue: first)
        let decoded: ATT.PDU
        do {
            decoded = try ATT.PDU(decoding: pdu)
        } catch {
            if opcode.isCommand || GATTServer.clientBoundOpcodes.contains(first) { return [] }
            let code: ATT.ErrorCode = GATTServer.requestOpcodes.contains(first) ? .invalidPDU : .requestNotSupported
            return [.send(connection: connection, pdu: GATTServer.errorResponse(opcode, 0, code))]
        }
        if clients[connection] == nil { clients[connection] = ClientState() }
        switch decoded {
        case let .exchangeMTURequest(request):
            return exchangeMTU(request, connection: connection)
        case .findInformationRequest, .findByTypeValueRequest, .readByTypeRequest, .readRequest, .readBlobRequest,
             .readMultipleRequest, .readByGroupTypeRequest, .readMultipleVariableRequest:
            cancelParked(connection)
            return runRead(decoded, connection: connection, security: security, answers: [:])
        case let .writeRequest(request):
            cancelParked(connection)
            return write(request.attributeHandle, Array(request.attributeValue), kind: .request, connection: connection, security: security)
        case let .writeCommand(command):
            return write(command.attributeHandle, Array(command.attributeValue), kind: .command, connection: connection, security: security)
        case let .signedWriteCommand(command):
            return signedWrite(command, pdu: pdu, connection: connection, security: security)
        case let .prepareWriteRequest(request):
            cancelParked(connection)
            return prepareWrite(request, connection: connection, security: security)
        case let .executeWriteRequest(request):
            cancelParked(connection)
            return executeWrite(request, connection: connection, security: security)
        case .handleValueConfirmation:
            return [.indicationConfirmed(connection: connection)]
        default:
            return []
        }
    }

    /// The app's answer to an ``GATTAppRequest``: the value from the request's offset for a
    /// read (any `success` for a write), or the ATT error to send. Answers to unknown or
    /// cancelled requests, and to commands, are ignored.
    ///
    /// - Parameter security: the link's security now. A read that waited for the app is
    ///   checked again with it before its response is built, so a value the link may no
    ///   longer read (its key changed while the app answered) gets the error its permissions
    ///   call for instead of its octets (Core 5.4, Vol 3, Part C, §10.3; Part F, §4). `nil`
    ///   checks with the security the request arrived with.
    public mutating func respond(to id: GATTAppRequest.ID, with result: Result<[UInt8], ATT.ErrorCode>,
                                 security: LinkSecurity? = nil) -> [GATTServerOutput] {
        guard let connection = pendingApp.removeValue(forKey: id), let parked = clients[connection]?.parked else { return [] }
        switch parked {
        case var .read(read):
            guard read.awaiting == id else { return [] }
            clients[connection]?.parked = nil
            read.answers[read.awaitingKey] = result
            return runRead(read.request, connection: connection, security: security ?? read.security, answers: read.answers)
        case let .write(writeID, handle):
            guard writeID == id else { return [] }
            clients[connection]?.parked = nil
            switch result {
            case .success: return [.send(connection: connection, pdu: ATT.WriteResponse().encoded())]
            case let .failure(code): return [.send(connection: connection, pdu: GATTServer.errorResponse(.writeRequest, handle, code))]
            }
        case let .execute(execute):
            return answerExecute(execute, id: id, result: result, connection: connection)
        }
    }

    /// The connection whose request waits for the app's answer `id`, if it still waits.
    public func connection(awaiting id: GATTAppRequest.ID) -> UInt16? {
        pendingApp[id]
    }

    /// Forgets a client whose connection ended: its queue, pending requests and ATT_MTU.
    /// - Returns: what a bond keeps (configurations, features, signing key), for
    ///   ``restore(_:for:)`` when a bonded peer reconnects; `nil` if the client sent nothing.
    @discardableResult
    public mutating func disconnected(_ connection: UInt16) -> GATTServerClientRecord? {
        cancelParked(connection)
        return clients.removeValue(forKey: connection)?.record
    }

    /// Gives a reconnected bonded client back what ``disconnected(_:)`` returned (Core 5.4,
    /// Vol 3, Part G, §3.3.3.3: configurations persist for bonded clients).
    public mutating func restore(_ record: GATTServerClientRecord, for connection: UInt16) {
        clients[connection, default: ClientState()].record = record
    }

    /// What a bond would keep of `connection` now.
    public func clientRecord(for connection: UInt16) -> GATTServerClientRecord? {
        clients[connection]?.record
    }

    /// Replaces a stored value (the app's side of `.stored`); `false` when `handle` holds
    /// no stored value. Notify subscribers separately (``notifications(of:value:)``).
    @discardableResult
    public mutating func setValue(_ value: [UInt8], for handle: ATT.Handle) -> Bool {
        database.replaceStoredValue(value, at: handle)
    }

    /// The stored value at `handle`, or `nil` for dynamic values and unknown handles.
    public func value(at handle: ATT.Handle) -> [UInt8]? {
        guard case let .stored(value)? = database.attribute(at: handle)?.value else { return nil }
        return value
    }

    /// ATT_MTU on `connection`: 23 until an exchange.
    public func mtu(for connection: UInt16) -> Int {
        clients[connection]?.mtu ?? GATTServer.defaultMTU
    }

    /// Sets ATT_MTU after an exchange the local client started (ATT_MTU is one per bearer,
    /// whichever side asked; Core 5.4, Vol 3, Part F, §3.4.2). Clamped to 23–517.
    public mutating func setMTU(_ mtu: Int, for connection: UInt16) {
        clients[connection, default: ClientState()].mtu = min(max(mtu, GATTServer.defaultMTU), 517)
        clients[connection]?.hasExchangedMTU = true
    }

    /// Sets the CSRK the peer on `connection` signs with and the SignCounter it must at least
    /// use next (Core 5.4, Vol 3, Part H, §2.4.5; Part C, §10.4.2). Without a key, Signed
    /// Write Commands are ignored.
    public mutating func setSigningKey(_ csrk: UInt128, counter: UInt32, for connection: UInt16) {
        clients[connection, default: ClientState()].record.signing = GATTServerSigningKey(csrk: csrk, nextCounter: UInt64(counter))
    }

    /// Grants or withdraws the app's authorization of `connection` for attributes that
    /// need it (else Insufficient Authorization; Core 5.4, Vol 3, Part F, §3.2.5).
    public mutating func setAuthorization(_ granted: Bool, for connection: UInt16) {
        clients[connection, default: ClientState()].isAuthorized = granted
    }

    /// Drops a client's parked request: a new request replaces it (a client has one
    /// outstanding at most, §3.3.2) and a late app answer is then ignored.
    mutating func cancelParked(_ connection: UInt16) {
        guard let parked = clients[connection]?.parked else { return }
        switch parked {
        case let .read(read): pendingApp[read.awaiting] = nil
        case let .write(id, _): pendingApp[id] = nil
        case let .execute(execute): for write in execute.appWrites { pendingApp[write.id] = nil }
        }
        clients[connection]?.parked = nil
    }

    /// A fresh app request id.
    mutating func makeRequestID() -> GATTAppRequest.ID {
        defer { nextRequestID &+= 1 }
        return nextRequestID
    }

    /// An Error Response (§3.4.1.1).
    static func errorResponse(_ opcode: ATT.Opcode, _ handle: ATT.Handle, _ code: ATT.ErrorCode) -> [UInt8] {
        ATT.ErrorResponse(requestOpcodeInError: opcode, attributeHandleInError: handle, errorCode: code).encoded()
    }

    /// The request opcodes of Core 5.4, Vol 3, Part F, §3.4.8, Table 3.37.
    static let requestOpcodes: Set<UInt8> = [0x02, 0x04, 0x06, 0x08, 0x0A, 0x0C, 0x0E, 0x10, 0x12, 0x16, 0x18, 0x20]
    /// Opcodes a server never answers: responses, notifications, indications, confirmations.
    static let clientBoundOpcodes: Set<UInt8> = [0x01, 0x03, 0x05, 0x07, 0x09, 0x0B, 0x0D, 0x0F, 0x11, 0x13,
                                                 0x17, 0x19, 0x1B, 0x1D, 0x1E, 0x21, 0x23]
}
