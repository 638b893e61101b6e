// Shim over FFmpeg 5.1 for what Swift cannot import: function-like and expression macros.
#ifndef PLAYCTL_CFFMPEG_SHIM_H
#define PLAYCTL_CFFMPEG_SHIM_H

#include <errno.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/aes.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/md5.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/channel_layout.h>
#include <libavutil/samplefmt.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>

static inline int playctl_averror(int e) { return AVERROR(e); }
static inline int playctl_averror_eof(void) { return AVERROR_EOF; }
static inline int playctl_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int playctl_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int playctl_averror_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }
static inline int playctl_averror_stream_not_found(void) { return AVERROR_STREAM_NOT_FOUND; }
static inline int64_t playctl_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline AVRational playctl_time_base_q(void) { return AV_TIME_BASE_Q; }
static inline int playctl_error_tag_matches(int err, int e) { return err == AVERROR(e); }

/// Writes FFmpeg's message for `errnum` into `buf` (what av_err2str does, without the compound literal).
static inline const char *playctl_strerror(int errnum, char *buf, size_t size) {
    av_strerror(errnum, buf, size);
    return buf;
}

#endif
