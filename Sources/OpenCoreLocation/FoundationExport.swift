/// Apple's `import CoreLocation` brings Foundation with it, so code written for Apple
/// platforms uses `NSObject`, `UUID`, `NSNumber` and `Date` after importing only the
/// framework. Re-exporting Foundation keeps such files compiling unchanged here.
@_exported import Foundation
