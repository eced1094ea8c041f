import Glibc

/// Dedicated POSIX threads for blocking system calls, so that neither readiness waits
/// (`poll`) nor name resolution and connection set-up ever block a Swift concurrency
/// executor thread. BLETransport depends on Glibc only, hence raw `pthread_create`.
enum IOThread {
    /// What a new thread runs: boxed so one retained pointer carries it across
    /// `pthread_create`.
    private final class Body: Sendable {
        let name: String
        let work: @Sendable () -> Void

        init(name: String, work: @escaping @Sendable () -> Void) {
            self.name = name
            self.work = work
        }
    }

    /// Starts `work` on a new detached thread (`name` says what for, in errors), or throws if the system has no thread to give.
    static func start(name: String, _ work: @escaping @Sendable () -> Void) throws(TransportError) {
        let body = Unmanaged.passRetained(Body(name: name, work: work)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { pointer in
            guard let pointer else { return nil }
            let body = Unmanaged<Body>.fromOpaque(pointer).takeRetainedValue()
            body.work()
            return nil
        }, body)
        if result != 0 {
            Unmanaged<Body>.fromOpaque(body).release()
            throw TransportError("could not start a thread for \(name): \(SystemError.phrase(result))", errno: result)
        }
    }

    /// Runs blocking `work` on its own thread and returns its result, suspending (not
    /// blocking) the caller meanwhile.
    static func run<Value: Sendable>(
        name: String,
        _ work: @escaping @Sendable () -> Result<Value, TransportError>
    ) async throws(TransportError) -> Value {
        let result: Result<Value, TransportError> = await withCheckedContinuation { continuation in
            do throws(TransportError) {
                try start(name: name) { continuation.resume(returning: work()) }
            } catch {
                continuation.resume(returning: .failure(error))
            }
        }
        return try result.get()
    }
}
