import BLETransport
import BLEWire
import Foundation
import Glibc

/// SplitMix64, so random packets and chunkings are reproducible from a seed.
struct TransportTestRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func bytes(_ count: Int) -> [UInt8] {
        (0 ..< count).map { _ in UInt8.random(in: .min ... .max, using: &self) }
    }

    /// A random valid command, ACL or event packet with up to `maximumPayload` octets.
    mutating func packet(maximumPayload: Int = 300) -> H4.Packet {
        switch Int.random(in: 0 ..< 3, using: &self) {
        case 0:
            let parameters = bytes(Int.random(in: 0 ... min(255, maximumPayload), using: &self))
            return .command(HCI.CommandPacket(opcode: HCI.Opcode(rawValue: UInt16.random(in: 0 ... .max, using: &self)), parameters: parameters[...]))
        case 1:
            let data = bytes(Int.random(in: 0 ... maximumPayload, using: &self))
            let boundary = HCI.ACLPacket.PacketBoundaryFlag.allCases.randomElement(using: &self) ?? .complete
            return .acl(HCI.ACLPacket(connectionHandle: UInt16.random(in: 0 ... 0x0EFF, using: &self), packetBoundary: boundary, data: data[...]))
        default:
            let parameters = bytes(Int.random(in: 0 ... min(255, maximumPayload), using: &self))
            return .event(HCI.EventPacket(eventCode: HCI.EventCode(rawValue: UInt8.random(in: 0 ... 0xFE, using: &self)), parameters: parameters[...]))
        }
    }
}

/// Collects up to `count` packets, stopping early if the stream finishes; rethrows its error.
func collect(_ packets: AsyncThrowingStream<H4.Packet, any Error>, count: Int) async throws -> [H4.Packet] {
    var received: [H4.Packet] = []
    for try await packet in packets {
        received.append(packet)
        if received.count == count { break }
    }
    return received
}

/// Runs blocking peer code on its own thread (never on the test's executor) and returns its
/// result.
func onPeerThread<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: work()) }
        thread.start()
    }
}

/// Reads whatever is available (blocking); 0 at end of stream, negative on error.
func readSome(_ descriptor: Int32, _ capacity: Int = 4096) -> [UInt8]? {
    var buffer = [UInt8](repeating: 0, count: capacity)
    let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
    guard count > 0 else { return nil }
    return Array(buffer[0 ..< count])
}

/// Writes all of `octets` (blocking).
@discardableResult
func writeAll(_ descriptor: Int32, _ octets: [UInt8]) -> Bool {
    var offset = 0
    while offset < octets.count {
        let written = octets[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        if written < 0, errno == EINTR { continue }
        guard written > 0 else { return false }
        offset += written
    }
    return true
}

/// Echoes a byte stream back in random chunks (1 to 40 octets, each its own write, with a
/// short pause so the reader really sees them apart) until end of stream, then closes.
/// Returns how many octets it echoed.
func echoInRandomChunks(_ descriptor: Int32, seed: UInt64) -> Int {
    var random = TransportTestRandom(seed: seed)
    var total = 0
    while let chunk = readSome(descriptor) {
        var offset = 0
        while offset < chunk.count {
            let length = min(Int.random(in: 1 ... 40, using: &random), chunk.count - offset)
            guard writeAll(descriptor, Array(chunk[offset ..< offset + length])) else { break }
            offset += length
            if Bool.random(using: &random) { usleep(50) }
        }
        total += chunk.count
    }
    close(descriptor)
    return total
}

/// A listening TCP socket on 127.0.0.1 with a kernel-chosen port.
struct TCPListener {
    let descriptor: Int32
    let port: UInt16

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        self.descriptor = descriptor
        guard descriptor >= 0 else { throw TestFailure("socket failed: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && listen(descriptor, 4) == 0
                    && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard bound else { throw TestFailure("bind/listen failed: \(errno)") }
        port = UInt16(bigEndian: address.sin_port)
    }

    /// Accepts one connection (blocking).
    func accept() -> Int32 {
        Glibc.accept(descriptor, nil, nil)
    }
}

/// A listening Unix stream socket at a fresh path under /tmp.
struct UnixListener {
    let descriptor: Int32
    let path: String

    init() throws {
        path = "/tmp/swiftble-transport-\(getpid())-\(UInt32.random(in: 0 ... .max)).sock"
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        self.descriptor = descriptor
        guard descriptor >= 0 else { throw TestFailure("socket failed: \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let octets = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, octet) in octets.enumerated() { raw[index] = octet }
        }
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 && listen(descriptor, 4) == 0
            }
        }
        guard bound else { throw TestFailure("bind/listen failed: \(errno)") }
    }

    func accept() -> Int32 {
        Glibc.accept(descriptor, nil, nil)
    }

    func remove() {
        close(descriptor)
        unlink(path)
    }
}

/// A pseudo-terminal pair: the test holds the master, the transport opens the slave path.
///
/// Swift's Glibc module leaves out the X/Open pseudo-terminal calls, so they are looked
/// up in the C library by name.
struct PseudoTerminal {
    let master: Int32
    let slavePath: String

    private typealias OpenMaster = @convention(c) (Int32) -> Int32
    private typealias Prepare = @convention(c) (Int32) -> Int32
    private typealias SlaveName = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32

    private static func function<Function>(_ name: String, as type: Function.Type) throws -> Function {
        guard let library = dlopen(nil, RTLD_NOW), let symbol = dlsym(library, name) else {
            throw TestFailure("the C library has no \(name)")
        }
        return unsafeBitCast(symbol, to: type)
    }

    init() throws {
        let openMaster = try Self.function("posix_openpt", as: OpenMaster.self)
        let grant = try Self.function("grantpt", as: Prepare.self)
        let unlock = try Self.function("unlockpt", as: Prepare.self)
        let slaveName = try Self.function("ptsname_r", as: SlaveName.self)
        master = openMaster(O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0, grant(master) == 0, unlock(master) == 0 else {
            throw TestFailure("could not create a pseudo-terminal: \(errno)")
        }
        var name = [CChar](repeating: 0, count: 128)
        guard slaveName(master, &name, name.count) == 0 else { throw TestFailure("ptsname_r failed: \(errno)") }
        slavePath = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A connected pair of message-preserving sockets.
func makeSequencedPacketPair() throws -> (Int32, Int32) {
    var descriptors: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &descriptors) == 0 else {
        throw TestFailure("socketpair failed: \(errno)")
    }
    return (descriptors[0], descriptors[1])
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
