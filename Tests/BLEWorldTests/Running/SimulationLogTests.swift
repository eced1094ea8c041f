import BLEController
import BLEWire
import BLEWorld
import Testing

@Suite("Simulation log lines")
struct SimulationLogTests {
    @Test("A Command Complete becomes one JSON object with time, device, event, opcode and status")
    func commandComplete() throws {
        let packet = try #require(Hex.decode("040e0401030c00"))
        let entry = try #require(SimulationLog.entry(time: 1_000_250, device: "tag \"1\"", packet: try H4.Packet(decoding: packet)))
        #expect(entry.text == #"{"time": 1.000250, "device": "tag \"1\"", "event": "commandComplete", "opcode": "0x0C03", "#
            + #""command": "\#(HCI.Opcode(rawValue: 0x0C03).name ?? "")", "status": "0x00"}"#)
    }

    @Test("An advertising report lists address, type, RSSI and data (bytes from the Bumble capture, NOTES §5.2)")
    func advertisingReport() throws {
        let bytes = try #require(Hex.decode("043e1b0201040101000000adc00f0b0942756d626c6550656572020a00ce"))
        let entry = try #require(SimulationLog.entry(time: 0, device: "local", packet: try H4.Packet(decoding: bytes)))
        #expect(entry.text == #"{"time": 0.000000, "device": "local", "event": "leAdvertisingReport", "reports": [{"address": "C0:AD:00:00:00:01", "addressType": "random", "eventType": 4, "rssi": -50, "data": "0b0942756d626c6550656572020a00"}]}"#)
        let line = try #require(SimulationLog.readableLine(time: 0, device: "local", packet: try H4.Packet(decoding: bytes)))
        #expect(line.hasPrefix("0.000000 s  local: event=leAdvertisingReport"))
    }

    @Test("Number Of Completed Packets is not of interest")
    func completedPackets() throws {
        let bytes = try #require(Hex.decode("041305010100010"+"0"))
        #expect(SimulationLog.entry(time: 0, device: "d", packet: try H4.Packet(decoding: bytes)) == nil)
    }

    @Test("Seconds print with six decimals, and strings escape control characters")
    func formatting() {
        #expect(SimulationLog.seconds(0) == "0.000000")
        #expect(SimulationLog.seconds(12_345_678) == "12.345678")
        #expect(SimulationLog.seconds(-5) == "-0.000005")
        #expect(SimulationLog.quote("a\u{1}\n") == #""a\u0001\n""#)
    }
}
