import BLE
import Foundation

/// An L2CAP Protocol/Service Multiplexer: the number naming an LE credit-based channel's
/// service (Core 5.4, Vol 3, Part A, §4.22; dynamic values 0x0080–0x00FF).
public typealias CBL2CAPPSM = UInt16

/// An open L2CAP connection-oriented channel (Core Bluetooth's `CBL2CAPChannel`; LE
/// credit-based flow control mode, Core 5.4, Vol 3, Part A, §3.4 and §10.1): what the peer
/// sends comes out of ``inputStream``, what is written to ``outputStream`` goes to the peer.
///
/// The streams send their delegates Foundation's events (`openCompleted`,
/// `hasBytesAvailable`, `hasSpaceAvailable`, `endEncountered`, `errorOccurred`) on the run
/// loop they are scheduled on; see the streams' own documentation for when each comes.
/// As on Apple platforms, the channel closes when this object is released: keep it.
open class CBL2CAPChannel: NSObject, @unchecked Sendable {
    // @unchecked Sendable: used only on its manager's queue (CBManager, "Threads"), as Core Bluetooth's objects are.
    /// The device at the other end.
    open internal(set) var peer: CBPeer!
    /// The bytes the peer sends, in order (each SDU's bytes back to back).
    open internal(set) var inputStream: InputStream!
    /// The bytes to send; each write becomes one or more SDUs of at most the peer's MTU.
    open internal(set) var outputStream: OutputStream!
    /// The channel's PSM.
    open internal(set) var psm: CBL2CAPPSM

    /// The front door's channel underneath.
    let channel: L2CAPChannel

    init(peer: CBPeer, psm: CBL2CAPPSM, channel: L2CAPChannel, inputStream: InputStream, outputStream: OutputStream) {
        self.peer = peer
        self.psm = psm
        self.channel = channel
        self.inputStream = inputStream
        self.outputStream = outputStream
        super.init()
    }

    deinit {
        let channel = channel
        Task { await channel.close() }
    }
}
