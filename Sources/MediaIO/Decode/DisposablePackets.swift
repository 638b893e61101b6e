import CFFmpeg

/// Tells the packets of pictures that no other picture references, so that an exact seek's pre-roll can leave them
/// out instead of sending them to the decoder with `skip_frame` set: with frame threading each packet sent takes a
/// thread for a moment even when its picture is skipped, and only the pictures actually decoded should.
///
/// A packet is disposable when its container says so (`AV_PKT_FLAG_DISPOSABLE`) or, for H.264, when every slice
/// in it has `nal_ref_idc` 0 (read from the NAL unit headers, in either length-prefixed or Annex B framing).
/// libavcodec's H.264 decoder drops such a slice with `skip_frame = AVDISCARD_NONREF` before it touches any state,
/// so leaving the packet out decodes the same pictures, bit for bit.
struct DisposablePackets {
    private enum Framing {
        case none
        case lengthPrefixed(Int)
        case annexB
    }

    private let framing: Framing

    /// For the video stream with these parameters.
    init(parameters: UnsafePointer<AVCodecParameters>) {
        guard parameters.pointee.codec_id == AV_CODEC_ID_H264 else {
            framing = .none
            return
        }
        // avcC extradata (configuration version 1) means length-prefixed NAL units; otherwise start codes.
        if let extra = parameters.pointee.extradata, parameters.pointee.extradata_size >= 7, extra[0] == 1 {
            framing = .lengthPrefixed(Int(extra[4] & 3) + 1)
        } else {
            framing = .annexB
        }
    }

    /// Whether `packet` holds only a picture nothing references.
    func isDisposable(_ packet: Packet) -> Bool {
        if packet.pointer.pointee.flags & AV_PKT_FLAG_DISPOSABLE != 0 { return true }
        guard let data = packet.pointer.pointee.data else { return false }
        let size = Int(packet.pointer.pointee.size)
        let bytes = UnsafeBufferPointer(start: data, count: max(size, 0))
        switch framing {
        case .none:
            return false
        case .lengthPrefixed(let lengthSize):
            return Self.onlyNonReferenceSlices(lengthPrefixed: bytes, lengthSize: lengthSize)
        case .annexB:
            return Self.onlyNonReferenceSlices(annexB: bytes)
        }
    }

    /// Folds one NAL unit header into the verdict: nil while no slice was seen, false once a reference slice is.
    private static func note(header: UInt8, into verdict: inout Bool?) {
        let type = header & 0x1F
        guard type >= 1 && type <= 5 else { return }  // slices (coded picture data) only
        let referenced = type == 5 || (header >> 5) & 3 != 0
        verdict = (verdict ?? true) && !referenced
    }

    private static func onlyNonReferenceSlices(
        lengthPrefixed bytes: UnsafeBufferPointer<UInt8>, lengthSize: Int
    ) -> Bool {
        var verdict: Bool?
        var offset = 0
        while offset + lengthSize < bytes.count {
            var length = 0
            for i in 0..<lengthSize { length = length << 8 | Int(bytes[offset + i]) }
            note(header: bytes[offset + lengthSize], into: &verdict)
            if verdict == false { return false }
            offset += lengthSize + length
        }
        // A malformed length that runs past the end leaves the verdict to what was read; damaged data is sent.
        return offset == bytes.count && verdict == true
    }

    private static func onlyNonReferenceSlices(annexB bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var verdict: Bool?
        var i = 0
        while i + 3 < bytes.count {
            if bytes[i] == 0 && bytes[i + 1] == 0 && bytes[i + 2] == 1 {
                note(header: bytes[i + 3], into: &verdict)
                if verdict == false { return false }
                i += 3
            } else {
                i += 1
            }
        }
        return verdict == true
    }
}
