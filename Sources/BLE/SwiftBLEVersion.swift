/// Which SwiftBLE this is: what `ble --version` prints and what a program may log beside its
/// own version. The package is not yet tagged; the version changes with each release.
public enum SwiftBLEVersion {
    /// The release, as semantic versioning writes it.
    public static let current = "0.1.0"

    /// The edition of the Bluetooth Core Specification the stack implements and cites.
    public static let coreSpecification = "5.4"

    /// One line for `--version`: `SwiftBLE 0.1.0 (Bluetooth Core Specification 5.4)`.
    public static var summary: String {
        "SwiftBLE \(current) (Bluetooth Core Specification \(coreSpecification))"
    }
}
