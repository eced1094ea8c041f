import BLEPhone
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension NetworkRequest {
    /// What an app's `URLRequest` carries, as a simulated server receives it: method, host,
    /// path and query as percent-encoded in the URL, the header fields sorted by name, and the
    /// body (read from its stream when it has one instead). `nil` without a URL.
    public init?(_ request: URLRequest) {
        guard let url = request.url else { return nil }
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let path = components?.percentEncodedPath ?? "/"
        self.init(method: (request.httpMethod ?? "GET").uppercased(), host: url.host?.lowercased() ?? "",
                  path: path.isEmpty ? "/" : path, query: components?.percentEncodedQuery,
                  headers: (request.allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) },
                  body: request.httpBody ?? request.httpBodyStream.map(Self.read) ?? Data())
    }

    /// The bytes of a streamed body.
    private static func read(_ stream: InputStream) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        stream.open()
        defer { stream.close() }
        while stream.hasBytesAvailable {
            let count = stream.read(&buffer, maxLength: buffer.count)
            guard count > 0 else { break }
            data.append(buffer, count: count)
        }
        return data
    }
}

extension URLProtocol {
    /// Hands `response` to the loading system as the answer for `url`: the HTTP response,
    /// its body, the end of loading; a status no HTTP response can carry fails the load with
    /// `badServerResponse`.
    public func answer(with response: NetworkResponse, for url: URL) {
        guard let answer = HTTPURLResponse(url: url, statusCode: response.status, httpVersion: "HTTP/1.1",
                                           headerFields: response.headers) else {
            client?.urlProtocol(self, didFailWithError: URLError(.badServerResponse))
            return
        }
        client?.urlProtocol(self, didReceive: answer, cacheStoragePolicy: .notAllowed)
        if !response.body.isEmpty { client?.urlProtocol(self, didLoad: response.body) }
        client?.urlProtocolDidFinishLoading(self)
    }
}
