import BLEHost
import BLEWire
import Testing

@Suite("GATT server: unknown and malformed PDUs")
struct GATTServerMalformedInputTests {
    @Test("An unknown request opcode returns Request Not Supported naming it")
    func unknownRequest() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("14 0100") == hex("01 14 0000 06"))
        #expect(server.answer("3F") == hex("01 3F 0000 06"))
        #expect(server.answer("22 0100 0200") == hex("01 22 0000 06"))
    }

    @Test("An unknown command (opcode bit 6 set) is ignored")
    func unknownCommand() throws {
        var server = try GATTFixture.server()
        for pdu in ["7F", "40 0100", "53 0100 02", "C0", "FF 00"] {
            #expect(server.handle(hex(pdu), from: 0x40, security: .unencrypted) == [])
        }
    }

    @Test("Client-bound PDUs and an empty PDU are not answered")
    func clientBound() throws {
        var server = try GATTFixture.server()
        for pdu in ["", "01 0A 0300 01", "03 1700", "0B 01", "1B 0300 01", "1D 0300 01", "13", "19", "05 01", "1E 00"] {
            #expect(server.handle(hex(pdu), from: 0x40, security: .unencrypted).sentPDUs.isEmpty)
        }
    }

    /// One well-formed request of every kind.
    static let requests = [
        "02 0002", "04 0100 FFFF", "06 0100 FFFF 0028 0D18", "08 0100 FFFF 0328", "0A 0300", "0C 1A00 0100",
        "0E 0300 1400", "10 0100 FFFF 0028", "12 1A00 0102", "16 1A00 0000 01", "18 01", "20 0300 1400",
    ]

    @Test("Every truncation of every request gets a response or an Error Response naming the request")
    func truncated() throws {
        for request in Self.requests {
            let octets = hex(request)
            for length in 1 ..< octets.count {
                var server = try GATTFixture.server()
                let outputs = server.handle(Array(octets.prefix(length)), from: 0x40, security: .unencrypted)
                let sent = outputs.sentPDUs
                #expect(sent.count == 1, "\(request) cut to \(length)")
                guard let pdu = sent.first else { continue }
                if pdu.first == 0x01 {
                    #expect(pdu.count == 5 && pdu[1] == octets[0], "\(request) cut to \(length)")
                } else {
                    #expect(pdu.first == octets[0] + 1, "\(request) cut to \(length)")
                }
            }
        }
    }

    @Test("A Prepare Write Request longer than ATT_MTU gets Invalid PDU: neither queued nor echoed past the MTU")
    func longerThanMTU() throws {
        // Found by the gatt-server stateful fuzz target: a 33-octet Prepare Write Request at
        // ATT_MTU 23 was queued and echoed in a 33-octet response (Core 5.4, Vol 3, Part F, §3.2.8).
        var server = try GATTFixture.server()
        let part = "16 1A00 0000" + String(repeating: " AB", count: 28)
        #expect(hex(part).count == 33)
        #expect(server.answer(part) == hex("01 16 1A00 04"))
        #expect(server.answer("18 01") == hex("19"), "nothing was queued")
        #expect(server.value(at: 0x1A) == GATTFixture.longValue)
        // At ATT_MTU 23 the longest Prepare Write still fits and is echoed whole.
        let fits = "16 1A00 0000" + String(repeating: " AB", count: 18)
        #expect(server.answer(fits) == hex("17 1A00 0000" + String(repeating: " AB", count: 18)))
    }

    @Test("Random PDUs never trap: requests get exactly one answer or one app request, commands none")
    func random() throws {
        var random = L2CAPTestRandom(seed: 0x6A77)
        var server = try GATTFixture.server()
        server.setSigningKey(0x1234, counter: 0, for: 0x40)
        for round in 0 ..< 5000 {
            var pdu = random.bytes(Int(random.next() % 40))
            if round % 2 == 0, !pdu.isEmpty {
                // Half the time a real opcode, so the decoders see plausible input.
                let opcodes: [UInt8] = [0x02, 0x04, 0x06, 0x08, 0x0A, 0x0C, 0x0E, 0x10, 0x12, 0x16, 0x18, 0x20, 0x52, 0xD2, 0x1E]
                pdu[0] = opcodes[Int(random.next() % UInt64(opcodes.count))]
                if pdu.count > 2, round % 4 == 0 { pdu[1] = UInt8(random.next() % 0x30); pdu[2] = 0 }
            }
            let outputs = server.handle(pdu, from: 0x40, security: .unencrypted)
            guard let opcode = pdu.first else {
                #expect(outputs.isEmpty)
                continue
            }
            // An Execute Write may hand several parts to the app: that is one pending answer.
            let waitsForApp = !outputs.appReads.isEmpty || outputs.appWrites.contains(where: \.expectsResponse)
            let answers = outputs.sentPDUs.count + (waitsForApp ? 1 : 0)
            if opcode & 0x40 != 0 {
                #expect(outputs.sentPDUs.isEmpty, "command \(pdu)")
            } else if ![0x01, 0x03, 0x05, 0x07, 0x09, 0x0B, 0x0D, 0x0F, 0x11, 0x13, 0x17, 0x19, 0x1B, 0x1D, 0x1E, 0x21, 0x23].contains(opcode) {
                #expect(answers == 1, "request \(pdu)")
            }
            for request in outputs.appReads + outputs.appWrites where request.expectsResponse {
                _ = server.respond(to: request.id, with: round % 3 == 0 ? .failure(.unlikelyError) : .success(random.bytes(5)))
            }
        }
    }
}
