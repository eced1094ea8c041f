import BLEController
import BLEWire

/// The invariants of the `controller` fuzz target, checked on every packet the device under
/// test hands its host and on its state after each input (see ``ControllerFuzzDriver``).
extension ControllerFuzzDriver {
    /// Where an event's parameters name a connection handle, by event code (and LE Meta
    /// subevent): the offset of the handle, and whether a status octet comes first
    /// (Core 5.4, Vol 4, Part E, §7.7).
    static func handleOffset(code: UInt8, parameters: [UInt8]) -> Int? {
        switch code {
        case 0x05, 0x08, 0x0C, 0x30, 0x59: return 1  // Disconnection, Encryption Change, Remote Version, Key Refresh, Encryption Change v2
        case 0x57: return 0  // Authenticated Payload Timeout Expired
        case 0x3E:
            switch parameters.first ?? 0 {
            case 0x03, 0x04, 0x0C: return 2  // Connection Update, Remote Features, PHY Update Complete
            case 0x05, 0x06, 0x07, 0x14: return 1  // LTK Request, Remote Connection Parameter Request, Data Length Change, Channel Selection
            default: return nil
            }
        default: return nil
        }
    }

    /// Checks one packet the device under test hands its host and updates the model.
    mutating func check(_ packet: H4.Packet) throws(StatefulFuzzViolation) {
        switch packet {
        case let .acl(data):
            if !live.contains(data.connectionHandle) { throw fail("ACL data to the host on handle \(data.connectionHandle), which is not connected") }
        case let .event(event):
            try check(event)
        default:
            throw fail("the controller sent its host a packet that is neither an event nor ACL data: \(packet)")
        }
    }

    /// Checks one event of the device under test and updates the model.
    mutating func check(_ event: HCI.EventPacket) throws(StatefulFuzzViolation) {
        let code = event.eventCode.rawValue
        let parameters = Array(event.parameters)
        if parameters.count > HCI.EventPacket.maximumParameterLength { throw fail("event 0x\(String(code, radix: 16)) has \(parameters.count) parameter octets") }
        func uint16(_ offset: Int) -> UInt16 {
            offset + 1 < parameters.count ? UInt16(parameters[offset]) | UInt16(parameters[offset + 1]) << 8 : 0xFFFF
        }
        switch code {
        case 0x0E, 0x0F:  // Command Complete, Command Status
            guard parameters.count >= (code == 0x0E ? 3 : 4) else { throw fail("a short command event: \(parameters)") }
            let opcode = uint16(code == 0x0E ? 1 : 2)
            if opcode == 0, commandInHand != 0 { return }  // credits only
            guard opcode == commandInHand else { throw fail("Command Complete/Status for 0x\(String(opcode, radix: 16)), which was not just sent") }
            answersToCommand += 1
            let status = code == 0x0F ? parameters[0] : parameters.count > 3 ? parameters[3] : 0
            if code == 0x0F || parameters.count > 3, case .unlisted = HCI.StatusCode(rawValue: status) {
                throw fail("command 0x\(String(opcode, radix: 16)) answered with unlisted status 0x\(String(status, radix: 16))")
            }
            if opcode == 0x0C03, status == 0 {  // Reset: every link is gone, without Disconnection Complete (§7.3.2)
                live = []
                outstanding = [:]
            }
        case 0x13:  // Number Of Completed Packets
            let count = Int(parameters.first ?? 0)
            guard parameters.count == 1 + 4 * count else { throw fail("a malformed Number Of Completed Packets: \(parameters)") }
            for index in 0 ..< count {
                let handle = uint16(1 + 4 * index) & 0x0FFF
                let completed = Int(uint16(3 + 4 * index))
                guard live.contains(handle) else { throw fail("Number Of Completed Packets for handle \(handle), which is not connected") }
                let sent = outstanding[handle, default: 0]
                if completed > sent { throw fail("\(completed) packets completed on handle \(handle), \(sent) outstanding") }
                outstanding[handle] = sent - completed
            }
        case 0x3E where [0x01, 0x0A].contains(parameters.first ?? 0):  // LE (Enhanced) Connection Complete
            guard parameters.count >= 4 else { throw fail("a short LE Connection Complete") }
            guard parameters[1] == 0 else { return }
            let handle = uint16(2) & 0x0FFF
            if handle > 0x0EFF { throw fail("connection handle \(handle) is out of range") }
            if live.contains(handle) { throw fail("a connection completed on handle \(handle), which is in use") }
            live.insert(handle)
            outstanding[handle] = 0
            connectionsMade += 1
        default:
            guard let offset = ControllerFuzzDriver.handleOffset(code: code, parameters: parameters) else { return }
            let handle = uint16(offset) & 0x0FFF
            guard live.contains(handle) else {
                throw fail("event 0x\(String(code, radix: 16)) \(parameters.prefix(3)) for handle \(handle), which is not connected")
            }
            if code == 0x05, parameters.first == 0 {
                live.remove(handle)
                outstanding[handle] = nil
                if controllers[0].connectionHandles.contains(handle) { throw fail("handle \(handle) is still held after its Disconnection Complete") }
            }
        }
    }

    /// The device under test's links agree with the handles its host was told of.
    func checkState() throws(StatefulFuzzViolation) {
        let held = Set(controllers[0].connectionHandles)
        if !live.isSubset(of: held) { throw fail("the host was told of links \(live.sorted()); the controller holds \(held.sorted())") }
        for (handle, count) in outstanding where count < 0 || !live.contains(handle) {
            throw fail("\(count) packets outstanding on handle \(handle), live \(live.sorted())")
        }
    }
}
