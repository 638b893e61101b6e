// `import AVFoundation` brings Foundation (URL, NotificationCenter, Dispatch, and URLRequest and URLSession, which
// Linux keeps in FoundationNetworking) with it; so does this module.
@_exported import Foundation
@_exported import FoundationNetworking
