import BLEFleet
import Foundation
import Hummingbird
import NIOCore

/// The back end's routes: each operation of `openapi.yaml` (the contract; a test checks every
/// answer against it) as a thin handler that reads its parameters strictly, asks
/// ``BackendQueries`` and writes JSON. Errors become JSON bodies in ``BackendErrorMiddleware``.
public enum BackendRoutes {
    /// A router serving `queries`, with the error middleware in front of every route.
    ///
    /// - Parameter queries: The answers, over a fleet store.
    /// - Returns: The router, for an `Application` (``BackendServer`` makes one).
    public static func router(_ queries: BackendQueries) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.middlewares.add(BackendErrorMiddleware())

        router.get("health") { _, _ -> Response in
            try BackendJSON.response(try await queries.health())
        }
        router.get("openapi.yaml") { _, _ -> Response in
            let document = try OpenAPIDocument.text()
            return Response(status: .ok, headers: [.contentType: "application/yaml"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: document)))
        }
        router.get("identities") { _, _ -> Response in
            try BackendJSON.response(try await queries.identities())
        }
        router.get("identities/:identity/location") { request, context -> Response in
            let parameters = BackendParameters(request: request, context: context)
            let identity = try parameters.path("identity")
            let window = try parameters.seconds("window", default: BackendLimits.defaultWindowSeconds)
            return try BackendJSON.response(try await queries.location(identity: identity, window: window))
        }
        router.get("locations") { request, context -> Response in
            let parameters = BackendParameters(request: request, context: context)
            let window = try parameters.seconds("window", default: BackendLimits.defaultWindowSeconds)
            return try BackendJSON.response(try await queries.locations(window: window))
        }
        router.get("identities/:identity/history") { request, context -> Response in
            let parameters = BackendParameters(request: request, context: context)
            let identity = try parameters.path("identity")
            let range = try parameters.range()
            return try BackendJSON.response(try await queries.history(identity: identity, from: range.from, to: range.to, limit: try parameters.limit()))
        }
        router.get("identities/:identity/passages") { request, context -> Response in
            let parameters = BackendParameters(request: request, context: context)
            let identity = try parameters.path("identity")
            let range = try parameters.range()
            let gap = try parameters.seconds("gap", default: BackendLimits.defaultGapSeconds)
            return try BackendJSON.response(try await queries.passages(identity: identity, from: range.from, to: range.to, gap: gap))
        }
        router.get("identities/:identity/track") { request, context -> Response in
            let parameters = BackendParameters(request: request, context: context)
            let identity = try parameters.path("identity")
            let range = try parameters.range()
            return try BackendJSON.response(try await queries.track(identity: identity, from: range.from, to: range.to, limit: try parameters.limit()))
        }
        router.get("zones") { _, _ -> Response in
            try BackendJSON.response(try await queries.zones())
        }
        router.get("zones/:zone/visits") { request, context -> Response in
            let parameters = BackendParameters(request: request, context: context)
            let zone = try parameters.path("zone")
            let range = try parameters.range()
            let gap = try parameters.seconds("gap", default: BackendLimits.defaultGapSeconds)
            let assign = try parameters.text("assign") ?? "each"
            guard ["each", "presence"].contains(assign) else {
                throw BackendError.badParameter("assign", "'\(assign)' is not each or presence")
            }
            return try BackendJSON.response(try await queries.visits(zone: zone, from: range.from, to: range.to, gap: gap, presence: assign == "presence"))
        }
        router.get("dwell") { request, context -> Response in
            let parameters = BackendParameters(request: request, context: context)
            let range = try parameters.range()
            let gap = try parameters.seconds("gap", default: BackendLimits.defaultGapSeconds)
            let slot = try parameters.seconds("slot", default: BackendLimits.defaultSlotSeconds)
            let assign = try parameters.text("assign") ?? "each"
            guard ["each", "nearest", "presence"].contains(assign) else {
                throw BackendError.badParameter("assign", "'\(assign)' is not each, nearest or presence")
            }
            return try BackendJSON.response(try await queries.dwell(zone: try parameters.text("zone"), identity: try parameters.text("identity"),
                                                                    from: range.from, to: range.to, gap: gap,
                                                                    nearestSlot: assign == "nearest" ? slot : nil, presence: assign == "presence"))
        }
        router.get("gateways") { _, _ -> Response in
            try BackendJSON.response(try await queries.gateways())
        }
        router.put("gateways/:gateway/zone") { request, context -> Response in
            let gateway = try BackendParameters(request: request, context: context).path("gateway")
            let assignment = try await BackendJSON.decode(BackendPayloads.ZoneAssignment.self, from: request)
            return try BackendJSON.response(try await queries.assignZone(assignment.zone, gateway: gateway))
        }
        router.post("rides") { request, _ -> Response in
            let ride = try await BackendJSON.decode(RideLog.self, from: request)
            let stored = try await queries.postRide(ride)
            return try BackendJSON.response(BackendPayloads.RideCreated(reference: stored.reference), status: stored.created ? .created : .ok)
        }
        router.get("rides/:reference") { request, context -> Response in
            let reference = try BackendParameters(request: request, context: context).path("reference")
            return try BackendJSON.response(try await queries.ride(reference: reference))
        }
        router.post("phone-sightings") { request, _ -> Response in
            let batch = try await BackendJSON.decode(BackendPayloads.PhoneSightingBatch.self, from: request)
            return try BackendJSON.response(try await queries.postPhoneSightings(batch), status: .accepted)
        }
        router.post("eid/resolve") { request, _ -> Response in
            let observation = try await BackendJSON.decode(BackendPayloads.EIDObservation.self, from: request)
            return try BackendJSON.response(try queries.resolveEID(observation))
        }
        return router
    }
}
