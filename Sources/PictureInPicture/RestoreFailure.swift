/// Why the app's user interface was not restored.
public enum RestoreFailure: String, CaseIterable, Equatable, Hashable, Sendable {
    /// The app completed the restore with `false`.
    case declinedByApp
    /// The app did not complete within the restore timeout.
    case timedOut
    /// The session ended before the app completed (a stop, a release, a
    /// termination, or the host closing the window); a later completion is ignored.
    case interrupted
}
