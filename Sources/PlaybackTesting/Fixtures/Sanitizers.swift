#if canImport(Glibc)
import Glibc
#endif

/// Whether this process runs under a sanitizer (`swift test --sanitize=thread` or `address`), which slows every
/// thread several times: tests that measure real-time precision (audio sync, sample-exact recordings) still run
/// their code there, for the sanitizer to check, and hold their timing figures only in the plain pass.
public enum Sanitizers {
    /// The sanitizer whose runtime is loaded, as `swiftc -sanitize=` names it (`thread`, `address`), or nil.
    public static let active: String? = {
        guard let handle = dlopen(nil, RTLD_NOW) else { return nil }
        defer { dlclose(handle) }
        if dlsym(handle, "__tsan_init") != nil { return "thread" }
        if dlsym(handle, "__asan_init") != nil { return "address" }
        return nil
    }()

    /// A sanitizer's runtime is loaded.
    public static var isActive: Bool { active != nil }
}
