@_exported import MediaCore
@_exported import Loading
