/// Apple's `import CoreBluetooth` brings Foundation with it, so code written for Apple
/// platforms uses `NSObject`, `Data`, `UUID`, `NSNumber` and `DispatchQueue` after importing
/// only the framework. Re-exporting Foundation keeps such files compiling unchanged here.
@_exported import Foundation
