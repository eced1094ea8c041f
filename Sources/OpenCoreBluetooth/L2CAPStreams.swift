import BLE
import Foundation
import Synchronization

/// The bytes a channel received and not yet read, filled by the channel's reader task and
/// emptied by ``L2CAPInputStream``.
final class L2CAPInbox: Sendable {
    private let state = Mutex<(bytes: [UInt8], ended: Bool)>(([], false))

    func append(_ sdu: [UInt8]) { state.withLock { $0.bytes += sdu } }
    func end() { state.withLock { $0.ended = true } }
    var isEmpty: Bool { state.withLock { $0.bytes.isEmpty } }
    var isFinished: Bool { state.withLock { $0.ended && $0.bytes.isEmpty } }

    /// Takes up to `count` bytes.
    func take(_ count: Int) -> [UInt8] {
        state.withLock { state in
            let taken = Array(state.bytes.prefix(count))
            state.bytes.removeFirst(taken.count)
            return taken
        }
    }
}

/// The input side of a ``CBL2CAPChannel``: the peer's SDUs, back to back. Read when
/// ``hasBytesAvailable`` (a departure: no stream delegate events are sent, since Linux's
/// Foundation schedules no run-loop sources for custom streams; poll or read in a loop).
final class L2CAPInputStream: InputStream {
    private let inbox: L2CAPInbox
    private var status: Stream.Status = .notOpen

    init(inbox: L2CAPInbox) {
        self.inbox = inbox
        super.init(data: Data())
    }

    override func open() { status = .open }
    override func close() { status = .closed }
    override var streamStatus: Stream.Status {
        status == .open && inbox.isFinished ? .atEnd : status
    }
    override var hasBytesAvailable: Bool { !inbox.isEmpty }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
        guard status == .open, len > 0 else { return status == .open ? 0 : -1 }
        let bytes = inbox.take(len)
        for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        return bytes.count
    }

    override func getBuffer(_ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, length len: UnsafeMutablePointer<Int>) -> Bool {
        false
    }
}

/// The output side of a ``CBL2CAPChannel``: each write is sent, in order, as SDUs of at
/// most the peer's MTU (Core 5.4, Vol 3, Part A, §3.4.3); the credits pace them.
final class L2CAPOutputStream: OutputStream {
    private let outbox: AsyncStream<[UInt8]>.Continuation?
    private let peerMTU: Int
    private var status: Stream.Status = .notOpen

    init(channel: L2CAPChannel) {
        let (stream, outbox) = AsyncStream<[UInt8]>.makeStream()
        self.outbox = outbox
        peerMTU = max(1, channel.peerMTU)
        Task {
            for await sdu in stream {
                do { try await channel.send(sdu) } catch { break }
            }
        }
        super.init(toMemory: ())
    }

    /// Foundation's required initializer: a stream bound to no channel, which accepts nothing.
    required init(toMemory: ()) {
        outbox = nil
        peerMTU = 1
        super.init(toMemory: ())
    }

    override func open() { status = .open }
    override func close() {
        status = .closed
        outbox?.finish()
    }
    override var streamStatus: Stream.Status { status }
    override var hasSpaceAvailable: Bool { status == .open }

    override func write(_ buffer: UnsafePointer<UInt8>, maxLength len: Int) -> Int {
        guard status == .open, let outbox else { return -1 }
        let count = min(len, peerMTU)
        outbox.yield(Array(UnsafeBufferPointer(start: buffer, count: count)))
        return count
    }
}

extension CBL2CAPChannel {
    /// A channel to `peer` on the front door's `channel`, its streams wired to it.
    convenience init(peer: CBPeer, channel: L2CAPChannel) {
        let inbox = L2CAPInbox()
        Task {
            for await sdu in channel.incoming { inbox.append(sdu) }
            inbox.end()
        }
        self.init(peer: peer, psm: channel.psm, channel: channel, inputStream: L2CAPInputStream(inbox: inbox),
                  outputStream: L2CAPOutputStream(channel: channel))
    }
}
