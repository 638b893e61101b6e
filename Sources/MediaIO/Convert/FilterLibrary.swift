import CFFmpeg

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// libavfilter, loaded the first time a filter graph is built (a rate other than 1) instead of when the process
/// starts. Linking it made every process load it and the thirty-odd libraries it needs (rubberband, zimg, vidstab,
/// lilv, placebo, ...): about 15-20 ms more to start and 12 MB more resident memory, for `playctl frame` and for
/// every player that never changes its rate.
///
/// Only the functions `AudioTempo` calls are looked up; their types repeat libavfilter's prototypes.
struct FilterLibrary: @unchecked Sendable {
    typealias GraphAlloc = @convention(c) () -> UnsafeMutablePointer<AVFilterGraph>?
    typealias GraphFree = @convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<AVFilterGraph>?>?) -> Void
    typealias GetByName = @convention(c) (UnsafePointer<CChar>?) -> UnsafePointer<AVFilter>?
    typealias CreateFilter =
        @convention(c) (
            UnsafeMutablePointer<UnsafeMutablePointer<AVFilterContext>?>?,
            UnsafePointer<AVFilter>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
            UnsafeMutableRawPointer?, UnsafeMutablePointer<AVFilterGraph>?
        ) -> Int32
    typealias Link =
        @convention(c) (
            UnsafeMutablePointer<AVFilterContext>?, UInt32,
            UnsafeMutablePointer<AVFilterContext>?, UInt32
        ) -> Int32
    typealias GraphConfig = @convention(c) (UnsafeMutablePointer<AVFilterGraph>?, UnsafeMutableRawPointer?) -> Int32
    typealias AddFrame =
        @convention(c) (
            UnsafeMutablePointer<AVFilterContext>?, UnsafeMutablePointer<AVFrame>?,
            Int32
        ) -> Int32
    typealias GetFrame =
        @convention(c) (UnsafeMutablePointer<AVFilterContext>?, UnsafeMutablePointer<AVFrame>?) -> Int32

    let graphAlloc: GraphAlloc
    let graphFree: GraphFree
    let getByName: GetByName
    let createFilter: CreateFilter
    let link: Link
    let graphConfig: GraphConfig
    let addFrame: AddFrame
    let getFrame: GetFrame

    /// The library's file name: the major version these headers describe.
    static let fileName = "libavfilter.so.\(LIBAVFILTER_VERSION_MAJOR)"

    /// The library, loaded once (thread-safe: a static is initialized once); or why it could not be.
    static let shared: Result<FilterLibrary, MediaError> = load()

    /// The loaded library.
    /// - Throws: `.unsupportedCodec` naming the library and the loader's reason when it cannot be loaded.
    static func loaded() throws(MediaError) -> FilterLibrary { try shared.get() }

    private static func load() -> Result<FilterLibrary, MediaError> {
        func failure(_ reason: String) -> Result<FilterLibrary, MediaError> {
            .failure(MediaError(.unsupportedCodec, url: "atempo", operation: .convert, reason: reason))
        }
        guard let handle = dlopen(fileName, RTLD_NOW | RTLD_LOCAL) else {
            return failure("\(fileName) cannot be loaded: \(dlerror().map { String(cString: $0) } ?? "unknown reason")")
        }
        func symbol<F>(_ name: String, as type: F.Type) -> F? {
            dlsym(handle, name).map { unsafeBitCast($0, to: type) }
        }
        guard let graphAlloc = symbol("avfilter_graph_alloc", as: GraphAlloc.self),
            let graphFree = symbol("avfilter_graph_free", as: GraphFree.self),
            let getByName = symbol("avfilter_get_by_name", as: GetByName.self),
            let createFilter = symbol("avfilter_graph_create_filter", as: CreateFilter.self),
            let link = symbol("avfilter_link", as: Link.self),
            let graphConfig = symbol("avfilter_graph_config", as: GraphConfig.self),
            let addFrame = symbol("av_buffersrc_add_frame_flags", as: AddFrame.self),
            let getFrame = symbol("av_buffersink_get_frame", as: GetFrame.self)
        else { return failure("\(fileName) lacks a function this engine calls") }
        return .success(
            FilterLibrary(
                graphAlloc: graphAlloc, graphFree: graphFree, getByName: getByName,
                createFilter: createFilter, link: link, graphConfig: graphConfig,
                addFrame: addFrame, getFrame: getFrame))
    }
}
