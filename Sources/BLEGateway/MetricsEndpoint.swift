import NIOCore
import NIOHTTP1
import NIOPosix
import Prometheus

/// The `/metrics` page Prometheus scrapes (its text exposition format, version 0.0.4), served
/// over HTTP/1.1 by SwiftNIO for `ble gateway --metrics-port`: `GET /metrics` answers 200 with
/// what the registry holds now; any other path answers 404, any other method 405.
public final class MetricsEndpoint: Sendable {
    /// The address and port it listens on (the port the system chose when 0 was asked).
    public let host: String
    /// The port.
    public let port: Int
    private let channel: any Channel

    private init(host: String, port: Int, channel: any Channel) {
        self.host = host
        self.port = port
        self.channel = channel
    }

    /// Starts serving `registry` on `host`:`port` (0 picks a free port).
    /// - Throws: the socket's error, e.g. when the port is taken.
    public static func start(registry: PrometheusCollectorRegistry, host: String = "127.0.0.1", port: Int) async throws -> MetricsEndpoint {
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(MetricsHandler(registry: registry))
                }
            }
        let channel = try await bootstrap.bind(host: host, port: port).get()
        return MetricsEndpoint(host: host, port: channel.localAddress?.port ?? port, channel: channel)
    }

    /// Stops listening.
    public func stop() async {
        try? await channel.close()
    }
}

/// Answers each request on one connection.
private final class MetricsHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let registry: PrometheusCollectorRegistry
    private var head: HTTPRequestHead?

    init(registry: PrometheusCollectorRegistry) { self.registry = registry }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case let .head(request):
            head = request
        case .body:
            break
        case .end:
            guard let request = head else { return }
            head = nil
            let (status, type, body): (HTTPResponseStatus, String, [UInt8])
            if request.method != .GET && request.method != .HEAD {
                (status, type, body) = (.methodNotAllowed, "text/plain; charset=utf-8", Array("Only GET is served here.\n".utf8))
            } else if request.uri.split(separator: "?").first.map(String.init) == "/metrics" {
                (status, type, body) = (.ok, "text/plain; version=0.0.4; charset=utf-8", registry.emitToBuffer())
            } else {
                (status, type, body) = (.notFound, "text/plain; charset=utf-8", Array("Not found: the metrics are at /metrics.\n".utf8))
            }
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: type)
            headers.add(name: "Content-Length", value: String(body.count))
            let keepAlive = request.isKeepAlive
            if !keepAlive { headers.add(name: "Connection", value: "close") }
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: status, headers: headers))), promise: nil)
            if request.method != .HEAD {
                context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
            }
            let done = context.eventLoop.makePromise(of: Void.self)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: done)
            if !keepAlive { done.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) } }
        }
    }
}
