import Foundation

/// The OpenAPI document of the back end (`openapi.yaml`, a resource of this module): the
/// contract the routes keep, served at `GET /openapi.yaml` and read by the contract test.
public enum OpenAPIDocument {
    /// The document's text.
    ///
    /// - Throws: ``BackendError`` (500) when the resource is missing from the build.
    public static func text() throws(BackendError) -> String {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml"),
              let data = try? Data(contentsOf: url), let text = String(data: data, encoding: .utf8)
        else {
            throw BackendError(status: .internalServerError, error: "internal", reason: "openapi.yaml is missing from the BLEBackend module's resources")
        }
        return text
    }
}
