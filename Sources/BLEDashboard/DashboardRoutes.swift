import BLEBackend
import BLEFleetStore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The dashboard's HTTP routes: the page and its assets (SwiftPM resources under Page/), the
/// map, and the back end under `/api/`.
enum DashboardRoutes {
    /// The page's files and their media types.
    static let assets: [String: String] = [
        "index.html": "text/html; charset=utf-8",
        "dashboard.js": "text/javascript; charset=utf-8",
        "dashboard.css": "text/css; charset=utf-8",
    ]

    /// The router serving `feed`'s page and map and, when there is a store, the back end over it.
    static func router(feed: DashboardFeed, store: (any FleetStore)?) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.get("/") { _, _ -> Response in try asset("index.html") }
        for name in assets.keys {
            router.get(RouterPath(stringLiteral: name)) { _, _ -> Response in try asset(name) }
        }
        router.get("map.svg") { _, _ -> Response in
            guard let svg = await feed.mapSVG else {
                throw HTTPError(.notFound, message: "this dashboard shows a store only: it has no world to draw")
            }
            return Response(status: .ok, headers: [.contentType: "image/svg+xml", .cacheControl: "no-store"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: svg)))
        }
        if let store {
            let backend = BackendRoutes.router(BackendQueries(store: store)).buildResponder()
            router.get("api/**") { request, context -> Response in
                // The back end's routes sit at the root; the page asks them under /api/.
                var head = request.head
                head.path = String((head.path ?? "/").dropFirst("/api".count))
                return try await backend.respond(to: Request(head: head, body: request.body), context: context)
            }
        }
        return router
    }

    /// A file of the page, from the module's resources.
    static func asset(_ name: String) throws -> Response {
        guard let type = assets[name], let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Page"),
              let data = try? Data(contentsOf: url) else {
            throw HTTPError(.notFound, message: "the page's file \(name) is missing from this build")
        }
        return Response(status: .ok, headers: [.contentType: type, .cacheControl: "no-store"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
