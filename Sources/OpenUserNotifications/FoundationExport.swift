/// Apple's `import UserNotifications` brings Foundation with it, so code written for Apple
/// platforms uses `NSObject`, `Date` and `TimeInterval` after importing only the framework.
/// Re-exporting Foundation keeps such files compiling unchanged here.
@_exported import Foundation
