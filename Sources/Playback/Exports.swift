@_exported import Loading
@_exported import MediaCore
