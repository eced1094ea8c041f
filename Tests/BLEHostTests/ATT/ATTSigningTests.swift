import BLEHost
import BLEWire
import Testing

/// Data signing for Signed Write Command (Core 5.4, Vol 3, Part H, §2.4.5). The vectors
/// sign prefixes of the RFC 4493 example message under the RFC 4493 key as CSRK, with
/// SignCounter 0 — the same vectors the Zephyr host checks its signing against.
@Suite("ATT signing")
struct ATTSigningTests {
    static let csrk: UInt128 = 0x2B7E_1516_28AE_D2A6_ABF7_1588_09CF_4F3C
    static let message = pdu("""
        6b c1 be e2 2e 40 9f 96 e9 3d 7e 11 73 93 17 2a ae 2d 8a 57 1e 03 ac 9c 9e b7 6f ac 45 af 8e 51
        30 c8 1c 46 a3 5c e4 11 e5 fb c1 19 1a 0a 52 ef f6 9f 24 45 df 4f 9b 17 ad 2b 41 7b e6 6c 37 10
        """)

    @Test("Signatures of 0, 16, 40 and 64 message octets match the known vectors", arguments: [
        (0, "00 00 00 00 b3 a8 59 41 27 eb c2 c0"),
        (16, "00 00 00 00 27 39 74 f4 39 2a 23 2a"),
        (40, "00 00 00 00 b7 ca 94 ab 87 c7 82 18"),
        (64, "00 00 00 00 44 e1 e6 ce 1d f5 13 68"),
    ])
    func vectors(length: Int, expected: String) {
        let signature = ATTSigning.signature(of: Self.message.prefix(length), csrk: Self.csrk, signCounter: 0)
        var writer = ByteWriter()
        writer.write(signature.signCounter)
        writer.write(signature.messageAuthenticationCode)
        #expect(writer.bytes == pdu(expected))
    }

    @Test("A signed Write Command verifies; a changed value, counter or key does not")
    func verify() throws {
        let command = ATTSigning.signedWriteCommand(handle: 0x0021, value: [1, 2, 3], csrk: Self.csrk, signCounter: 7)
        let decoded = try ATT.SignedWriteCommand(decoding: command.encoded())
        #expect(decoded.encoded().count == 1 + 2 + 3 + 12)
        #expect(ATTSigning.verify(decoded, csrk: Self.csrk))
        var altered = decoded
        altered.attributeValue = [1, 2, 4]
        #expect(!ATTSigning.verify(altered, csrk: Self.csrk))
        altered = decoded
        altered.authenticationSignature.signCounter = 8
        #expect(!ATTSigning.verify(altered, csrk: Self.csrk))
        #expect(!ATTSigning.verify(decoded, csrk: Self.csrk ^ 1))
    }
}
