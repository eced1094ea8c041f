import BLEController
import BLEWire
import Foundation

extension World {
    /// Answers SwiftBLE's vendor Read Simulated Location command (``HCI/ReadSimulatedLocation``)
    /// for `device` from the world itself, as a phone's location hardware knows where the
    /// phone is; returns whether `packet` was that command. Any other packet goes on to the
    /// device's controller.
    func answerLocationCommand(_ packet: H4.Packet, device: Int) -> Bool {
        guard case let .command(command) = packet, command.opcode == HCI.ReadSimulatedLocation.opcode else { return false }
        let answer: [UInt8]
        if command.parameters.isEmpty {
            answer = locationReturnParameters(of: DeviceID(rawValue: device)).encoded()
        } else {
            answer = HCI.StatusReturnParameters(status: .invalidHCICommandParameters).encoded()
        }
        let complete = HCI.CommandComplete(numHCICommandPackets: 1, opcode: command.opcode, returnParameters: answer[...])
        carryOut([.hci(.event(HCI.Event.commandComplete(complete).packet))], from: device)
        return true
    }

    /// Where `device` is now, as the vendor command reports it.
    func locationReturnParameters(of device: DeviceID) -> HCI.ReadSimulatedLocation.ReturnParameters {
        let position = position(of: device)
        // World headings are mathematical (0° along +x, counter-clockwise); compass headings
        // are clockwise from north (+y).
        var compass = (90 - heading(of: device)).truncatingRemainder(dividingBy: 360)
        if compass < 0 { compass += 360 }
        let origin = configuration.geographicOrigin
        return HCI.ReadSimulatedLocation.ReturnParameters(
            status: .success, hasOrigin: origin != nil,
            xMillimetres: Self.millimetres(position.x), yMillimetres: Self.millimetres(position.y),
            zMillimetres: Self.millimetres(position.z),
            headingCentidegrees: UInt16(min(35_999, (compass * 100).rounded())),
            originLatitude: Int32((origin?.latitude ?? 0) * 1e7), originLongitude: Int32((origin?.longitude ?? 0) * 1e7))
    }

    private static func millimetres(_ metres: Double) -> Int32 {
        Int32(clamping: Int64((metres * 1000).rounded()))
    }
}
