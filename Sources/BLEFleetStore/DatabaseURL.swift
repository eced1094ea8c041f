#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the fleet store lives, parsed from `--database`: an SQLite file or a PostgreSQL server.
///
/// Accepted forms: `sqlite:PATH` (relative or absolute), `sqlite::memory:` (tests),
/// `sqlite:///ABSOLUTE/PATH`, and `postgres://USER:PASSWORD@HOST:PORT/DATABASE?sslmode=…`
/// (`postgresql://` too). Parts a PostgreSQL URL leaves out are read from `PGHOST`, `PGPORT`,
/// `PGUSER`, `PGPASSWORD`, `PGDATABASE` and `PGSSLMODE` as psql reads them (PostgreSQL 15
/// docs, §34.1.1 "Connection Strings" and §34.15 "Environment Variables").
public enum DatabaseURL: Hashable, Sendable, CustomStringConvertible {
    /// An SQLite database file (created when missing; its directory must exist).
    case sqlite(path: String)
    /// An SQLite database in memory, gone at close: for tests.
    case sqliteInMemory
    /// A PostgreSQL server and database.
    case postgres(PostgresTarget)

    /// The store used when no `--database` is given: `ble-fleet.sqlite` in the working directory.
    public static let defaultURL = "sqlite:ble-fleet.sqlite"

    /// Parses a database URL.
    ///
    /// - Parameters:
    ///   - text: The URL as the user typed it.
    ///   - environment: Where `PG*` variables are read (the process environment by default).
    /// - Throws: ``FleetStoreError/invalidURL(_:reason:)`` naming what is wrong and what is accepted.
    public init(parsing text: String, environment: [String: String] = DatabaseURL.processEnvironment()) throws(FleetStoreError) {
        if text.hasPrefix("sqlite:") {
            let rest = String(text.dropFirst("sqlite:".count))
            if rest == ":memory:" {
                self = .sqliteInMemory
            } else if rest.hasPrefix("///") {
                self = .sqlite(path: String(rest.dropFirst(2)))
            } else if rest.hasPrefix("//") {
                throw .invalidURL(text, reason: "an SQLite URL names a path, not a host (write sqlite:PATH or sqlite:///ABSOLUTE/PATH)")
            } else if rest.isEmpty {
                throw .invalidURL(text, reason: "the SQLite path is empty")
            } else {
                self = .sqlite(path: rest)
            }
        } else if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            self = .postgres(try PostgresTarget(parsing: text, environment: environment))
        } else {
            let scheme = text.split(separator: ":", maxSplits: 1).first.map(String.init) ?? text
            throw .invalidURL(text, reason: text.contains(":") ? "the scheme '\(scheme)' is not supported" : "it has no scheme")
        }
    }

    /// The URL without its password, for logs and messages.
    public var description: String {
        switch self {
        case .sqlite(let path): "sqlite:\(path)"
        case .sqliteInMemory: "sqlite::memory:"
        case .postgres(let target): target.description
        }
    }

    /// The process environment as a dictionary.
    public static func processEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let pair = String(cString: entry)
            if let equals = pair.firstIndex(of: "=") {
                result[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }
}

/// A PostgreSQL server, login and database, with every part filled in from the URL or the
/// `PG*` variables.
public struct PostgresTarget: Hashable, Sendable, CustomStringConvertible {
    /// How to reach the server.
    public enum Endpoint: Hashable, Sendable {
        /// A host name or address and a TCP port.
        case tcp(host: String, port: Int)
        /// A Unix-domain socket: the directory in `PGHOST` plus `.s.PGSQL.PORT`.
        case unixSocket(path: String)
    }

    /// libpq's `sslmode` (PostgreSQL 15 docs, §34.19.1 "SSL Support").
    public enum SSLMode: String, Hashable, Sendable, CaseIterable {
        /// No TLS.
        case disable
        /// TLS when the server offers it (treated as `prefer`: postgres-nio has no "allow").
        case allow
        /// TLS when the server offers it, else plain (libpq's default).
        case prefer
        /// TLS or fail; the certificate is not verified (as libpq does).
        case require
        /// TLS with the certificate's chain verified, not its host name.
        case verifyCA = "verify-ca"
        /// TLS with the chain and the host name verified.
        case verifyFull = "verify-full"
    }

    /// The server.
    public var endpoint: Endpoint
    /// The role to log in as.
    public var user: String
    /// The password, when one is given.
    public var password: String?
    /// The database name.
    public var database: String
    /// Whether and how to use TLS.
    public var sslMode: SSLMode

    /// A target with every part given.
    public init(endpoint: Endpoint, user: String, password: String?, database: String, sslMode: SSLMode) {
        self.endpoint = endpoint
        self.user = user
        self.password = password
        self.database = database
        self.sslMode = sslMode
    }

    /// `host:port` or the socket path, for messages.
    public var endpointDescription: String {
        switch endpoint {
        case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        case .unixSocket(let path): path
        }
    }

    /// The URL without the password.
    public var description: String {
        switch endpoint {
        case .tcp: "postgres://\(user)@\(endpointDescription)/\(database)?sslmode=\(sslMode.rawValue)"
        case .unixSocket(let path): "postgres://\(user)@/\(database)?host=\(path)"
        }
    }

    /// The same server and login with another database (tests create one per test).
    public func with(database: String) -> PostgresTarget {
        var copy = self
        copy.database = database
        return copy
    }

    /// Parses `postgres://[USER[:PASSWORD]@][HOST][:PORT][/DATABASE][?sslmode=…&host=…]`.
    init(parsing text: String, environment: [String: String]) throws(FleetStoreError) {
        let scheme = text.hasPrefix("postgresql://") ? "postgresql://" : "postgres://"
        var rest = Substring(text.dropFirst(scheme.count))
        var parameters: [String: String] = [:]
        if let question = rest.firstIndex(of: "?") {
            for pair in rest[rest.index(after: question)...].split(separator: "&") where !pair.isEmpty {
                let parts = pair.split(separator: "=", maxSplits: 1)
                let name = String(parts[0])
                let value = parts.count > 1 ? try Self.percentDecoded(parts[1], in: text) : ""
                guard ["sslmode", "host", "port", "user", "password", "dbname", "application_name", "connect_timeout"].contains(name) else {
                    throw .invalidURL(text, reason: "the parameter '\(name)' is not supported (sslmode, host, port, user, password and dbname are)")
                }
                parameters[name] = value
            }
            rest = rest[..<question]
        }
        var path: Substring = ""
        if let slash = rest.firstIndex(of: "/") {
            path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
        }
        var user: String?
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            let userInfo = rest[..<at]
            rest = rest[rest.index(after: at)...]
            if let colon = userInfo.firstIndex(of: ":") {
                user = try Self.percentDecoded(userInfo[..<colon], in: text)
                password = try Self.percentDecoded(userInfo[userInfo.index(after: colon)...], in: text)
            } else {
                user = try Self.percentDecoded(userInfo, in: text)
            }
        }
        var host: String?
        var portText: String?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw .invalidURL(text, reason: "the IPv6 address has no closing ']'") }
            host = String(rest[rest.index(after: rest.startIndex)..<close])
            let after = rest[rest.index(after: close)...]
            if after.hasPrefix(":") { portText = String(after.dropFirst()) } else if !after.isEmpty {
                throw .invalidURL(text, reason: "'\(after)' after the IPv6 address is not ':PORT'")
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = String(rest[..<colon])
            portText = String(rest[rest.index(after: colon)...])
        } else {
            host = String(rest)
        }
        if let raw = host { host = raw.isEmpty ? nil : try Self.percentDecoded(Substring(raw), in: text) }
        host = parameters["host"] ?? host ?? environment["PGHOST"].flatMap { $0.isEmpty ? nil : $0 }
        portText = parameters["port"] ?? ((portText?.isEmpty ?? true) ? environment["PGPORT"] : portText)
        var port = 5432
        if let portText, !portText.isEmpty {
            guard let parsed = Int(portText), (1...65535).contains(parsed) else {
                throw .invalidURL(text, reason: "the port '\(portText)' is not a number from 1 to 65535")
            }
            port = parsed
        }
        let resolvedUser = parameters["user"] ?? user.flatMap { $0.isEmpty ? nil : $0 } ?? environment["PGUSER"] ?? Self.operatingSystemUser()
        guard let resolvedUser, !resolvedUser.isEmpty else {
            throw .invalidURL(text, reason: "it names no user, and neither PGUSER nor the system user name gives one")
        }
        let pathDatabase = path.isEmpty ? nil : try Self.percentDecoded(path, in: text)
        let database = parameters["dbname"] ?? pathDatabase ?? environment["PGDATABASE"] ?? resolvedUser
        let modeText = parameters["sslmode"] ?? environment["PGSSLMODE"] ?? "prefer"
        guard let mode = SSLMode(rawValue: modeText) else {
            throw .invalidURL(text, reason: "sslmode '\(modeText)' is not one of \(SSLMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        // libpq: a host that starts with a slash is the directory of the server's Unix socket;
        // with no host at all, Debian's libpq uses /var/run/postgresql.
        let hostOrSocket = host ?? "/var/run/postgresql"
        let endpoint: Endpoint = hostOrSocket.hasPrefix("/")
            ? .unixSocket(path: "\(hostOrSocket)/.s.PGSQL.\(port)")
            : .tcp(host: hostOrSocket, port: port)
        self.init(endpoint: endpoint, user: resolvedUser, password: parameters["password"] ?? password ?? environment["PGPASSWORD"],
                  database: database, sslMode: mode)
    }

    /// `%XX` decoded as UTF-8; a malformed escape is a URL error.
    static func percentDecoded(_ text: Substring, in url: String) throws(FleetStoreError) -> String {
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let first = utf8.index(after: index)
                guard first < utf8.endIndex, utf8.index(after: first) < utf8.endIndex,
                      let value = UInt8(String(decoding: utf8[first...utf8.index(after: first)], as: UTF8.self), radix: 16)
                else { throw .invalidURL(url, reason: "'%' is not followed by two hexadecimal digits") }
                bytes.append(value)
                index = utf8.index(first, offsetBy: 2)
            } else {
                bytes.append(byte)
                index = utf8.index(after: index)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The name of the user running this process, as libpq defaults PGUSER to it.
    static func operatingSystemUser() -> String? {
        guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }
}
