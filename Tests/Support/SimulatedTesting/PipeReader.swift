import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads a child process's output pipe to its end on a thread of its own, handing each chunk
/// to `chunk` and, at the end of the output (or a read error), an empty `Data`.
///
/// A thread blocked in `read(2)` rather than a `FileHandle.readabilityHandler`: the handler's
/// dispatch source must be cancelled from the right place at the right time, and getting it
/// wrong in a test harness crashes Dispatch's event loop. The thread ends with the output.
public func readToEnd(of handle: FileHandle, name: String, _ chunk: @escaping @Sendable (Data) -> Void) {
    let thread = Thread {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                chunk(Data())
                return
            }
            chunk(Data(buffer[0 ..< count]))
        }
    }
    thread.name = name
    thread.start()
}
