import Foundation

/// The tier's files: the writer thread's jobs, the chunk format, and the scan of what the directory holds.
extension DiskTier {
    /// The writer thread: performs queued jobs in order until closed with nothing queued.
    func runWriter() {
        condition.lock()
        while true {
            while queue.isEmpty && !isClosing { condition.wait() }
            guard !queue.isEmpty else { break }
            let job = queue.removeFirst()
            writing = true
            condition.unlock()
            perform(job)
            condition.lock()
            writing = false
            condition.broadcast()
        }
        writerStopped()
        condition.broadcast()
        condition.unlock()
    }

    private func perform(_ job: Job) {
        switch job {
        case .chunk(let key, let bytes, let head, let generation): write(key, bytes, head: head, generation: generation)
        case .head(let head): write(head)
        case .delete(let path): try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// Paths of what `deletions` name.
    private func paths(_ deletions: [DiskDeletion]) -> [String] {
        deletions.map {
            switch $0 {
            case .chunk(let key): chunkPath(key)
            case .folder(let url): folder(url)
            }
        }
    }

    /// Drops least recently used chunks until `extra` more bytes fit: the paths to delete. Locked.
    func trim(toFit extra: Int) -> [String] { paths(index.trim(toFit: extra, limit: limit)) }

    private func write(_ key: MemoryTier.Key, _ bytes: [UInt8], head: StoredHead, generation: UInt64) {
        var data = Data(capacity: Self.headerSize + bytes.count)
        data.append(contentsOf: Self.magic)
        Self.append(UInt32(bytes.count), to: &data)
        bytes.withUnsafeBytes { Self.append(CRC32.checksum($0), to: &data) }
        Self.append(UInt32(key.index), to: &data)
        data.append(contentsOf: bytes)
        let headData = try? JSONEncoder().encode(head)
        let size = data.count
        condition.lock()
        let current = index.generation(of: key.resource) == generation && index.entries[key] == nil
        // Room for the chunk and its head (whether or not trimming keeps the resource's folder).
        guard current, let headData, size + headData.count <= limit else {
            finished(key, bytes: bytes.count)
            condition.unlock()
            return
        }
        let deletions = trim(toFit: size + headData.count)
        let newFolder = index.folders[key.resource] == nil
        if newFolder {
            index.folders[key.resource] = DiskIndex.Folder(headBytes: headData.count, chunks: 0, head: head)
            index.used += headData.count
        }
        index.used += size
        condition.unlock()

        for path in deletions { try? FileManager.default.removeItem(atPath: path) }
        var written = true
        if newFolder {
            try? FileManager.default.createDirectory(atPath: folder(key.resource), withIntermediateDirectories: true)
            written = atomicWrite(headData, to: folder(key.resource) + "/head")
        }
        if written { written = atomicWrite(data, to: chunkPath(key)) }

        condition.lock()
        index.used -= size
        finished(key, bytes: bytes.count)
        let kept = index.generation(of: key.resource) == generation && index.folders[key.resource] != nil
        if written && kept {
            index.touch(key, bytes: size)
        } else if kept, index.folders[key.resource]?.chunks == 0 {
            index.removeFolder(key.resource)
            queue.append(.delete(path: folder(key.resource)))
        }
        condition.unlock()
    }

    /// Locked: a queued chunk is written (or given up).
    private func finished(_ key: MemoryTier.Key, bytes: Int) {
        index.pending.removeValue(forKey: key)
        queuedBytes -= bytes
    }

    private func write(_ head: StoredHead) {
        guard let data = try? JSONEncoder().encode(head) else { return }
        condition.lock()
        guard index.folders[head.url] != nil else {
            condition.unlock()
            return
        }
        let deletions = trim(toFit: data.count)
        condition.unlock()
        for path in deletions { try? FileManager.default.removeItem(atPath: path) }
        condition.lock()
        defer { condition.unlock() }
        guard let folder = index.folders[head.url], atomicWrite(data, to: self.folder(head.url) + "/head") else {
            return
        }
        index.used += data.count - folder.headBytes
        index.folders[head.url]?.headBytes = data.count
    }

    /// Builds the index from the files present (their modification times order the LRU); folders of its own
    /// without a valid head or without chunks are deleted.
    func scan() {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: directory) else { return }
        var found: [(MemoryTier.Key, Int, Date)] = []
        for name in names {
            // Only folders named as this tier names them (a URL's hash in hex) are its own: anything else in the
            // directory (another program's files, a poster cache) is left alone.
            guard !name.isEmpty, name.count <= 16, name.allSatisfy(\.isHexDigit) else { continue }
            let path = directory + "/" + name
            guard let data = fm.contents(atPath: path + "/head"),
                let head = try? JSONDecoder().decode(StoredHead.self, from: data),
                Self.key(head.url) == name
            else {
                try? fm.removeItem(atPath: path)
                continue
            }
            var chunks: [(MemoryTier.Key, Int, Date)] = []
            for file in (try? fm.contentsOfDirectory(atPath: path)) ?? [] {
                if file.hasSuffix(".tmp") {
                    try? fm.removeItem(atPath: path + "/" + file)
                    continue
                }
                guard file.hasSuffix(".chunk"), let index = Int(file.dropLast(6)),
                    let attributes = try? fm.attributesOfItem(atPath: path + "/" + file),
                    let size = attributes[.size] as? Int
                else { continue }
                chunks.append(
                    (
                        MemoryTier.Key(resource: head.url, index: index), size,
                        attributes[.modificationDate] as? Date ?? .distantPast
                    ))
            }
            guard !chunks.isEmpty else {
                try? fm.removeItem(atPath: path)
                continue
            }
            index.folders[head.url] = DiskIndex.Folder(headBytes: data.count, chunks: 0, head: head)
            index.used += data.count
            found += chunks
        }
        for (key, size, _) in found.sorted(by: { $0.2 < $1.2 }) { index.touch(key, bytes: size) }
    }

    /// The chunk a file holds, if it is intact and is chunk `index`. The index is checked too: another chunk's
    /// intact file in its place (a misplaced copy or rename) passes every other check and would play wrong bytes.
    static func decode(_ data: Data, index: Int) -> ChunkBuffer? {
        guard data.count >= headerSize, Array(data.prefix(4)) == magic else { return nil }
        let length = Int(read32(data, at: 4))
        let checksum = read32(data, at: 8)
        guard data.count == headerSize + length, read32(data, at: 12) == UInt32(truncatingIfNeeded: index) else {
            return nil
        }
        return data.withUnsafeBytes { raw -> ChunkBuffer? in
            let payload = UnsafeRawBufferPointer(rebasing: raw[headerSize...])
            guard CRC32.checksum(payload) == checksum else { return nil }
            return ChunkBuffer(complete: payload)
        }
    }

    private static func append(_ value: UInt32, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }

    private static func read32(_ data: Data, at offset: Int) -> UInt32 {
        data.withUnsafeBytes { raw in
            var value: UInt32 = 0
            withUnsafeMutableBytes(of: &value) {
                $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[offset..<offset + 4]))
            }
            return UInt32(littleEndian: value)
        }
    }

    /// Writes `data` to a temporary file renamed to `path`; false (and nothing left) when it cannot.
    func atomicWrite(_ data: Data, to path: String) -> Bool {
        let temporary = path + ".tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: data) else { return false }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }
}
