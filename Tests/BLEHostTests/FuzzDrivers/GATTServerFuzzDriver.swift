import BLEHost
import BLEWire

/// The `gatt-server` stateful fuzz target (docs/fuzzing.md): two clients' ATT PDUs, the
/// app's answers to dynamic values, link security changes, notifications and
/// disconnections, in the order the input says, against a ``GATTServer`` with a database
/// of every kind of attribute. After each step it checks:
///
/// - one response per request (Core 5.4, Vol 3, Part F, §3.3.2, §3.4.1): a request is
///   answered exactly once with its response or an Error Response naming it, now or when
///   the app answers; commands, confirmations and client-bound PDUs get nothing (§3.3.3);
/// - nothing is sent that no request asked for, and an answer to a cancelled or unknown
///   app request sends nothing;
/// - every PDU fits the connection's ATT_MTU (§3.2.8), and the prepare queue never holds
///   more than its limit (§3.4.6.1);
/// - the value that needs encryption (Part C, §10.3) is never sent on an unencrypted link;
/// - after a disconnection nothing of the client is left: no record, ATT_MTU back to 23,
///   no subscription, and its pending app requests answer nothing.
struct GATTServerFuzzDriver {
    /// The two clients' connection handles.
    static let connections: [UInt16] = [0x0040, 0x0041]
    /// The prepare queue limit, small so that the fuzzer reaches it.
    static let prepareQueueLimit = 4
    /// The value readable only on an encrypted link; no four consecutive octets of it may
    /// reach an unencrypted client.
    static let secret: [UInt8] = [0xA5, 0x5A, 0xC3, 0x3C, 0x96, 0x69, 0x0F, 0xF0, 0x1E, 0xE1, 0x2D, 0xD2, 0x4B, 0xB4, 0x78, 0x87]
    static let secretUUID = BluetoothUUID(uuid128: 0x5E_C2E7_0000_1000_8000_0080_5F9B_34FB)
    static let dynamicUUID = BluetoothUUID(uuid128: 0x1234_5678_1234_5678_1234_5678_9ABC_DEF2)
    static let longUUID = BluetoothUUID(uuid128: 0x1234_5678_1234_5678_1234_5678_9ABC_DEF1)

    /// A database with stored, dynamic, long, fixed-length, protected, signed-write and
    /// subscribable values, an include and a secondary service.
    static func makeDatabase() throws -> GATTDatabase {
        try GATTDatabase(services: [
            GATTServiceDefinition(uuid: 0x180D, includes: [0x180F], characteristics: [
                GATTCharacteristicDefinition(uuid: 0x2A37, properties: [.notify, .indicate], permissions: [], value: .stored([0x06, 0x48])),
                GATTCharacteristicDefinition(uuid: 0x2A38, properties: .read, value: .stored([0x01]), descriptors: [
                    GATTDescriptorDefinition(uuid: 0x2901, value: .stored(Array("Location".utf8))),
                ]),
                GATTCharacteristicDefinition(uuid: 0x2A39, properties: .write, permissions: .writeable, value: .stored([]), maximumLength: 1),
            ]),
            GATTServiceDefinition(uuid: BluetoothUUID(uuid128: 0x1234_5678_1234_5678_1234_5678_9ABC_DEF0), characteristics: [
                GATTCharacteristicDefinition(uuid: longUUID, properties: [.read, .writeWithoutResponse, .write, .notify, .indicate],
                                             extendedProperties: .reliableWrite, permissions: .readWrite,
                                             value: .stored((0 ..< 100).map { UInt8($0) })),
                GATTCharacteristicDefinition(uuid: dynamicUUID, properties: [.read, .write, .writeWithoutResponse], permissions: .readWrite,
                                             value: .dynamic),
                GATTCharacteristicDefinition(uuid: secretUUID, properties: .read, permissions: [.readable, .readEncryptionRequired],
                                             value: .stored(secret), minimumKeySize: 16),
                GATTCharacteristicDefinition(uuid: 0x2A6F, properties: .write, permissions: [.writeable, .writeAuthenticationRequired],
                                             value: .stored([0x00])),
                GATTCharacteristicDefinition(uuid: 0x2A70, properties: .read, permissions: [.readable, .readAuthorizationRequired],
                                             value: .stored([0x11])),
                GATTCharacteristicDefinition(uuid: 0x2A71, properties: [.write, .authenticatedSignedWrites], permissions: .writeable,
                                             value: .stored([0x00])),
                GATTCharacteristicDefinition(uuid: 0x2A72, properties: [.broadcast, .read], value: .stored([0x05])),
            ]),
            GATTServiceDefinition(uuid: 0x180F, isPrimary: false, characteristics: [
                GATTCharacteristicDefinition(uuid: 0x2A19, properties: [.read, .notify], value: .stored([0x64])),
            ]),
        ])
    }

    /// Requests a client sends to a server (§3.4): each is answered once.
    static let requestOpcodes: Set<UInt8> = [0x02, 0x04, 0x06, 0x08, 0x0A, 0x0C, 0x0E, 0x10, 0x12, 0x16, 0x18, 0x20]
    /// Responses, notifications and indications: a server ignores them.
    static let clientBoundOpcodes: Set<UInt8> = [0x01, 0x03, 0x05, 0x07, 0x09, 0x0B, 0x0D, 0x0F, 0x11, 0x13, 0x17, 0x19, 0x1B, 0x1D, 0x21, 0x23]

    /// A request waiting for the app: its opcode and the app requests it is parked on.
    struct Outstanding {
        var opcode: UInt8
        var handle: ATT.Handle
    }

    var server: GATTServer
    var step = 0
    var security: [UInt16: LinkSecurity] = [:]
    /// Per connection, the request the server still owes an answer.
    var outstanding: [UInt16: Outstanding] = [:]
    /// App requests handed out and not yet answered, with their connection.
    var appRequests: [(id: GATTAppRequest.ID, connection: UInt16, expectsResponse: Bool)] = []
    /// Prepare Write Responses since the last Execute Write or disconnection.
    var prepared: [UInt16: Int] = [:]
    /// Records returned at disconnection, for a bonded reconnection.
    var records: [GATTServerClientRecord] = []

    init() throws {
        server = GATTServer(database: try GATTServerFuzzDriver.makeDatabase(),
                            configuration: GATTServer.Configuration(receiveMTU: 517, prepareQueueLimit: GATTServerFuzzDriver.prepareQueueLimit))
    }

    /// Requests answered with their own response (not an error) so far: how deep the input reached.
    var successes = 0

    /// Runs one input; throws the first broken invariant.
    /// - Returns: how many requests got their own response.
    @discardableResult
    static func run(_ octets: [UInt8]) throws(StatefulFuzzViolation) -> Int {
        guard var driver = try? GATTServerFuzzDriver() else {
            throw StatefulFuzzViolation(step: 0, message: "the fuzz database does not build")
        }
        var input = StatefulFuzzInput(octets)
        while !input.isAtEnd, driver.step < 512 {
            try driver.perform(&input)
            driver.step += 1
        }
        return driver.successes
    }

    func fail(_ message: String) -> StatefulFuzzViolation {
        StatefulFuzzViolation(step: step, message: message)
    }

    /// Reads one operation from `input`, applies it and checks the invariants.
    mutating func perform(_ input: inout StatefulFuzzInput) throws(StatefulFuzzViolation) {
        let operation = input.byte()
        let connection = GATTServerFuzzDriver.connections[Int(operation >> 7)]
        switch (operation & 0x7F) % 12 {
        case 0 ... 4:
            try receive(input.chunk(), from: connection)
        case 5, 6:
            try answerApp(&input)
        case 7:
            try disconnect(connection)
        case 8:
            let choice = input.byte()
            let level = LinkSecurityLevel.allCases[Int(choice) % LinkSecurityLevel.allCases.count]
            security[connection] = level == .none ? .unencrypted : LinkSecurity(level: level, keySize: 7 + Int(choice >> 2) % 10, hasKey: true)
        case 9:
            server.setAuthorization(input.byte() & 1 == 1, for: connection)
        case 10:
            try notify(input.uint16(), value: input.chunk(), connection: connection)
        default:
            if let record = records.last, input.byte() & 1 == 1 { server.restore(record, for: connection) }
            else { server.setMTU(Int(input.uint16()), for: connection) }
        }
        try checkPrepareQueue()
    }

    /// A PDU from a client, and the answer rules.
    mutating func receive(_ pdu: [UInt8], from connection: UInt16) throws(StatefulFuzzViolation) {
        let linkSecurity = security[connection] ?? .unencrypted
        let outputs = server.handle(pdu, from: connection, security: linkSecurity)
        try checkSends(outputs, connection: connection)
        guard let opcode = pdu.first else {
            if !outputs.isEmpty { throw fail("an empty PDU produced \(outputs)") }
            return
        }
        let sends = outputs.sent(to: connection)
        let isRequest = GATTServerFuzzDriver.requestOpcodes.contains(opcode)
            || (opcode & 0x40 == 0 && opcode != 0x1E && !GATTServerFuzzDriver.clientBoundOpcodes.contains(opcode))
        recordAppRequests(outputs)
        guard isRequest else {
            if !sends.isEmpty { throw fail("opcode \(hexByte(opcode)) is not a request but was answered with \(sends)") }
            return
        }
        // A new well-formed request other than Exchange MTU replaces one parked on the app (a
        // client has one outstanding, §3.3.2); Exchange MTU and a malformed request are
        // answered beside it, and the parked one is still owed its answer.
        if opcode != 0x02, (try? ATT.PDU(decoding: pdu)) != nil { outstanding[connection] = nil }
        let parked = outputs.contains { output in
            switch output {
            case let .appRead(request), let .appWrite(request): return request.expectsResponse && request.connection == connection
            default: return false
            }
        }
        let handle = pdu.count >= 3 ? ATT.Handle(pdu[1]) | ATT.Handle(pdu[2]) << 8 : 0
        switch (sends.count, parked) {
        case (1, false):
            try checkAnswer(sends[0], to: opcode, handle: handle, connection: connection)
        case (0, true):
            outstanding[connection] = Outstanding(opcode: opcode, handle: handle)
        default:
            throw fail("request \(hexByte(opcode)) got \(sends.count) answers (parked on the app: \(parked)): \(outputs)")
        }
    }

    /// The app answers one of its pending requests, or a stale one.
    mutating func answerApp(_ input: inout StatefulFuzzInput) throws(StatefulFuzzViolation) {
        let choice = Int(input.byte())
        let result: Result<[UInt8], ATT.ErrorCode> = input.byte() & 1 == 0 ? .success(input.chunk()) : .failure(ATT.ErrorCode(rawValue: input.byte()))
        guard !appRequests.isEmpty else {
            let outputs = server.respond(to: GATTAppRequest.ID(choice), with: result)
            if !outputs.isEmpty { throw fail("an answer to unknown app request \(choice) produced \(outputs)") }
            return
        }
        let request = appRequests.remove(at: choice % appRequests.count)
        let outputs = server.respond(to: request.id, with: result, security: security[request.connection] ?? .unencrypted)
        try checkSends(outputs, connection: request.connection)
        recordAppRequests(outputs)
        let sends = outputs.sent(to: request.connection)
        guard !sends.isEmpty else { return }
        guard sends.count == 1, let owed = outstanding.removeValue(forKey: request.connection) else {
            throw fail("an app answer sent \(sends.count) PDUs with no request outstanding on \(request.connection)")
        }
        try checkAnswer(sends[0], to: owed.opcode, handle: owed.handle, connection: request.connection)
        if outputs.contains(where: { if case .appRead = $0 { true } else if case .appWrite = $0 { true } else { false } }) {
            throw fail("an app answer both completed a request and asked the app again: \(outputs)")
        }
    }

    /// The connection ends: nothing of the client may remain.
    mutating func disconnect(_ connection: UInt16) throws(StatefulFuzzViolation) {
        if let record = server.disconnected(connection) { records = Array((records + [record]).suffix(4)) }
        outstanding[connection] = nil
        prepared[connection] = nil
        security[connection] = nil
        if server.clientRecord(for: connection) != nil { throw fail("a record of \(connection) survived its disconnection") }
        if server.mtu(for: connection) != GATTServer.defaultMTU { throw fail("ATT_MTU of \(connection) survived its disconnection") }
        for characteristic in server.database.characteristics where server.subscriptions(of: characteristic.valueHandle).contains(where: { $0.connection == connection }) {
            throw fail("a subscription of \(connection) survived its disconnection")
        }
        let stale = appRequests.filter { $0.connection == connection }
        appRequests.removeAll { $0.connection == connection }
        for request in stale {
            let outputs = server.respond(to: request.id, with: .success([0x00]))
            if !outputs.isEmpty { throw fail("app request \(request.id) of a disconnected client produced \(outputs)") }
        }
    }

    /// The app notifies or indicates a value: the PDU fits ATT_MTU.
    mutating func notify(_ handle: UInt16, value: [UInt8], connection: UInt16) throws(StatefulFuzzViolation) {
        let valueHandle = server.database.characteristics.isEmpty ? handle
            : server.database.characteristics[Int(handle) % server.database.characteristics.count].valueHandle
        let pdus = [server.notification(of: valueHandle, value: value.isEmpty ? nil : value, for: connection),
                    server.indication(of: valueHandle, value: value.isEmpty ? nil : value, for: connection)]
        for pdu in pdus.compactMap({ $0 }) where pdu.count > server.mtu(for: connection) {
            throw fail("a \(pdu.count)-octet handle value PDU exceeds ATT_MTU \(server.mtu(for: connection))")
        }
    }

    /// Keeps the app requests the app still has to answer.
    mutating func recordAppRequests(_ outputs: [GATTServerOutput]) {
        for output in outputs {
            switch output {
            case let .appRead(request), let .appWrite(request):
                appRequests.append((request.id, request.connection, request.expectsResponse))
            default:
                break
            }
        }
        if appRequests.count > 64 { appRequests.removeFirst(appRequests.count - 64) }
    }

    /// Every send goes to `connection`, fits its ATT_MTU, and leaks no secret when unencrypted.
    func checkSends(_ outputs: [GATTServerOutput], connection: UInt16) throws(StatefulFuzzViolation) {
        for case let .send(to, pdu) in outputs {
            if to != connection { throw fail("a PDU for \(connection)'s input went to \(to)") }
            if pdu.count > server.mtu(for: to) { throw fail("a \(pdu.count)-octet PDU exceeds ATT_MTU \(server.mtu(for: to))") }
            if !(security[to] ?? .unencrypted).isEncrypted {
                let secret = GATTServerFuzzDriver.secret
                for start in 0 ... secret.count - 4 where pdu.containsRun(secret[start ..< start + 4]) {
                    throw fail("the encrypted-only value reached an unencrypted link in \(pdu)")
                }
            }
        }
    }

    /// `answer` is `opcode`'s response or an Error Response naming `opcode` (§3.4.1.1);
    /// a read of the protected value on an unencrypted link is an error.
    mutating func checkAnswer(_ answer: [UInt8], to opcode: UInt8, handle: ATT.Handle, connection: UInt16) throws(StatefulFuzzViolation) {
        guard let first = answer.first else { throw fail("an empty answer to \(hexByte(opcode))") }
        if first == 0x01 {
            guard answer.count == 5, answer[1] == opcode else { throw fail("Error Response \(answer) does not name request \(hexByte(opcode))") }
            if opcode == 0x16 { prepared[connection] = prepared[connection] ?? 0 }
            if opcode == 0x18 { prepared[connection] = 0 }
            return
        }
        let expected: UInt8 = GATTServerFuzzDriver.requestOpcodes.contains(opcode) ? opcode + 1 : 0x01
        if first != expected { throw fail("request \(hexByte(opcode)) was answered with opcode \(hexByte(first))") }
        successes += 1
        if opcode == 0x16 { prepared[connection, default: 0] += 1 }
        if opcode == 0x18 { prepared[connection] = 0 }
        if (opcode == 0x0A || opcode == 0x0C), handle == server.database.valueHandle(of: GATTServerFuzzDriver.secretUUID),
           !(security[connection] ?? .unencrypted).isEncrypted {
            throw fail("a read of the encrypted-only value succeeded on an unencrypted link")
        }
    }

    /// No client has more prepared writes accepted than the limit.
    func checkPrepareQueue() throws(StatefulFuzzViolation) {
        for (connection, count) in prepared where count > GATTServerFuzzDriver.prepareQueueLimit {
            throw fail("\(count) prepared writes accepted on \(connection), limit \(GATTServerFuzzDriver.prepareQueueLimit)")
        }
    }
}

extension [GATTServerOutput] {
    /// The PDUs sent to `connection`, in order.
    func sent(to connection: UInt16) -> [[UInt8]] {
        compactMap { if case let .send(to, pdu) = $0, to == connection { return pdu } else { return nil } }
    }
}

/// `value` as `0xNN`.
func hexByte(_ value: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return "0x" + String([digits[Int(value >> 4)], digits[Int(value & 0xF)]])
}
