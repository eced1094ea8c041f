import Logging
import NIOCore
import NIOPosix
import PostgresNIO
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a ``PostgresTarget`` becomes postgres-nio's configuration, and how postgres-nio's
/// errors become ``FleetStoreError``s that say what to do.
enum PostgresConnecting {
    /// postgres-nio's configuration for `target`: TCP or a Unix socket, TLS as `sslmode` asks
    /// (PostgreSQL 15 docs, §34.19.1: `require` does not verify the certificate, `verify-ca`
    /// verifies the chain, `verify-full` also the host name).
    static func configuration(for target: PostgresTarget) throws(FleetStoreError) -> PostgresConnection.Configuration {
        var settings: PostgresConnection.Configuration
        switch target.endpoint {
        case .unixSocket(let path):
            settings = .init(unixSocketPath: path, username: target.user, password: target.password, database: target.database)
        case .tcp(let host, let port):
            let tls: PostgresConnection.Configuration.TLS
            do {
                var client = TLSConfiguration.makeClientConfiguration()
                switch target.sslMode {
                case .disable:
                    tls = .disable
                case .allow, .prefer:
                    client.certificateVerification = .none
                    tls = .prefer(try NIOSSLContext(configuration: client))
                case .require:
                    client.certificateVerification = .none
                    tls = .require(try NIOSSLContext(configuration: client))
                case .verifyCA:
                    client.certificateVerification = .noHostnameVerification
                    tls = .require(try NIOSSLContext(configuration: client))
                case .verifyFull:
                    client.certificateVerification = .fullVerification
                    tls = .require(try NIOSSLContext(configuration: client))
                }
            } catch {
                throw .cannotConnect(endpoint: target.endpointDescription, reason: "TLS could not be set up (\(error))")
            }
            settings = .init(host: host, port: port, username: target.user, password: target.password, database: target.database, tls: tls)
        }
        settings.options.connectTimeout = .seconds(10)
        return settings
    }

    /// A postgres-nio error as the store reports it. Losing the connection (the server stopped,
    /// the network dropped, SQLSTATE class 08 or 57P01–57P03) is ``FleetStoreError/cannotConnect(endpoint:reason:)``.
    static func mapped(_ error: any Error, target: PostgresTarget) -> FleetStoreError {
        if let error = error as? FleetStoreError { return error }
        if let error = error as? PostgresDecodingError { return .unreadableRow(reason: "\(error)") }
        guard let error = error as? PSQLError else { return .queryFailed(sqlState: nil, message: "\(error)") }
        let endpoint = target.endpointDescription
        switch error.code {
        case .server:
            let state = error.serverInfo?[.sqlState]
            let message = error.serverInfo?[.message] ?? "no message"
            switch state {
            case "28P01", "28000":
                return .authenticationRefused(user: target.user, endpoint: endpoint)
            case "3D000":
                return .databaseNotFound(name: target.database, endpoint: endpoint)
            case .some(let code) where code.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(code):
                return .cannotConnect(endpoint: endpoint, reason: "the server ended the connection (SQLSTATE \(code): \(message))")
            default:
                return .queryFailed(sqlState: state, message: message)
            }
        case .authMechanismRequiresPassword:
            return .authenticationRefused(user: target.user, endpoint: endpoint)
        case .sslUnsupported:
            return .cannotConnect(endpoint: endpoint, reason: "the server does not offer TLS, which sslmode=\(target.sslMode.rawValue) requires")
        case .connectionError, .serverClosedConnection, .uncleanShutdown, .clientClosedConnection:
            return .cannotConnect(endpoint: endpoint, reason: reason(error))
        default:
            return .queryFailed(sqlState: nil, message: "\(error.code)")
        }
    }

    /// Why a connection failed, in words: "connection refused" rather than a type dump.
    private static func reason(_ error: PSQLError) -> String {
        guard let underlying = error.underlying else {
            return error.code == .connectionError ? "the connection failed" : "the server closed the connection"
        }
        // NIO reports a failed connect as NIOConnectionError holding one IOError per address tried.
        let errors = (underlying as? NIOConnectionError).map { $0.connectionErrors.map(\.error) } ?? [underlying]
        for case let io as IOError in errors {
            switch io.errnoCode {
            case ECONNREFUSED: return "connection refused (nothing listens there)"
            case ENOENT: return "no such socket"
            case ETIMEDOUT: return "the connection timed out"
            case EHOSTUNREACH, ENETUNREACH: return "the host cannot be reached"
            case ECONNRESET: return "the connection was reset"
            default: return String(cString: strerror(io.errnoCode))
            }
        }
        if let connection = underlying as? NIOConnectionError, let dns = connection.dnsAError ?? connection.dnsAAAAError {
            return "the host name did not resolve (\(dns))"
        }
        let text = "\(underlying)"
        if text.contains("refused") { return "connection refused (nothing listens there)" }
        if text.lowercased().contains("timeout") || text.lowercased().contains("timed out") { return "no answer within 10 s" }
        return text
    }
}
