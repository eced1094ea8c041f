/// Apple's `import CoreBluetooth` brings Foundation with it, so code written for Apple
/// platforms uses `NSObject`, `Data`, `UUID`, `NSNumber` and `DispatchQueue` after importing
/// only the framework. Re-exporting Foundation keeps such files compiling unchanged here.
@_exported import Foundation

// Darwin's time constants, which Apple's frameworks bring in with Foundation (BLETime).
@_exported import let BLETime.NSEC_PER_SEC
@_exported import let BLETime.NSEC_PER_MSEC
@_exported import let BLETime.NSEC_PER_USEC
@_exported import let BLETime.USEC_PER_SEC
