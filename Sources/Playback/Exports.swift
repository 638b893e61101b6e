@_exported import AudioDevice
@_exported import Loading
@_exported import MediaCore
