import BLEHost
import BLEProfiles
import Foundation
import Synchronization

/// One ANCS session of an ``ANCSConsumer``: one link to a phone. Notification Source events
/// and actions are carried out one at a time, in order, by a single loop; Data Source
/// fragments are fed to the reassembler as they come.
final class ANCSConsumerSession: Sendable {
    private enum Work: Sendable {
        case event(ANCS.NotificationSourceEvent)
        case perform(ANCS.ActionID, UInt32, @Sendable (ANCSConsumerError?) -> Void)
    }

    private struct Pending {
        var reassembler = ANCS.DataSourceReassembler()
        var result: Result<ANCS.DataSourceResponse, ANCSConsumerError>?
        var waiter: CheckedContinuation<Result<ANCS.DataSourceResponse, ANCSConsumerError>, Never>?
    }

    private let connection: Connection
    private let configuration: ANCSConsumer.Configuration
    private let report: AsyncStream<ANCSConsumerEvent>.Continuation
    private let work: AsyncStream<Work>
    private let workContinuation: AsyncStream<Work>.Continuation
    private let pending = Mutex(Pending())
    /// The control point, once discovered.
    private let controlPoint = Mutex<RemoteCharacteristic?>(nil)

    init(connection: Connection, configuration: ANCSConsumer.Configuration, report: AsyncStream<ANCSConsumerEvent>.Continuation) {
        self.connection = connection
        self.configuration = configuration
        self.report = report
        (work, workContinuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    /// Sets the session up and runs it until the link goes down.
    func run() async {
        let source: GATTNotifications, data: GATTNotifications
        do throws(ANCSConsumerError) {
            (source, data) = try await subscribe()
        } catch {
            report.yield(.failure(error))
            _ = try? await connection.disconnect()
            workContinuation.finish()
            return
        }
        report.yield(.sessionStarted(peer: connection.peer))
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await fragment in data { self.received(fragment) }
            }
            group.addTask {
                for await value in source {
                    do throws(WireError) {
                        self.workContinuation.yield(.event(try ANCS.NotificationSourceEvent(decoding: value)))
                    } catch {
                        self.report.yield(.failure(.malformedNotificationSource(error)))
                    }
                }
                // The link went down: no more work.
                self.workContinuation.finish()
            }
            group.addTask { await self.process() }
            await group.next()
            await group.next()
            group.cancelAll()
        }
        failPending(.link(.disconnected(connection.disconnectReason ?? .remoteUserTerminatedConnection)))
    }

    /// Performs `action` on `uid`, after the work queued before it.
    func perform(_ action: ANCS.ActionID, on uid: UInt32) async throws(ANCSConsumerError) {
        let failure: ANCSConsumerError? = await withCheckedContinuation { continuation in
            let result = workContinuation.yield(.perform(action, uid, { continuation.resume(returning: $0) }))
            if case .terminated = result { continuation.resume(returning: .noSession) }
        }
        if let failure { throw failure }
    }

    // MARK: Setting up

    /// Discovers ANCS and subscribes to the Data Source, then the Notification Source,
    /// pairing once if the phone asks for it.
    private func subscribe() async throws(ANCSConsumerError) -> (GATTNotifications, GATTNotifications) {
        do {
            guard let service = try await connection.services([ANCS.service]).first else { throw ANCSConsumerError.serviceMissing("no ANCS service") }
            let characteristics = try await connection.characteristics(of: service)
            func find(_ uuid: BluetoothUUID, _ name: String) throws(ANCSConsumerError) -> RemoteCharacteristic {
                guard let found = characteristics.first(where: { $0.uuid == uuid }) else { throw .serviceMissing("no \(name)") }
                return found
            }
            let source = try find(ANCS.notificationSource, "Notification Source")
            let point = try find(ANCS.controlPoint, "Control Point")
            let data = try find(ANCS.dataSource, "Data Source")
            controlPoint.withLock { $0 = point }
            let dataNotifications = try await subscribeSecurely(data)
            let sourceNotifications = try await subscribeSecurely(source)
            return (sourceNotifications, dataNotifications)
        } catch let error as ANCSConsumerError {
            throw error
        } catch let error as BLEError {
            throw .link(error)
        } catch {
            throw .link(.procedureFailed("\(error)"))
        }
    }

    /// Subscribes; an Insufficient Authentication or Encryption answer makes the accessory
    /// pair (Security Request) and try once more (ANCS Specification; Accessory Design
    /// Guidelines: the accessory starts security when the phone refuses for it).
    private func subscribeSecurely(_ characteristic: RemoteCharacteristic) async throws(BLEError) -> GATTNotifications {
        do {
            return try await connection.notifications(for: characteristic)
        } catch .att(.insufficientAuthentication, _), .att(.insufficientEncryption, _) {
            try await connection.pair()
            return try await connection.notifications(for: characteristic)
        }
    }

    // MARK: The work loop

    private func process() async {
        var appNames: [String: String] = [:]
        for await item in work {
            switch item {
            case let .perform(action, uid, done):
                done(await write(.performNotificationAction(notificationUID: uid, action: action)))
            case let .event(event):
                var note = ANCSNotification(event)
                if event.eventID != .removed {
                    let command = ANCS.ControlPointCommand.getNotificationAttributes(notificationUID: event.notificationUID, attributes: [
                        .init(.appIdentifier), .init(.title, maximumLength: configuration.titleLength),
                        .init(.subtitle, maximumLength: configuration.subtitleLength),
                        .init(.message, maximumLength: configuration.messageLength), .init(.date),
                        .init(.positiveActionLabel), .init(.negativeActionLabel),
                    ])
                    switch await request(command) {
                    case let .success(.notificationAttributes(_, attributes)):
                        for attribute in attributes { Self.set(attribute, in: &note) }
                    case .success:
                        break
                    case let .failure(error):
                        // Invalid Parameter: the notification went away meanwhile (its removal
                        // follows); it is still reported, without attributes.
                        if error != .refused(.invalidParameter) { report.yield(.failure(error)) }
                    }
                    if let app = note.appIdentifier, !app.isEmpty {
                        if appNames[app] == nil,
                           case let .success(.appAttributes(_, attributes)) = await request(.getAppAttributes(appIdentifier: app, attributes: [.displayName])) {
                            appNames[app] = attributes.first?.string ?? ""
                        }
                        note.appName = appNames[app]
                    }
                }
                report.yield(.notification(note))
            }
        }
    }

    private static func set(_ attribute: ANCS.NotificationAttribute, in note: inout ANCSNotification) {
        let text = attribute.string
        switch attribute.id {
        case .appIdentifier: note.appIdentifier = text
        case .title: note.title = text
        case .subtitle: note.subtitle = text
        case .message: note.message = text
        case .date: note.date = text
        case .positiveActionLabel: note.positiveActionLabel = note.flags.contains(.positiveAction) ? text : nil
        case .negativeActionLabel: note.negativeActionLabel = note.flags.contains(.negativeAction) ? text : nil
        case .messageSize: break
        }
    }

    // MARK: Commands

    /// Writes `command` to the Control Point; the ANCS error if the phone refuses it.
    private func write(_ command: ANCS.ControlPointCommand) async -> ANCSConsumerError? {
        guard let point = controlPoint.withLock({ $0 }) else { return .noSession }
        do {
            try await connection.write(command.encoded(), to: point)
            return nil
        } catch let .att(code, _) {
            if let ancs = ANCS.ErrorCode(code) { return .refused(ancs) }
            return .link(.att(code, handle: point.valueHandle))
        } catch {
            return .link(error)
        }
    }

    /// Sends a Get command and awaits its Data Source response.
    private func request(_ command: ANCS.ControlPointCommand) async -> Result<ANCS.DataSourceResponse, ANCSConsumerError> {
        pending.withLock { pending in
            pending.reassembler.expect(command)
            pending.result = nil
            pending.waiter = nil
        }
        if let failure = await write(command) {
            pending.withLock { $0.reassembler.cancel() }
            return .failure(failure)
        }
        let clock = connection.core.host.clock
        let limit = configuration.responseTimeout
        let timer = Task {
            try? await clock.sleep(for: limit)
            if !Task.isCancelled { self.failPending(.timedOut) }
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let ready = pending.withLock { pending -> Result<ANCS.DataSourceResponse, ANCSConsumerError>? in
                if let result = pending.result {
                    pending.result = nil
                    return result
                }
                pending.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// One Data Source notification: fed to the response awaited; data nobody awaits is
    /// reported and dropped.
    private func received(_ fragment: [UInt8]) {
        let outcome = pending.withLock { pending -> Result<ANCS.DataSourceResponse, ANCSConsumerError>?? in
            guard pending.reassembler.isAwaiting else { return .some(nil) }
            do throws(ANCS.DataSourceError) {
                guard let response = try pending.reassembler.append(fragment) else { return nil }
                return .success(response)
            } catch {
                return .failure(.malformedResponse(error))
            }
        }
        switch outcome {
        case .none: return
        case .some(.none): report.yield(.failure(.malformedResponse(.unexpected)))
        case let .some(.some(result)): deliver(result)
        }
    }

    private func failPending(_ error: ANCSConsumerError) {
        pending.withLock { $0.reassembler.cancel() }
        deliver(.failure(error))
    }

    /// Hands `outcome` to the request waiting, or keeps it for the request about to wait.
    private func deliver(_ outcome: Result<ANCS.DataSourceResponse, ANCSConsumerError>) {
        let waiter = pending.withLock { pending -> CheckedContinuation<Result<ANCS.DataSourceResponse, ANCSConsumerError>, Never>? in
            if let waiter = pending.waiter {
                pending.waiter = nil
                return waiter
            }
            pending.result = outcome
            return nil
        }
        waiter?.resume(returning: outcome)
    }
}
