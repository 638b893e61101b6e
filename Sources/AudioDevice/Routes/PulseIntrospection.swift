import CPulse

/// The functions of libpulse the route monitor calls beyond ``PulseLibrary``'s (the server's state, its sinks and
/// their changes), looked up in the same library (`dlopen` again: the loaded one), once.
struct PulseIntrospection: @unchecked Sendable {
    typealias SetStateCallback =
        @convention(c) (OpaquePointer?, pa_context_notify_cb_t?, UnsafeMutableRawPointer?) -> Void
    typealias SetSubscribeCallback =
        @convention(c) (OpaquePointer?, pa_context_subscribe_cb_t?, UnsafeMutableRawPointer?) -> Void
    typealias Subscribe =
        @convention(c) (OpaquePointer?, pa_subscription_mask_t, pa_context_success_cb_t?, UnsafeMutableRawPointer?)
        -> OpaquePointer?
    typealias ServerInfo =
        @convention(c) (OpaquePointer?, pa_server_info_cb_t?, UnsafeMutableRawPointer?) -> OpaquePointer?
    typealias SinkInfoList =
        @convention(c) (OpaquePointer?, pa_sink_info_cb_t?, UnsafeMutableRawPointer?) -> OpaquePointer?
    typealias ProplistGets = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> UnsafePointer<CChar>?

    let setStateCallback: SetStateCallback
    let setSubscribeCallback: SetSubscribeCallback
    let subscribe: Subscribe
    let serverInfo: ServerInfo
    let sinkInfoList: SinkInfoList
    let proplistGets: ProplistGets

    /// The functions, loaded once; or why they could not be.
    static let shared: Result<PulseIntrospection, AudioDeviceError> = load()

    private static func load() -> Result<PulseIntrospection, AudioDeviceError> {
        PulseLibrary.withSymbols { lookup in load(lookup) }
    }

    private static func load(
        _ lookup: (String) -> UnsafeMutableRawPointer?
    ) -> Result<
        PulseIntrospection, AudioDeviceError
    > {
        func symbol<F>(_ name: String, as type: F.Type = F.self) -> F? {
            lookup(name).map { unsafeBitCast($0, to: type) }
        }
        guard let setStateCallback: SetStateCallback = symbol("pa_context_set_state_callback"),
            let setSubscribeCallback: SetSubscribeCallback = symbol("pa_context_set_subscribe_callback"),
            let subscribe: Subscribe = symbol("pa_context_subscribe"),
            let serverInfo: ServerInfo = symbol("pa_context_get_server_info"),
            let sinkInfoList: SinkInfoList = symbol("pa_context_get_sink_info_list"),
            let proplistGets: ProplistGets = symbol("pa_proplist_gets")
        else {
            return .failure(
                AudioDeviceError(.libraryMissing, "\(PulseLibrary.fileName) lacks a function the route monitor calls"))
        }
        return .success(
            PulseIntrospection(
                setStateCallback: setStateCallback, setSubscribeCallback: setSubscribeCallback, subscribe: subscribe,
                serverInfo: serverInfo, sinkInfoList: sinkInfoList, proplistGets: proplistGets))
    }
}
