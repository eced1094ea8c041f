import BLETransport
import Testing

@Suite("Transport errors")
struct TransportErrorTests {
    @Test("A transport error prints as its sentence")
    func sentence() {
        #expect(TransportError("tcp:127.0.0.1:1 refused the connection", errno: 111).description
            == "tcp:127.0.0.1:1 refused the connection")
    }
}
