import Foundation
import Glibc

/// A `ble sim serve` process started for a test: waits for its READY line and kills it by
/// PID when done.
final class ServedWorld {
    struct Device: Decodable {
        var name: String
        var address: String
        var port: Int
    }

    private struct Ready: Decodable {
        var ports: [Int]
        var devices: [Device]
        var watch: Int?
    }

    let process = Process()
    let ports: [Int]
    let devices: [Device]
    /// The world's state server (`--watch-port`), when asked for.
    let watch: Int?

    init(executable: String, arguments: [String], timeoutSeconds: Double = 30) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let handle = output.fileHandleForReading
        var buffer = Data()
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        var ready: Ready?
        while ready == nil, Date() < deadline, process.isRunning {
            var descriptor = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 200) > 0 else { continue }
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            for line in String(decoding: buffer, as: UTF8.self).split(separator: "\n") where line.hasPrefix("READY ") {
                ready = try JSONDecoder().decode(Ready.self, from: Data(line.dropFirst(6).utf8))
            }
        }
        guard let ready else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            throw ServeError(message: "ble sim serve printed no READY line: \(String(decoding: buffer, as: UTF8.self))")
        }
        ports = ready.ports
        devices = ready.devices
        watch = ready.watch
    }

    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

struct ServeError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// A blocking TCP client to 127.0.0.1, enough for tests.
final class TCPClient {
    let descriptor: Int32

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            Glibc.close(descriptor)
            throw ServeError(message: "cannot connect to 127.0.0.1:\(port)")
        }
    }

    func send(_ bytes: [UInt8]) throws {
        let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, 0) }
        guard sent == bytes.count else { throw ServeError(message: "send failed") }
    }

    /// Reads until the peer closes; true if it closed within the timeout.
    func readUntilClosed(timeoutSeconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        var buffer = [UInt8](repeating: 0, count: 1024)
        while Date() < deadline {
            var descriptor = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) > 0 else { continue }
            let count = recv(self.descriptor, &buffer, buffer.count, 0)
            if count <= 0 { return true }
        }
        return false
    }

    /// Reads what arrives within the timeout.
    func read(timeoutSeconds: Double) -> [UInt8] {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while Date() < deadline {
            var descriptor = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 50) > 0 else { if !result.isEmpty { break } else { continue } }
            let count = recv(self.descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            result += buffer[0 ..< count]
        }
        return result
    }

    func close() { Glibc.close(descriptor) }
}
