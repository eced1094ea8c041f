import Foundation
import HummingbirdWSClient
import Logging

/// Another process's world, as `ble dashboard --attach` sees it: the WebSocket of a
/// `ble sim serve --watch-port` (or of another dashboard), read for its hello — which carries
/// the map — and its updates, which ``DashboardFeed`` passes on to its own pages. When the
/// connection fails or closes, the feed's event log says so and the connection is tried again
/// every ``retryDelay``; a world that restarted has a new session, and pages start afresh.
struct DashboardUpstream: Sendable {
    /// The WebSocket's address, `ws://HOST:PORT/ws?map=1`.
    let url: String
    /// What `--attach` said, for messages.
    let given: String
    let logger: Logger

    /// How long to wait before trying a lost world again.
    static let retryDelay = Duration.seconds(1)
    /// The largest message taken: a hello carries the map's SVG and the last 2000 points and events.
    static let maxMessage = 64 << 20

    /// The upstream that `value` names: `ws://HOST:PORT` or `http://HOST:PORT`, with an optional path (default `/ws`).
    /// - Throws: ``DashboardError/invalidAttach(_:)`` for anything else.
    init(_ value: String, logger: Logger) throws(DashboardError) {
        guard var parts = URLComponents(string: value), let scheme = parts.scheme?.lowercased(), ["ws", "http"].contains(scheme),
              let host = parts.host, !host.isEmpty, parts.port != nil, parts.query == nil else { throw .invalidAttach(value) }
        parts.scheme = "ws"
        if parts.path.isEmpty || parts.path == "/" { parts.path = "/ws" }
        parts.query = "map=1"
        guard let url = parts.string else { throw .invalidAttach(value) }
        self.url = url
        given = value
        self.logger = logger
    }

    /// Reads the world into `feed` until the task is cancelled, reconnecting when it goes away.
    func run(into feed: DashboardFeed) async {
        while !Task.isCancelled {
            let reason: String
            do {
                try await WebSocketClient.connect(url: url, configuration: .init(maxFrameSize: Self.maxMessage), logger: logger) { inbound, _, _ in
                    for try await message in inbound.messages(maxSize: Self.maxMessage) {
                        guard case let .text(text) = message else { continue }
                        await Self.receive(text, into: feed, logger: logger)
                    }
                }
                reason = "it closed the connection"
            } catch {
                reason = "\(error)"
            }
            if Task.isCancelled { return }
            let sentence = "the world at \(given) cannot be reached (\(reason)); trying again every second"
            if await feed.lostUpstream(sentence) { logger.warning("\(sentence)") }
            do { try await Task.sleep(for: Self.retryDelay) } catch { return }
        }
    }

    /// One message of the world: a hello or an update; anything else is logged and skipped.
    private static func receive(_ text: String, into feed: DashboardFeed, logger: Logger) async {
        let data = Data(text.utf8)
        let decoder = JSONDecoder()
        do {
            switch try decoder.decode(Kind.self, from: data).type {
            case "hello": await feed.attached(try decoder.decode(DashboardMessage.Hello.self, from: data))
            case "update": await feed.publish(try decoder.decode(DashboardMessage.Update.self, from: data))
            case let other: logger.notice("the attached world sent a message of an unknown type \"\(other)\"; skipped")
            }
        } catch {
            logger.warning("the attached world sent a message that is not the dashboard's: \(error); skipped")
        }
    }

    private struct Kind: Decodable {
        var type: String
    }
}
