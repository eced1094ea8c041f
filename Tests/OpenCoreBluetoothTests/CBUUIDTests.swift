import Foundation
import OpenCoreBluetooth
import Testing

@Suite("CBUUID and the model types")
struct CBUUIDTests {
    @Test("A 16-bit alias equals its 128-bit form and prints short")
    func aliasEqualsFullForm() {
        let short = CBUUID(string: "180D")
        let full = CBUUID(string: "0000180d-0000-1000-8000-00805f9b34fb")
        #expect(short == full)
        #expect(short.hash == full.hash)
        #expect(full.uuidString == "180D")
        #expect(short.data == Data([0x18, 0x0D]))
    }

    @Test("A 128-bit UUID round-trips through data and NSUUID")
    func longForm() {
        let text = "9F37E282-60B6-42B1-A02F-7341DA5E2EBA"
        let uuid = CBUUID(string: text)
        #expect(uuid.uuidString == text)
        #expect(uuid.data.count == 16)
        #expect(CBUUID(data: uuid.data) == uuid)
        let nsuuid = UUID(uuidString: text)
        #expect(nsuuid.map { CBUUID(nsuuid: $0) } == uuid)
        #expect(CBUUID(validating: "not a uuid") == nil)
    }

    @Test("Keys and raw values are Apple's")
    func applesValues() {
        #expect(CBAdvertisementDataLocalNameKey == "kCBAdvDataLocalName")
        #expect(CBCentralManagerScanOptionAllowDuplicatesKey == "kCBScanOptionAllowDuplicates")
        #expect(CBCharacteristicProperties.notify.rawValue == 0x10)
        #expect(CBCharacteristicProperties.indicateEncryptionRequired.rawValue == 0x200)
        #expect(CBAttributePermissions.writeEncryptionRequired.rawValue == 0x08)
        #expect(CBManagerState.poweredOn.rawValue == 5)
        #expect(CBATTError.Code.insufficientResources.rawValue == 0x11)
        #expect(CBError.Code.peripheralDisconnected.rawValue == 7)
        let error: any Error = CBATTError(.readNotPermitted)
        #expect((error as NSError).domain == CBATTErrorDomain)
        #expect((error as NSError).code == 2)
    }

    @Test("A CBError's localizedDescription says what failed, not Foundation's 'The operation could not be completed.'")
    func errorDescription() {
        let plain = CBError(.peripheralDisconnected) as NSError
        #expect(plain.localizedDescription == "The peripheral ended the connection.")
        let explained = CBError(.connectionFailed, reason: "The controller refused it.")
        #expect(explained.localizedDescription == "The connection failed. The controller refused it.")
        #expect((explained as NSError).localizedFailureReason == "The controller refused it.")
    }
}
