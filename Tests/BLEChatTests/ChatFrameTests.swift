import BLEChat
import Foundation
import Testing

@Suite("Chat frames and advertisements")
struct ChatFrameTests {
    @Test("A fragment encodes its header little-endian and decodes to itself")
    func fragmentBytes() throws {
        let frame = ChatFrame.fragment(sequence: 0x0102_0304, length: 0x0506, offset: 0x0002, payload: Data([0xAA, 0xBB]))
        #expect([UInt8](frame.encoded) == [0x01, 0x04, 0x03, 0x02, 0x01, 0x06, 0x05, 0x02, 0x00, 0xAA, 0xBB])
        #expect(try ChatFrame(decoding: frame.encoded) == frame)
    }

    @Test("Acknowledgements and heartbeats carry the next expected sequence")
    func controlFrames() throws {
        #expect([UInt8](ChatFrame.acknowledgement(nextExpected: 7).encoded) == [0x02, 7, 0, 0, 0])
        #expect([UInt8](ChatFrame.heartbeat(nextExpected: 0x100).encoded) == [0x03, 0, 1, 0, 0])
        #expect(try ChatFrame(decoding: Data([0x03, 0, 1, 0, 0])) == .heartbeat(nextExpected: 256))
    }

    @Test("Malformed frames are refused with a typed error")
    func malformed() {
        #expect(throws: ChatFrame.DecodingError.malformed) { try ChatFrame(decoding: Data()) }
        #expect(throws: ChatFrame.DecodingError.malformed) { try ChatFrame(decoding: Data([0x01, 0, 0])) }
        #expect(throws: ChatFrame.DecodingError.malformed) { try ChatFrame(decoding: Data([0x02, 0, 0])) }
        // Two payload bytes at offset 1 of a 2-byte message reach past its end.
        #expect(throws: ChatFrame.DecodingError.malformed) {
            try ChatFrame(decoding: Data([0x01, 0, 0, 0, 0, 2, 0, 1, 0, 9, 9]))
        }
        #expect(throws: ChatFrame.DecodingError.unknownKind(0x7F)) { try ChatFrame(decoding: Data([0x7F])) }
    }

    @Test("The local name carries the display name, the device ID and an invitation")
    func advertisementName() throws {
        let plain = ChatAdvertisement(name: "Alice", device: ChatDeviceID(rawValue: 0x0A1B_2C3D))
        #expect(plain.localName == "Alice#0A1B2C3D")
        #expect(ChatAdvertisement(localName: "Alice#0A1B2C3D") == plain)
        let inviting = ChatAdvertisement(name: "Bob", device: ChatDeviceID(rawValue: 1), invites: ChatDeviceID(rawValue: 0xFFFF_FFFF))
        #expect(inviting.localName == "Bob#00000001>FFFFFFFF")
        #expect(ChatAdvertisement(localName: inviting.localName) == inviting)
    }

    @Test("A long name is cut so the local name fits a scan response")
    func advertisementBudget() {
        let long = ChatAdvertisement(name: "Bartholomew the Great", device: ChatDeviceID(rawValue: 5),
                                     invites: ChatDeviceID(rawValue: 6))
        #expect(long.name == "Bartholomew")
        #expect(long.localName.utf8.count <= 29)
        let accented = ChatAdvertisement(name: "ÉléonoreÉléonore", device: ChatDeviceID(rawValue: 5))
        #expect(accented.name.utf8.count <= ChatAdvertisement.maximumNameBytes)
        #expect(accented.name == "Éléonore")
    }

    @Test("Names that are not a chat device's are not decoded")
    func foreignNames() {
        #expect(ChatAdvertisement(localName: "Heart Rate") == nil)
        #expect(ChatAdvertisement(localName: "x#12345") == nil)
        #expect(ChatAdvertisement(localName: "x#0000000G") == nil)
        #expect(ChatAdvertisement(localName: "x#00000001>") == nil)
        #expect(ChatAdvertisement(localName: "x#00000001>2>3") == nil)
    }
}
