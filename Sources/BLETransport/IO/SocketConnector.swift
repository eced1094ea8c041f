import Glibc

/// Blocking connection set-up for ``StreamTransport``, run on an ``IOThread``.
enum SocketConnector {
    /// Resolves `host` and connects to the first address that answers.
    static func connectTCP(host: String, port: UInt16, label: String, timeout: Duration) -> Result<Int32, TransportError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let list else {
            let reason = gai_strerror(status).map { String(cString: $0) } ?? "error \(status)"
            return .failure(TransportError("could not resolve \(host) for \(label): \(reason.lowercased())"))
        }
        defer { freeaddrinfo(list) }
        var lastError: Int32 = ECONNREFUSED
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let current = entry {
            entry = current.pointee.ai_next
            guard let address = current.pointee.ai_addr else { continue }
            let descriptor = socket(
                current.pointee.ai_family,
                Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue),
                current.pointee.ai_protocol
            )
            guard descriptor >= 0 else {
                lastError = SystemError.current
                continue
            }
            let code = connect(descriptor, address, current.pointee.ai_addrlen, timeout: timeout)
            if code == 0 {
                var on: Int32 = 1
                _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
                return .success(descriptor)
            }
            Glibc.close(descriptor)
            lastError = code
        }
        return .failure(connectError(label: label, code: lastError, timeout: timeout))
    }

    /// Connects to the Unix stream socket at `path`.
    static func connectUnix(path: String, label: String) -> Result<Int32, TransportError> {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        let octets = Array(path.utf8)
        guard !octets.isEmpty, octets.count < capacity else {
            return .failure(TransportError("could not connect to \(label): a Unix socket path must be 1 to \(capacity - 1) octets long"))
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, octet) in octets.enumerated() { raw[index] = octet }
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else {
            let code = SystemError.current
            return .failure(TransportError("could not connect to \(label): \(SystemError.phrase(code))", errno: code))
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if result == 0 { return .success(descriptor) }
        let code = SystemError.current
        Glibc.close(descriptor)
        return .failure(connectError(label: label, code: code, timeout: nil))
    }

    /// Starts a non-blocking connect and waits up to `timeout` for it; 0 or an errno
    /// (`ETIMEDOUT` when the time ran out).
    private static func connect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t, timeout: Duration) -> Int32 {
        if Glibc.connect(descriptor, address, length) == 0 { return 0 }
        let code = SystemError.current
        guard code == EINPROGRESS || code == EINTR else { return code }
        let (seconds, attoseconds) = timeout.components
        let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        var waiting = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        while true {
            let ready = poll(&waiting, 1, milliseconds)
            if ready < 0, SystemError.current == EINTR { continue }
            if ready < 0 { return SystemError.current }
            if ready == 0 { return ETIMEDOUT }
            break
        }
        var pending: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &pending, &size) == 0 else { return SystemError.current }
        return pending
    }

    /// The sentence for a failed connect.
    static func connectError(label: String, code: Int32, timeout: Duration?) -> TransportError {
        let reason: String
        switch code {
        case ECONNREFUSED:
            reason = "connection refused — is the controller running?"
        case ENOENT:
            reason = "no such socket — is the controller running?"
        case ETIMEDOUT:
            if let timeout {
                reason = "no answer within \(timeout.components.seconds) s — is the host reachable and the port right?"
            } else {
                reason = "timed out — is the controller running?"
            }
        case EHOSTUNREACH, ENETUNREACH:
            reason = "\(SystemError.phrase(code)) — is the host reachable?"
        default:
            reason = SystemError.phrase(code)
        }
        return TransportError("could not connect to \(label): \(reason)", errno: code)
    }
}
