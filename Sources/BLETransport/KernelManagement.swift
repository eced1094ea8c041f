import Glibc

/// The one question we ask the Linux kernel's Bluetooth management interface (BlueZ's
/// doc/mgmt-api.txt, the `HCI_CHANNEL_CONTROL` socket bluetoothd and btmgmt use): which
/// adapters its own host stack manages. An adapter open on the HCI user channel leaves that
/// list, so when binding `hci:N` fails as busy the list tells who has it: the kernel's stack
/// (bluetoothd keeps it powered on) or another program on the user channel.
public enum KernelManagement {
    /// `HCI_CHANNEL_CONTROL`.
    static let channelControl: UInt16 = 3
    /// `HCI_DEV_NONE`: the index of commands and events not about one adapter.
    static let noIndex: UInt16 = 0xFFFF
    /// Read Controller Index List (mgmt-api.txt), opcode 0x0003: no parameters.
    static let readIndexListOpcode: UInt16 = 0x0003
    /// Command Complete Event, event code 0x0001.
    static let commandCompleteEvent: UInt16 = 0x0001

    /// The command: opcode, controller index, parameter length, each little-endian.
    static let readIndexListCommand: [UInt8] = [0x03, 0x00, 0xFF, 0xFF, 0x00, 0x00]

    /// The adapter indices a Command Complete Event for Read Controller Index List carries
    /// when it succeeded; nil for any other message (another event, a failure, too short or
    /// a count that does not match its length).
    public static func controllerIndices(inReply message: [UInt8]) -> [UInt16]? {
        func le16(_ offset: Int) -> UInt16? {
            guard offset + 1 < message.count else { return nil }
            return UInt16(message[offset]) | UInt16(message[offset + 1]) << 8
        }
        // Event code, index, parameter length; then opcode, status, count, indices.
        guard le16(0) == commandCompleteEvent, let length = le16(4), Int(length) == message.count - 6,
              le16(6) == readIndexListOpcode, message.count > 8, message[8] == 0, let count = le16(9),
              message.count == 11 + 2 * Int(count)
        else { return nil }
        return (0 ..< Int(count)).compactMap { le16(11 + 2 * $0) }
    }

    /// The adapters the kernel's host stack manages now, or nil when it cannot say within
    /// half a second (no Bluetooth in the kernel, no answer).
    public static func managedIndices() -> [UInt16]? {
        let descriptor = socket(UserChannelTransport.addressFamilyBluetooth,
                                Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue),
                                UserChannelTransport.protocolHCI)
        guard descriptor >= 0 else { return nil }
        defer { Glibc.close(descriptor) }
        // struct sockaddr_hci: family, device, channel (native-endian 16-bit fields).
        var address: (UInt16, UInt16, UInt16) = (UInt16(UserChannelTransport.addressFamilyBluetooth), noIndex, channelControl)
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<(UInt16, UInt16, UInt16)>.size))
            }
        }
        guard bound == 0 else { return nil }
        let written = readIndexListCommand.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        guard written == readIndexListCommand.count else { return nil }
        // Other events may come first (an index added or removed); a few messages at most.
        var buffer = [UInt8](repeating: 0, count: 1024)
        for _ in 0 ..< 8 {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 500) == 1 else { return nil }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            if let indices = controllerIndices(inReply: Array(buffer[0 ..< count])) { return indices }
        }
        return nil
    }
}
