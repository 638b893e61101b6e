import Dispatch
import Foundation
import Loading
import MediaIO

/// Running a job: on a thread of its own, the bytes opened (through the loader for http(s), at visible or
/// prefetch priority), the poster made, every waiter answered, the next job started.
extension PosterPipeline {
    func run(_ job: PosterJob) {
        let thread = Thread { [self] in work(job) }
        thread.name = "playctl.poster"
        thread.start()
    }

    private func work(_ job: PosterJob) {
        let began = DispatchTime.now().uptimeNanoseconds
        var timings = PosterTimings()
        timings.queueWait = Double(began - job.enqueuedAt) / 1e9
        let url = job.request.source
        let result: Result<Poster, MediaError>
        if let disk = diskCache, let kept = disk.load(job.key, format: job.request.format) {
            timings.fetch = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
            finish(
                job,
                .success(
                    Poster(
                        image: kept.image, sourceWidth: kept.sourceWidth, sourceHeight: kept.sourceHeight,
                        decodedWidth: kept.decodedWidth, decodedHeight: kept.decodedHeight, time: kept.time,
                        key: job.key, timings: timings, fromCache: false)))
            return
        }
        do throws(MediaError) {
            let inner: any ByteSource
            if RemoteLoading.isRemote(url) {
                let byRequest: TransferPriority =
                    state.withLock { _ in job.priority } == .visible ? .playback : .prefetch
                let priority = max(byRequest, job.request.transferPriority ?? byRequest)
                let headers = job.request.headers
                inner = (headers.isEmpty ? loading : loading.adding(headers: headers))
                    .source(url, priority: priority, readAhead: configuration.readAhead)
            } else {
                inner = try FileByteSource(path: url)
            }
            let source = TimedByteSource(inner, url: url)
            let cancelled = state.withLock { _ -> Bool in
                job.source = source
                return job.cancelled
            }
            defer { source.close() }
            if cancelled { throw Self.cancellation(url) }
            let made = try PosterMaker(request: job.request, source: source, url: url).make(timings: &timings)
            timings.fetch = source.waitSeconds
            result = .success(
                Poster(
                    image: made.image, sourceWidth: made.width, sourceHeight: made.height,
                    decodedWidth: made.decodedWidth, decodedHeight: made.decodedHeight, time: made.time,
                    key: job.key, timings: timings, fromCache: false))
            if let disk = diskCache, case .success(let poster) = result { disk.store(poster) }
        } catch {
            // Stopped because its last waiter left: whatever the reads' end made the demuxer say, that is why.
            let stopped = state.withLock { _ in job.cancelled }
            result = .failure(stopped ? Self.cancellation(url) : error)
        }
        finish(job, result)
    }

    private func finish(_ job: PosterJob, _ result: Result<Poster, MediaError>) {
        if case .success(let poster) = result { cache.insert(poster) }
        // Read under the lock: a waiter may join until the job leaves the table, and its request time must not be
        // later than the end (an end read before the lock was, once, on a loaded machine: the unsigned difference
        // trapped).
        let (waiters, next, end) = state.withLock { state -> ([Waiting], [PosterJob], UInt64) in
            let end = DispatchTime.now().uptimeNanoseconds
            state.running -= 1
            if state.jobs[job.key] === job { state.jobs[job.key] = nil }
            let waiters = Array(job.waiters.values)
            job.waiters = [:]
            job.source = nil
            switch result {
            case .success(let poster):
                state.decoded += 1
                for waiter in waiters {
                    var timings = poster.timings
                    timings.total = Double(end - waiter.requestedAt) / 1e9
                    state.record(timings, fromCache: false)
                }
            case .failure(let error) where error.kind != .cancelled:
                state.failed += 1
            case .failure:
                break
            }
            return (waiters, state.startable(limit: configuration.maximumConcurrentDecodes), end)
        }
        for job in next { run(job) }
        for waiter in waiters {
            switch result {
            case .success(let poster):
                var timings = poster.timings
                timings.total = Double(end - waiter.requestedAt) / 1e9
                let own = Poster(
                    image: poster.image, sourceWidth: poster.sourceWidth, sourceHeight: poster.sourceHeight,
                    decodedWidth: poster.decodedWidth, decodedHeight: poster.decodedHeight,
                    time: poster.time, key: poster.key, timings: timings, fromCache: false)
                waiter.continuation.resume(returning: .success(own))
                notify(.completed(key: job.key, timings: timings, fromCache: false))
            case .failure(let error):
                waiter.continuation.resume(returning: .failure(error))
                notify(.failed(key: job.key, error: error))
            }
        }
    }
}
