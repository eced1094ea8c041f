import BLEWire
import Glibc
import Synchronization

/// How a file descriptor delimits H4 packets.
enum PacketFraming: Sendable {
    /// A byte stream (TCP, Unix stream socket, serial line): packets are found by their
    /// headers' length fields, and may arrive split or merged in any way.
    case byteStream
    /// A message-preserving socket (the HCI user channel, `SOCK_SEQPACKET`): each read
    /// returns exactly one packet and each packet is written in exactly one write.
    case datagram
}

/// The I/O engine under every descriptor-backed transport: one dedicated thread waits in
/// `poll` for the descriptor (readable, or writable while sends are queued) and for a
/// wake-up pipe, deframes what it reads into ``packets``, and writes queued sends in
/// order. No loop ever sleeps: every wait is a readiness wait.
///
/// Sends are serialized by the mutex: a send on an idle channel writes at once from the
/// caller (non-blocking), and anything that does not fit queues for the thread, so
/// packets leave in the order `send` was called.
///
/// The channel owns the descriptor from `init` on and closes it when it ends: on
/// ``close()``, end of stream, a read or write error, or a framing error.
final class H4DescriptorChannel: Sendable {
    /// What the channel needs to know about its descriptor.
    struct Options: Sendable {
        /// The transport as the user named it, for error sentences ("tcp:127.0.0.1:9100").
        var label: String
        /// Stream or message framing.
        var framing: PacketFraming
        /// Write with `send(MSG_NOSIGNAL)` (sockets), so a closed peer is an error, not
        /// `SIGPIPE`; otherwise `write` (ttys).
        var isSocket: Bool
        /// Treat `EIO` from `read` as the end of the stream: what a tty reports after a
        /// hang-up (the other end of a pseudo-terminal closed, a USB adapter unplugged).
        var readErrorEIOIsHangUp: Bool = false
        /// Decodes one message of a `.datagram` descriptor; nil reads it as a plain H4
        /// packet. `/dev/vhci` checks the packet's direction too.
        var decodeMessage: (@Sendable ([UInt8]) throws(TransportError) -> H4.Packet)? = nil
        /// Errnos of a write that fail only that one send, not the channel: `/dev/vhci`
        /// refuses with `ENXIO` a packet for an adapter that is down, and goes on.
        var perPacketWriteErrors: Set<Int32> = []
    }

    /// One queued send: its octets, how many are written, and whom to tell.
    private struct PendingWrite {
        var octets: [UInt8]
        var offset: Int
        let completion: CheckedContinuation<Result<Void, TransportError>, Never>
    }

    private struct State {
        /// Queued sends, oldest at `writeHead`.
        var writes: [PendingWrite] = []
        var writeHead = 0
        /// `close()` was called (or a send failed): the thread ends at its next turn.
        var stopRequested = false
        /// Why the thread must stop with an error, if a send found one.
        var stopError: TransportError?
        /// Set once the thread ended and the descriptor is closed; why sends now fail.
        var endedReason: TransportError?
        /// `close()` calls waiting for the thread to end.
        var closeWaiters: [CheckedContinuation<Void, Never>] = []

        var hasQueuedWrites: Bool { writeHead < writes.count }
    }

    private enum WriteOutcome {
        case complete
        case wouldBlock
        case failed(TransportError)
    }

    /// The largest HCI packet with its H4 indicator is 1 + 4 + 65,535 octets (ACL); one
    /// read buffer of this size takes any datagram whole.
    private static let readBufferSize = 65_544

    let options: Options
    private let descriptor: Int32
    /// The read end of the wake-up pipe, which the I/O thread polls.
    private let wakeDescriptor: Int32
    /// The write end: one octet written here ends the thread's current wait.
    private let wakeWriteDescriptor: Int32
    private let state = Mutex(State())
    /// The packets read from the descriptor; finishes on close or end of stream, throws a
    /// ``TransportError`` on failure.
    let packets: AsyncThrowingStream<H4.Packet, any Error>
    private let continuation: AsyncThrowingStream<H4.Packet, any Error>.Continuation

    /// Takes ownership of `descriptor` (closing it if this throws), makes it non-blocking
    /// and starts the I/O thread.
    init(descriptor: Int32, options: Options) throws(TransportError) {
        self.options = options
        self.descriptor = descriptor
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0 else {
            let code = SystemError.current
            Glibc.close(descriptor)
            throw TransportError("\(options.label): could not make the descriptor non-blocking: \(SystemError.phrase(code))", errno: code)
        }
        var wake: [Int32] = [-1, -1]
        guard pipe(&wake) == 0,
              wake.allSatisfy({ fcntl($0, F_SETFL, O_NONBLOCK) == 0 && fcntl($0, F_SETFD, FD_CLOEXEC) == 0 })
        else {
            let code = SystemError.current
            Glibc.close(descriptor)
            throw TransportError("\(options.label): could not create a wake-up descriptor: \(SystemError.phrase(code))", errno: code)
        }
        wakeDescriptor = wake[0]
        wakeWriteDescriptor = wake[1]
        (packets, continuation) = AsyncThrowingStream.makeStream(of: H4.Packet.self, throwing: (any Error).self)
        continuation.onTermination = { [weak self] termination in
            // A consumer that stops listening (its task was cancelled) no longer wants
            // the transport; a normal finish came from the thread itself.
            if case .cancelled = termination { self?.requestClose() }
        }
        do {
            try IOThread.start(name: "ble-io \(options.label)") { [self] in run() }
        } catch {
            Glibc.close(descriptor)
            continuation.finish(throwing: error)
            throw error
        }
    }

    deinit {
        Glibc.close(wakeDescriptor)
        Glibc.close(wakeWriteDescriptor)
    }

    // MARK: Caller side

    /// Writes `packet` after every earlier send, returning once it is fully handed to the
    /// kernel; throws if the channel has ended or the write fails.
    func send(_ packet: H4.Packet) async throws(TransportError) {
        let octets = packet.encoded()
        let result: Result<Void, TransportError> = await withCheckedContinuation { completion in
            var needsWake = false
            let immediate: Result<Void, TransportError>? = state.withLock { state in
                if let reason = state.endedReason { return .failure(reason) }
                if state.stopRequested {
                    return .failure(state.stopError ?? TransportError("\(options.label) is closed"))
                }
                var offset = 0
                if !state.hasQueuedWrites {
                    switch write(octets, offset: &offset) {
                    case .complete:
                        return .success(())
                    case .wouldBlock:
                        break
                    case let .failed(error) where error.errno.map(options.perPacketWriteErrors.contains) == true:
                        return .failure(error)
                    case let .failed(error):
                        state.stopRequested = true
                        state.stopError = error
                        needsWake = true
                        return .failure(error)
                    }
                }
                state.writes.append(PendingWrite(octets: octets, offset: offset, completion: completion))
                needsWake = true
                return nil
            }
            if needsWake { wake() }
            if let immediate { completion.resume(returning: immediate) }
        }
        try result.get()
    }

    /// Stops the channel and returns once the descriptor is closed and ``packets`` has
    /// finished. Queued sends that were not written fail.
    func close() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let ended = state.withLock { state in
                if state.endedReason != nil { return true }
                state.stopRequested = true
                state.closeWaiters.append(waiter)
                return false
            }
            if ended { waiter.resume() } else { wake() }
        }
    }

    /// Asks the thread to stop without waiting for it (from `deinit` and cancellation).
    func requestClose() {
        let ended = state.withLock { state in
            if state.endedReason != nil { return true }
            state.stopRequested = true
            return false
        }
        if !ended { wake() }
    }

    private func wake() {
        // A full pipe already holds a wake-up, so a failed write loses nothing.
        var one: UInt8 = 1
        _ = Glibc.write(wakeWriteDescriptor, &one, 1)
    }

    // MARK: I/O thread

    private func run() {
        var buffer = [UInt8](repeating: 0, count: Self.readBufferSize)
        var decoder = H4.StreamDecoder()
        var descriptors = [
            pollfd(fd: descriptor, events: 0, revents: 0),
            pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        var ending: TransportError?
        loop: while true {
            let (wantsWrite, stopping, stopError) = state.withLock { state in
                (state.hasQueuedWrites, state.stopRequested, state.stopError)
            }
            if stopping {
                ending = stopError
                break
            }
            descriptors[0].events = Int16(POLLIN) | (wantsWrite ? Int16(POLLOUT) : 0)
            descriptors[0].revents = 0
            descriptors[1].revents = 0
            if poll(&descriptors, nfds_t(descriptors.count), -1) < 0 {
                let code = SystemError.current
                if code == EINTR { continue }
                ending = TransportError("\(options.label): waiting for I/O failed: \(SystemError.phrase(code))", errno: code)
                break
            }
            if descriptors[1].revents != 0 {
                var drained = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
                _ = withUnsafeMutableBytes(of: &drained) { Glibc.read(wakeDescriptor, $0.baseAddress, $0.count) }
            }
            let events = descriptors[0].revents
            if events & Int16(POLLNVAL) != 0 {
                ending = TransportError("\(options.label): the descriptor was closed underneath the transport", errno: EBADF)
                break
            }
            if events & Int16(POLLOUT) != 0, let error = flushQueuedWrites() {
                ending = error
                break
            }
            if events & (Int16(POLLIN) | Int16(POLLHUP) | Int16(POLLERR)) != 0 {
                switch readOnce(into: &buffer, decoder: &decoder) {
                case .more:
                    continue
                case .endOfStream:
                    ending = nil
                    break loop
                case let .failed(error):
                    ending = error
                    break loop
                }
            }
        }
        end(with: ending)
    }

    private enum ReadOutcome {
        case more
        case endOfStream
        case failed(TransportError)
    }

    /// One `read`, and every packet it completes yielded to ``packets``.
    private func readOnce(into buffer: inout [UInt8], decoder: inout H4.StreamDecoder) -> ReadOutcome {
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        if count == 0 {
            // The peer closed: a packet it had begun is lost, which the user must hear of.
            guard decoder.bufferedCount == 0 else {
                return .failed(TransportError("\(options.label) closed the connection in the middle of a packet (\(decoder.bufferedCount) octets of it had arrived)"))
            }
            return .endOfStream
        }
        if count < 0 {
            let code = SystemError.current
            if code == EINTR || code == EAGAIN || code == EWOULDBLOCK { return .more }
            if code == EIO, options.readErrorEIOIsHangUp { return .endOfStream }
            return .failed(TransportError("reading from \(options.label) failed: \(SystemError.phrase(code))", errno: code))
        }
        switch options.framing {
        case .datagram:
            let message = Array(buffer[0 ..< count])
            do throws(TransportError) {
                if let decode = options.decodeMessage {
                    continuation.yield(try decode(message))
                } else {
                    do {
                        continuation.yield(try H4.Packet(decoding: message))
                    } catch {
                        throw malformed(error)
                    }
                }
            } catch {
                return .failed(error)
            }
        case .byteStream:
            decoder.append(buffer[0 ..< count])
            do {
                while let packet = try decoder.next() {
                    continuation.yield(packet)
                }
            } catch {
                return .failed(malformed(error))
            }
        }
        return .more
    }

    private func malformed(_ error: WireError) -> TransportError {
        TransportError("\(options.label) sent octets that are not a valid H4 packet (\(error)); is it really an HCI controller speaking H4?")
    }

    /// Writes queued sends until done or the descriptor would block; returns an error that
    /// ends the channel.
    private func flushQueuedWrites() -> TransportError? {
        var completed: [CheckedContinuation<Result<Void, TransportError>, Never>] = []
        var rejected: [(CheckedContinuation<Result<Void, TransportError>, Never>, TransportError)] = []
        let failure: TransportError? = state.withLock { state in
            defer {
                if !state.hasQueuedWrites {
                    state.writes.removeAll(keepingCapacity: true)
                    state.writeHead = 0
                }
            }
            while state.hasQueuedWrites {
                let head = state.writeHead
                var offset = state.writes[head].offset
                let outcome = write(state.writes[head].octets, offset: &offset)
                state.writes[head].offset = offset
                switch outcome {
                case .complete:
                    completed.append(state.writes[head].completion)
                    state.writeHead += 1
                case .wouldBlock:
                    return nil
                case let .failed(error) where error.errno.map(options.perPacketWriteErrors.contains) == true:
                    rejected.append((state.writes[head].completion, error))
                    state.writeHead += 1
                case let .failed(error):
                    return error
                }
            }
            return nil
        }
        for completion in completed { completion.resume(returning: .success(())) }
        for (completion, error) in rejected { completion.resume(returning: .failure(error)) }
        return failure
    }

    /// Writes `octets` from `offset` without blocking; called with the state locked, which
    /// is what serializes writers.
    private func write(_ octets: [UInt8], offset: inout Int) -> WriteOutcome {
        while offset < octets.count {
            let start = offset
            let written = octets.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                let pointer = base + start
                let length = raw.count - start
                return options.isSocket
                    ? Glibc.send(descriptor, pointer, length, Int32(MSG_NOSIGNAL))
                    : Glibc.write(descriptor, pointer, length)
            }
            if written < 0 {
                let code = SystemError.current
                if code == EINTR { continue }
                if code == EAGAIN || code == EWOULDBLOCK { return .wouldBlock }
                return .failed(TransportError("writing to \(options.label) failed: \(SystemError.phrase(code))", errno: code))
            }
            if options.framing == .datagram, written != octets.count {
                return .failed(TransportError("writing to \(options.label) failed: the packet was cut short (\(written) of \(octets.count) octets)"))
            }
            offset += written
        }
        return .complete
    }

    /// Closes the descriptor, fails queued sends, finishes ``packets`` (with `error` if
    /// there is one) and then releases `close()` callers.
    private func end(with error: TransportError?) {
        let reason = error ?? TransportError("\(options.label) is closed")
        let (writes, waiters) = state.withLock { state in
            state.endedReason = reason
            Glibc.close(descriptor)
            let writes = state.writes[state.writeHead...].map(\.completion)
            state.writes = []
            state.writeHead = 0
            let waiters = state.closeWaiters
            state.closeWaiters = []
            return (writes, waiters)
        }
        for write in writes { write.resume(returning: .failure(reason)) }
        if let error {
            continuation.finish(throwing: error)
        } else {
            continuation.finish()
        }
        for waiter in waiters { waiter.resume() }
    }
}
