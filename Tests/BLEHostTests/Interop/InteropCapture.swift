import BLEHost
import BLEWire
import Foundation
import Synchronization

/// A btsnoop capture (datalink 1002, what Wireshark and tshark read) of every HCI packet
/// through one of our hosts in an interop test, fed by ``BLEHost/Host``'s `onPacket` hook.
/// Records are buffered and written in blocks: a 10,000-SDU echo passes some 150,000
/// packets (800,000 with 27-octet ACL buffers).
final class InteropCapture: Sendable {
    private struct State {
        var file: FileHandle?
        var writer = BTSnoop.Writer()
        var pending: [UInt8] = []
        var packets = 0
    }

    /// Where the file is.
    let path: String
    private let state: Mutex<State>
    /// Unix time of the host's time zero, in microseconds (record times are offsets from it).
    private let origin = Int64(Date().timeIntervalSince1970 * 1_000_000)

    /// Creates `<name>.btsnoop` in `$SWIFTBLE_INTEROP_CAPTURES`, else
    /// `swiftble-interop-<pid>-<name>.btsnoop` in the temporary directory.
    init(name: String) throws {
        if let kept = Self.keptDirectory {
            try FileManager.default.createDirectory(atPath: kept, withIntermediateDirectories: true)
            path = kept + "/" + name + ".btsnoop"
        } else {
            path = FileManager.default.temporaryDirectory.path + "/swiftble-interop-\(getpid())-" + name + ".btsnoop"
        }
        guard FileManager.default.createFile(atPath: path, contents: nil), let file = FileHandle(forWritingAtPath: path) else {
            throw InteropError(message: "cannot create the capture \(path)")
        }
        state = Mutex(State(file: file))
    }

    /// `$SWIFTBLE_INTEROP_CAPTURES`: where to write every capture and keep it (e.g. for a CI
    /// artifact) even when it decodes cleanly.
    private static let keptDirectory: String? = {
        let value = ProcessInfo.processInfo.environment["SWIFTBLE_INTEROP_CAPTURES"] ?? ""
        return value.isEmpty ? nil : value
    }()

    /// The hook to hand ``BLEHost/Host/init(transport:configuration:l2cap:parameterUpdates:onPacket:)``.
    var hook: @Sendable (HostPacketRecord) -> Void {
        { [self] record in write(record) }
    }

    /// Packets recorded so far.
    var packets: Int { state.withLock { $0.packets } }

    private func write(_ record: HostPacketRecord) {
        state.withLock { state in
            guard state.file != nil,
                  let bytes = try? state.writer.bytes(forH4Packet: record.packet.encoded(), direction: record.outgoing ? .sent : .received,
                                                      unixMicroseconds: origin + record.time) else { return }
            state.pending += bytes
            state.packets += 1
            if state.pending.count >= 1 << 16 { Self.flush(&state) }
        }
    }

    private static func flush(_ state: inout State) {
        guard let file = state.file, !state.pending.isEmpty else { return }
        do {
            try file.write(contentsOf: state.pending)
        } catch {
            state.file = nil  // a full disk ends the capture; the decode check then reports it short
        }
        state.pending.removeAll(keepingCapacity: true)
    }

    /// Writes what is buffered and closes the file; later packets are ignored.
    func close() {
        state.withLock { state in
            Self.flush(&state)
            try? state.file?.close()
            state.file = nil
        }
    }

    /// Deletes the file (after a clean decode: big runs write tens of megabytes), unless
    /// `$SWIFTBLE_INTEROP_CAPTURES` asks to keep every capture.
    func remove() {
        guard Self.keptDirectory == nil else { return }
        try? FileManager.default.removeItem(atPath: path)
    }
}
