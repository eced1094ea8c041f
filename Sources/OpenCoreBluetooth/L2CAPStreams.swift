import BLE
import Foundation

/// The input side of a ``CBL2CAPChannel``: the peer's SDUs, back to back (Foundation's
/// `InputStream` face of an ``L2CAPInbox``, which says when each event comes).
///
/// Reads never block: with nothing buffered `read` returns 0, and `streamStatus` is
/// `.atEnd` only once the channel is closed and every byte was read.
final class L2CAPInputStream: InputStream {
    private let inbox: L2CAPInbox

    init(inbox: L2CAPInbox) {
        self.inbox = inbox
        super.init(data: Data())
        inbox.events.attach(to: self)
    }

    override func open() { inbox.open() }
    override func close() { inbox.close() }
    override var streamStatus: Stream.Status { inbox.streamStatus }
    override var streamError: (any Error)? { nil }
    override var hasBytesAvailable: Bool { inbox.hasBytesAvailable }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
        inbox.read(into: UnsafeMutableBufferPointer(start: buffer, count: max(len, 0)))
    }

    override func getBuffer(_ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, length len: UnsafeMutablePointer<Int>) -> Bool {
        false
    }

    override var delegate: (any StreamDelegate)? {
        get { inbox.events.delegate }
        set { inbox.events.delegate = newValue }
    }

    override func schedule(in aRunLoop: RunLoop, forMode mode: RunLoop.Mode) {
        inbox.events.schedule(in: aRunLoop, forMode: mode)
    }

    override func remove(from aRunLoop: RunLoop, forMode mode: RunLoop.Mode) {
        inbox.events.remove(from: aRunLoop, forMode: mode)
    }
}

/// The output side of a ``CBL2CAPChannel``: each write is sent, in order, as an SDU of at
/// most the peer's MTU (Foundation's `OutputStream` face of an ``L2CAPOutbox``, which says
/// when each event comes).
final class L2CAPOutputStream: OutputStream {
    private let outbox: L2CAPOutbox?

    init(outbox: L2CAPOutbox) {
        self.outbox = outbox
        super.init(toMemory: ())
        outbox.events.attach(to: self)
    }

    /// Foundation's required initializer: a stream bound to no channel, which accepts nothing.
    required init(toMemory: ()) {
        outbox = nil
        super.init(toMemory: ())
    }

    override func open() { outbox?.open() }
    override func close() { outbox?.close() }
    override var streamStatus: Stream.Status { outbox?.streamStatus ?? .notOpen }
    override var streamError: (any Error)? { outbox?.streamError }
    override var hasSpaceAvailable: Bool { outbox?.hasSpaceAvailable ?? false }

    override func write(_ buffer: UnsafePointer<UInt8>, maxLength len: Int) -> Int {
        outbox?.write(UnsafeBufferPointer(start: buffer, count: max(len, 0))) ?? -1
    }

    override var delegate: (any StreamDelegate)? {
        get { outbox?.events.delegate }
        set { outbox?.events.delegate = newValue }
    }

    override func schedule(in aRunLoop: RunLoop, forMode mode: RunLoop.Mode) {
        outbox?.events.schedule(in: aRunLoop, forMode: mode)
    }

    override func remove(from aRunLoop: RunLoop, forMode mode: RunLoop.Mode) {
        outbox?.events.remove(from: aRunLoop, forMode: mode)
    }
}

extension CBL2CAPChannel {
    /// A channel to `peer` on the front door's `channel`, its streams wired to it; their
    /// delegates hear events on `managerQueue` unless the streams are scheduled elsewhere.
    convenience init(peer: CBPeer, channel: L2CAPChannel, managerQueue: any Actor) {
        let inbox = L2CAPInbox(events: StreamEventPoster(managerQueue: managerQueue))
        let outbox = L2CAPOutbox(channel: channel, events: StreamEventPoster(managerQueue: managerQueue))
        Task {
            for await sdu in channel.incoming { await inbox.receive(sdu) }
            inbox.finish()
            outbox.finish()
        }
        self.init(peer: peer, psm: channel.psm, channel: channel,
                  inputStream: L2CAPInputStream(inbox: inbox), outputStream: L2CAPOutputStream(outbox: outbox))
    }
}
