import ArgumentParser
import BLEAdapter
import BLEChat
import ChatApp
import Foundation
import FrontDoorChatApp

/// `ble chat`: the terminal version of the chat app (Examples/Chat), on any controller.
/// Interactive, it sends each line typed and prints what the partner sends;
/// scripted (`--send-count`), it sends generated messages, prints one JSON line per message
/// received, and exits once everything went both ways.
struct ChatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chat",
        abstract: "Chat with another chat device: the terminal version of Examples/Chat.",
        discussion: """
            Both devices advertise a discovery service with a chat name; the first to send becomes the session's \
            peripheral and the other connects. With --send-count the run is scripted: JSON lines \
            {"event": "received", "index", "size", "digest"} for each message, then {"event": "done", ...}.
            """
    )

    @Option(help: "This device's chat name (at most 11 UTF-8 bytes are advertised).")
    var name: String

    @Option(help: "Chat with the device of this name (default: the first chat device seen).")
    var peer: String?

    @Option(help: ArgumentHelp(ControllerOption.help, valueName: "hci"))
    var hci: String?

    @Option(name: .customLong("send-count"), help: "Scripted: send this many generated messages, print JSON lines, exit when done.")
    var sendCount: Int?

    @Option(name: .customLong("receive-count"), help: "Scripted: how many messages to wait for (default: --send-count).")
    var receiveCount: Int?

    @Option(name: .customLong("min-size"), help: "Scripted: the smallest message, in bytes.")
    var minSize: Int = 1

    @Option(name: .customLong("max-size"), help: "Scripted: the largest message, in bytes.")
    var maxSize: Int = 2000

    @Option(help: "Scripted: the seed the messages are drawn from.")
    var seed: UInt64 = 1

    @Option(help: "The heartbeat interval in seconds; a link silent for three intervals is re-established.")
    var heartbeat: Double = 1

    @Option(help: "Give up after this many seconds: a scripted run not done, or typed lines not delivered once the input ended.")
    var timeout: Double = 900

    /// Which API the chat runs on.
    enum API: String, ExpressibleByArgument, CaseIterable {
        /// Examples/Chat's ChatEngine on OpenCoreBluetooth (Core Bluetooth's API).
        case corebluetooth
        /// The same protocol on SwiftBLE's async front door.
        case frontdoor
    }

    @Option(help: "The API the chat runs on: corebluetooth (Examples/Chat on OpenCoreBluetooth) or frontdoor (the BLE module).")
    var api: API = .corebluetooth

    func validate() throws {
        if let sendCount, sendCount < 0 { throw ValidationError("--send-count must be 0 or more.") }
        if let receiveCount, receiveCount < 0 { throw ValidationError("--receive-count must be 0 or more.") }
        guard minSize >= 0, maxSize >= minSize, maxSize <= ChatFrame.maximumMessageLength else {
            throw ValidationError("--min-size and --max-size must satisfy 0 ≤ min ≤ max ≤ 65535.")
        }
        guard heartbeat.isFinite, heartbeat >= 0.05, heartbeat <= 60 else {
            throw ValidationError("--heartbeat must be between 0.05 and 60 seconds.")
        }
        guard timeout.isFinite, timeout > 0 else { throw ValidationError("--timeout must be a positive number of seconds.") }
    }

    @OptionGroup(title: "Logging") var logging: LoggingOptions

    func run() async throws {
        // The chat app picks its controller as every OpenCoreBluetooth program does: from
        // SWIFTBLE_HCI (DESIGN.md). --hci sets it for this process.
        if let hci { setenv("SWIFTBLE_HCI", hci, 1) }
        let configuration = ChatSession.Configuration(heartbeatInterval: .milliseconds(Int64((heartbeat * 1000).rounded())))
        let script = sendCount.map { ChatScript(count: $0, sizes: minSize ... maxSize, seed: seed) }
        let run = await Self.makeRun(api: api, name: name, peer: peer, configuration: configuration, script: script,
                                     receiveCount: receiveCount ?? sendCount ?? 0, timeout: timeout, hci: hci)
        try await run.run()
    }

    @MainActor
    private static func makeRun(api: API, name: String, peer: String?, configuration: ChatSession.Configuration,
                                script: ChatScript?, receiveCount: Int, timeout: Double, hci: String?) -> ChatRun {
        let engine: any ChatDriver = switch api {
        case .corebluetooth: ChatEngine(name: name, partnerName: peer, configuration: configuration)
        case .frontdoor: FrontDoorChat(name: name, partnerName: peer, configuration: configuration, hci: nil)
        }
        return ChatRun(engine: engine, script: script, receiveCount: receiveCount, timeout: timeout, hci: hci ?? Adapter.defaultSpec,
                       partnerName: peer)
    }
}
