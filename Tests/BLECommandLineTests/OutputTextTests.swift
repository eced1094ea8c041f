@testable import BLECommandLine
import BLEProfiles
import BLEWire
import Testing

@Suite("Values, errors and media state as the command line writes them")
struct OutputTextTests {
    @Test("An ATT error's code is written once: an application error's name holds it already")
    func errorCodeOnce() {
        #expect(GATTNames.describe(.writeNotPermitted) == "Write Not Permitted (0x03)")
        #expect(GATTNames.describe(ATT.ErrorCode(rawValue: 0x80)) == "Application Error 0x80")
    }

    @Test("A value shows its text when printable, its octets in words, and what a standard characteristic means")
    func values() {
        #expect(GATTValueText.line([0x64]) == "64 (1 octet)")
        #expect(GATTValueText.line(Array("Swif".utf8)) == "53776966 \"Swif\" (4 octets)")
        #expect(GATTValueText.line([]) == "(empty)")
        #expect(GATTValueText.decoded([100], of: BluetoothUUID(0x2A19)) == "100 %")
        #expect(GATTValueText.decoded([101], of: BluetoothUUID(0x2A19)) == nil)
        #expect(GATTValueText.decoded([0x00, 72], of: BluetoothUUID(0x2A37)) == "72 bpm")
        #expect(GATTValueText.decoded([0x01, 0x2C, 0x01], of: BluetoothUUID(0x2A37)) == "300 bpm")
        #expect(GATTValueText.decoded([1], of: BluetoothUUID(0x2A38)) == "Chest")
        #expect(GATTValueText.decoded([0xF4], of: BluetoothUUID(0x2A07)) == "-12 dBm")
        #expect(GATTValueText.decoded([1], of: BluetoothUUID(0x2A29)) == nil)
    }

    @Test("AMS playback info is written as words, not the raw state,rate,elapsed")
    func playback() throws {
        let info = try #require(AMS.PlaybackInfo("1,1.0,12.500"))
        #expect(AMSConsumerCommand.playbackText(info) == "playing, rate 1.0, 12.500 s in")
        #expect(AMSConsumerCommand.stateName(0) == "paused")
        #expect(AMSConsumerCommand.stateName(9) == "9")
    }
}
