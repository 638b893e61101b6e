// `import AVFoundation` brings Foundation (URL, NotificationCenter, Dispatch) with it; so does this module.
@_exported import Foundation
