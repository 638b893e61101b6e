import Locking

/// A probe's sink (``Transport/probe(_:completion:)``): keeps the response head, drops the body, and reports once
/// when the transfer ends: the head, else the transfer's error.
final class ProbeSink: TransferSink {
    private let url: String
    private let completion: @Sendable (Result<ResponseHead, MediaError>) -> Void
    /// The head once it came, and whether the end was reported.
    private let state = Locked<(head: ResponseHead?, reported: Bool)>((nil, false))

    init(url: String, _ completion: @escaping @Sendable (Result<ResponseHead, MediaError>) -> Void) {
        self.url = url
        self.completion = completion
    }

    func transferReceived(head: ResponseHead) -> Bool {
        state.withLock { $0.head = head }
        return true
    }

    func transferReceived(_ bytes: UnsafeRawBufferPointer) {}

    func transferFinished(_ error: MediaError?) {
        let (head, first) = state.withLock { state in
            defer { state.reported = true }
            return (state.head, !state.reported)
        }
        guard first else { return }
        if let head {
            completion(.success(head))
        } else {
            completion(
                .failure(error ?? MediaError(.connectionLost, url: url, operation: .read, reason: "no response head")))
        }
    }
}
