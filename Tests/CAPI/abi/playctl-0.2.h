/*
 * playctl.h: the C API of playctl, a headless media playback engine (libplayctl.so.0).
 *
 * C99. Link with `pkg-config --cflags --libs playctl`. The library carries its own Swift runtime: a C, C++ or
 * Python host needs nothing else (libc, libm, libstdc++, libgcc_s; FFmpeg's and libcurl's shared libraries).
 *
 * Model: AVFoundation's player (rate, time control status, exact seeks) with libmpv's client shape: an opaque
 * handle per player, an event queue drained with playctl_wait_event() (a wakeup callback to fit an app's main
 * loop), a software render call into the app's own buffer, and Picture in Picture sessions. Since 0.2: feeds of
 * short videos (playctl_feed), posters (playctl_posters) and a player's metric events.
 *
 * Compatibility: a program built against an older header with the same MAJOR runs against a newer library
 * (enums and structures only grow at their ends; structures the app allocates keep their size, new options
 * taking their reserved fields).
 *
 * Errors: every call that can fail returns an int, 0 on success or a negative PLAYCTL_ERROR_*;
 * playctl_error_string() names it, playctl_last_error_message() gives the last failure's details on a player.
 *
 * Threads: every handle may be used from any thread, and from several threads at once, except where a call says
 * otherwise: playctl_wait_event() is called by one thread at a time on a player (the event it returns is valid
 * until that thread's next call; the same for playctl_feed_wait_event() and playctl_posters_wait_event()), and
 * playctl_destroy() / playctl_pip_destroy() / playctl_feed_destroy() / playctl_posters_destroy() must not race
 * other calls on the same handle. Callbacks (wakeup, frame ready) run on threads of the library's own: they must return quickly and
 * must not call playctl functions (signal your loop, then call from there).
 *
 * Blocking: a call returns at once (microseconds: it takes one lock) unless its comment says otherwise. The calls
 * that may wait are playctl_wait_event() and the other *_wait_event() calls (up to their timeout),
 * playctl_clock_advance() and playctl_feed_clock_advance() (until the players on the clock settled: as long as
 * decoding the frames of the interval takes), playctl_render_sw() and playctl_feed_render_sw() (one libswscale
 * conversion on the calling thread), playctl_load() (a stat() of a local path), and the *_destroy() calls (until a
 * callback in progress has returned; a few milliseconds).
 */
#ifndef PLAYCTL_H
#define PLAYCTL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this header: MAJOR << 16 | MINOR. Compare with playctl_api_version(): same MAJOR, and the
 * library's MINOR at least this header's. */
#define PLAYCTL_API_VERSION_MAJOR 0
#define PLAYCTL_API_VERSION_MINOR 2
#define PLAYCTL_API_VERSION ((PLAYCTL_API_VERSION_MAJOR << 16) | PLAYCTL_API_VERSION_MINOR)

/* Errors: 0 is success, every error is negative. */
enum playctl_error {
    PLAYCTL_OK = 0,
    PLAYCTL_ERROR_INVALID_ARGUMENT = -1, /* a NULL handle or pointer, an unknown flag or mode, a NaN */
    PLAYCTL_ERROR_NOT_FOUND = -2,        /* no such file */
    PLAYCTL_ERROR_PERMISSION = -3,       /* the file cannot be read */
    PLAYCTL_ERROR_NOT_MEDIA = -4,        /* not a media file (a directory, an empty or unrecognised file) */
    PLAYCTL_ERROR_UNSUPPORTED = -5,      /* no decodable stream, an unsupported codec, encrypted media */
    PLAYCTL_ERROR_DECODE = -6,           /* truncated or damaged media, decoding or seeking failed */
    PLAYCTL_ERROR_NETWORK = -7,          /* an http(s) item: host, connection, TLS, HTTP status, timeout */
    PLAYCTL_ERROR_INVALID_STATE = -8,    /* not now: no manual clock, no item, PiP already active, ... */
    PLAYCTL_ERROR_NO_FRAME = -9,         /* playctl_render_sw: no frame on screen yet */
    PLAYCTL_ERROR_AUDIO_DEVICE = -10,    /* the sound server is missing or went away (playback goes on) */
    PLAYCTL_ERROR_PIP = -11,             /* Picture in Picture cannot start (see the event's message) */
    PLAYCTL_ERROR_OTHER = -12,
    PLAYCTL_ERROR_CANCELLED = -13        /* since 0.2: a poster request cancelled (playctl_posters_cancel) */
};

/* playctl_config.clock */
enum playctl_clock {
    PLAYCTL_CLOCK_HOST = 0,   /* real time (the default) */
    PLAYCTL_CLOCK_MANUAL = 1, /* virtual time that moves only at playctl_clock_advance(): deterministic */
    PLAYCTL_CLOCK_UNTIMED = 2 /* virtual time that jumps to each frame as soon as it is decoded */
};

/* playctl_config.audio */
enum playctl_audio {
    PLAYCTL_AUDIO_NULL = 0,  /* decoded and consumed at the clock's pace, not heard (the default) */
    PLAYCTL_AUDIO_NONE = 1,  /* not decoded at all */
    PLAYCTL_AUDIO_PULSE = 2  /* PulseAudio (or PipeWire's pulse server): its device clock leads (host clock) */
};

/* playctl_config.action_at_item_end */
enum playctl_end_action {
    PLAYCTL_END_AUTO = 0,    /* advance to the next loaded item if there is one, else pause on the last frame */
    PLAYCTL_END_ADVANCE = 1, /* advance (after the last item: no item) */
    PLAYCTL_END_PAUSE = 2,   /* pause at the end of every item */
    PLAYCTL_END_NONE = 3     /* do nothing: the player keeps its rate at the end */
};

/* playctl_load() modes */
enum playctl_load_mode {
    PLAYCTL_LOAD_REPLACE = 0, /* replace the current item; queued items stay after it */
    PLAYCTL_LOAD_APPEND = 1   /* add at the end of the queue (current if the queue is empty) */
};

/* playctl_seek() flags */
enum playctl_seek_flags {
    PLAYCTL_SEEK_KEYFRAME = 0,     /* land on the keyframe at or before the target (the default) */
    PLAYCTL_SEEK_EXACT = 1 << 0,   /* land exactly: the frame on screen at the target */
    PLAYCTL_SEEK_RELATIVE = 1 << 1 /* seconds are added to the current time */
};

/* playctl_state.time_control_status (AVFoundation's values) */
enum playctl_time_control_status {
    PLAYCTL_PAUSED = 0,
    PLAYCTL_WAITING = 1,
    PLAYCTL_PLAYING = 2
};

/* playctl_state.waiting_reason */
enum playctl_waiting_reason {
    PLAYCTL_WAITING_NONE = 0,
    PLAYCTL_WAITING_TO_MINIMIZE_STALLS = 1,
    PLAYCTL_WAITING_EVALUATING_BUFFERING_RATE = 2,
    PLAYCTL_WAITING_NO_ITEM = 3
};

/* Item status (playctl_state.item_status, PLAYCTL_EVENT_ITEM_STATUS) */
enum playctl_item_status {
    PLAYCTL_ITEM_UNKNOWN = 0, /* loading */
    PLAYCTL_ITEM_READY = 1,
    PLAYCTL_ITEM_FAILED = 2,
    PLAYCTL_ITEM_NONE = 3 /* no current item */
};

/* playctl_sw_target.format */
enum playctl_pixel_format {
    PLAYCTL_FORMAT_I420 = 1, /* planar Y, U, V (U and V at half width and height, rounded up) */
    PLAYCTL_FORMAT_RGBA = 2, /* one plane, 4 bytes a pixel: R, G, B, A=255 */
    PLAYCTL_FORMAT_BGRA = 3  /* one plane, 4 bytes a pixel: B, G, R, A=255 */
};

/* playctl_event.type */
enum playctl_event_type {
    PLAYCTL_EVENT_NONE = 0,                /* nothing (timeout or playctl_wakeup) */
    PLAYCTL_EVENT_ITEM_STATUS = 1,         /* item_status; duration when ready; error and message when failed */
    PLAYCTL_EVENT_TIME_CONTROL_STATUS = 2, /* time_control_status, waiting_reason */
    PLAYCTL_EVENT_RATE = 3,                /* rate */
    PLAYCTL_EVENT_CURRENT_ITEM = 4,        /* the current item changed (item: its name, NULL for none) */
    PLAYCTL_EVENT_SEEK_COMPLETED = 5,      /* request_id, finished, landed (NaN unless finished) */
    PLAYCTL_EVENT_PLAYED_TO_END = 6,
    PLAYCTL_EVENT_FAILED = 7,              /* the item could not play to its end: error, message */
    PLAYCTL_EVENT_STALLED = 8,             /* playback ran out of media; it waits, then resumes */
    PLAYCTL_EVENT_FIRST_FRAME = 9,         /* the item's first frame is on screen */
    PLAYCTL_EVENT_TIME_JUMPED = 10,        /* a seek landed */
    PLAYCTL_EVENT_LIKELY_TO_KEEP_UP = 11,  /* value: 1 or 0 */
    PLAYCTL_EVENT_DECODE_ERROR = 12,       /* damaged packets skipped (message); playback goes on */
    PLAYCTL_EVENT_AUDIO_DEVICE = 13,       /* the audio output in use changed: value is a playctl_audio; error
                                              and message when the sound server failed */
    PLAYCTL_EVENT_QUEUE_OVERFLOW = 14,     /* value events were dropped (the app did not drain in time) */
    PLAYCTL_EVENT_VARIANT_SWITCH = 15,     /* an HLS or DASH item's variant: value its bandwidth (bit/s), message
                                              "WxH reason" (reason: initial, bandwidthUp, bandwidthDown, bufferLow,
                                              stall, limits, pinned) */
    PLAYCTL_EVENT_PIP_POSSIBLE = 20,       /* pip; value: whether a start would succeed now */
    PLAYCTL_EVENT_PIP_WILL_START = 21,
    PLAYCTL_EVENT_PIP_DID_START = 22,      /* the PiP window is open */
    PLAYCTL_EVENT_PIP_FAILED_TO_START = 23, /* error (PLAYCTL_ERROR_PIP), message names the reason */
    PLAYCTL_EVENT_PIP_WILL_STOP = 24,
    PLAYCTL_EVENT_PIP_DID_STOP = 25,       /* the window closed */
    PLAYCTL_EVENT_PIP_CONTENT_SWAPPED = 26, /* item: the name shown now; value: 0 a new item, 1 a new player */
    PLAYCTL_EVENT_PIP_RESTORE = 27,        /* the user asked to return to the app */
    PLAYCTL_EVENT_PIP_SUSPENDED = 28,      /* value: 1 hidden behind another app's PiP, 0 back */
    PLAYCTL_EVENT_PIP_STOPPED_BY_SYSTEM = 29, /* the system ends the session on its own (WILL_STOP and DID_STOP
                                                follow); message: "requested", "itemFailed" or "noNewPicture" */
    PLAYCTL_EVENT_METRIC = 30,             /* since 0.2, with playctl_set_metric_events(): name ("metric.seek",
                                              "metric.firstFrame", ...), json (the object `playctl play --json`
                                              prints), latency where the metric has one; time, clock_time, item */
    PLAYCTL_EVENT_FEED = 40,               /* since 0.2, playctl_feed_wait_event(): name ("feed.visible",
                                              "feed.active", "feed.firstFrame", "pool.acquire", ...), json (the
                                              object `playctl feed --json` prints), index, latency (firstFrame,
                                              started, poster), item (the entry's URL), time (feed seconds) */
    PLAYCTL_EVENT_POSTER = 50              /* since 0.2, playctl_posters_wait_event(): request_id; error 0 and
                                              width, height when ready (playctl_posters_result), else error
                                              (CANCELLED when cancelled) and message; item: the source */
};

/* playctl_feed_config.network, playctl_feed_network_changed() */
enum playctl_network {
    PLAYCTL_NETWORK_UNCONSTRAINED = 0, /* prefetch under the full budget (the default) */
    PLAYCTL_NETWORK_CELLULAR = 1,      /* a smaller budget; HLS/DASH capped at 2 Mbit/s */
    PLAYCTL_NETWORK_CONSTRAINED = 2    /* the user saves data: no prefetch */
};

/* playctl_feed_create() kinds */
enum playctl_feed_kind {
    PLAYCTL_FEED_VIDEO = 0,
    PLAYCTL_FEED_IMAGE = 1
};

/* playctl_poster_request.fit */
enum playctl_poster_fit {
    PLAYCTL_POSTER_FIT = 0, /* the whole picture inside the size (one side may come out shorter) */
    PLAYCTL_POSTER_FILL = 1 /* the size covered, centred and cropped */
};

/* playctl_poster_request.priority */
enum playctl_poster_priority {
    PLAYCTL_POSTER_VISIBLE = 0, /* on screen: goes first */
    PLAYCTL_POSTER_PREFETCH = 1
};

typedef struct playctl_player playctl_player;
typedef struct playctl_pip playctl_pip;
typedef struct playctl_feed playctl_feed;       /* since 0.2 */
typedef struct playctl_posters playctl_posters; /* since 0.2 */

/* How a player is made. Zero-initialise it (`playctl_config config = {0};`): zeros are the defaults. */
typedef struct playctl_config {
    int clock;                  /* enum playctl_clock */
    int audio;                  /* enum playctl_audio */
    int action_at_item_end;     /* enum playctl_end_action */
    const char *audio_device;   /* PLAYCTL_AUDIO_PULSE: a sink name; NULL or "default" for the server's default */
    playctl_player *share_clock; /* PLAYCTL_CLOCK_MANUAL: follow this player's manual clock (NULL: a new one) */
    void *reserved[8];          /* zero */
} playctl_config;

/* A snapshot of a player (playctl_get_state). Times are seconds of the current item. */
typedef struct playctl_state {
    double time;              /* the playhead (a pending seek's target while one is in flight) */
    double duration;          /* the item's duration; NaN while unknown */
    double rate;              /* 0 when paused; while waiting, the rate playback will start at */
    int time_control_status;  /* enum playctl_time_control_status */
    int waiting_reason;       /* enum playctl_waiting_reason (NONE unless waiting) */
    int item_status;          /* enum playctl_item_status */
    int audio_output;         /* enum playctl_audio: the output in use now */
    double avsync;            /* audio clock minus the time of the frame on screen (seconds), as mpv's avsync */
    double clock_time;        /* the player's clock: seconds since it was made (virtual under manual/untimed) */
    double volume;            /* 0...1 */
    int muted;                /* 1 when muted */
    int width, height;        /* the current item's picture size (0 when none) */
    uint64_t frames_rendered; /* frames shown since the player was made */
    uint64_t frames_dropped;  /* frames dropped because they were late (host clock) */
    double reserved[8];
} playctl_state;

/* An event (playctl_wait_event). Fields that do not apply to a type are 0 (NaN for landed, NULL for strings). */
typedef struct playctl_event {
    int type;                /* enum playctl_event_type */
    int error;               /* 0, or a negative enum playctl_error */
    uint64_t request_id;     /* PLAYCTL_EVENT_SEEK_COMPLETED: the id given to playctl_seek() */
    double time;             /* the item's time when it happened (seconds) */
    double clock_time;       /* the player's clock when it happened */
    int item_status;         /* ITEM_STATUS */
    int time_control_status; /* TIME_CONTROL_STATUS */
    int waiting_reason;      /* TIME_CONTROL_STATUS */
    int finished;            /* SEEK_COMPLETED: 1 landed, 0 superseded, cancelled or refused */
    double landed;           /* SEEK_COMPLETED: where it landed (NaN unless finished) */
    double duration;         /* ITEM_STATUS when ready */
    double rate;             /* RATE */
    int64_t value;           /* per type (see enum playctl_event_type) */
    const char *item;        /* the file name of the item it concerns, or NULL */
    const char *message;     /* what went wrong, or NULL */
    playctl_pip *pip;        /* PLAYCTL_EVENT_PIP_*: the session it concerns */
    /* Since 0.2 (the library owns the event: a program built against 0.1 reads the fields above only). */
    const char *name;        /* METRIC, FEED: the event's name in playctl's --json vocabulary */
    const char *json;        /* METRIC, FEED: the event as one JSON object, as `playctl ... --json` prints it */
    int64_t index;           /* FEED: the entry it concerns (0-based) */
    double latency;          /* FEED firstFrame/started/poster, METRIC with a latency: seconds */
    int width, height;       /* POSTER: the poster's size when ready */
} playctl_event;

/* Where playctl_render_sw() draws: the app's own memory, size and strides. */
typedef struct playctl_sw_target {
    int format;         /* enum playctl_pixel_format */
    int width, height;  /* the size to scale to (> 0) */
    uint8_t *planes[3]; /* I420: Y, U, V; RGBA and BGRA: planes[0] only */
    int strides[3];     /* bytes from one row to the next, per plane (at least the row's width in bytes) */
} playctl_sw_target;

/* What playctl_render_sw() drew. */
typedef struct playctl_frame_info {
    double time;       /* the frame's item time (seconds) */
    int width, height; /* the decoded picture's size */
    uint64_t serial;   /* the number of the frame on screen: grows by one with each frame shown */
    int is_new;        /* 1 if this frame was not rendered by an earlier playctl_render_sw() call */
} playctl_frame_info;

/* Picture in Picture session options. Zero-initialise. */
typedef struct playctl_pip_config {
    void *reserved[8]; /* zero */
} playctl_pip_config;

/* How a feed is made (since 0.2). Zero-initialise: zeros are the defaults. */
typedef struct playctl_feed_config {
    int clock;               /* PLAYCTL_CLOCK_HOST (the default) or PLAYCTL_CLOCK_MANUAL (playctl_feed_clock_advance) */
    int audio;               /* PLAYCTL_AUDIO_NULL (decoded, not heard; the default) or PLAYCTL_AUDIO_NONE */
    int pool_size;           /* players in the pool (0: 5; at least 2) */
    int network;             /* enum playctl_network */
    int poster_width;        /* both > 0: every item around the one on screen gets a poster of this size */
    int poster_height;       /* (PLAYCTL_EVENT_FEED "feed.poster"); 0: no posters */
    void *reserved[8];       /* zero */
} playctl_feed_config;

/* How a posters pipeline is made (since 0.2). Zero-initialise: zeros are the defaults. */
typedef struct playctl_posters_config {
    int max_concurrent_decodes; /* 0: 3 (at most 16) */
    int max_results;            /* ready posters kept until playctl_posters_result() takes them (0: 64); past it
                                   the oldest is dropped */
    void *reserved[8];          /* zero */
} playctl_posters_config;

/* What a poster is (since 0.2). Zero-initialise. */
typedef struct playctl_poster_request {
    const char *source;   /* a path or an http(s) URL: a video (a frame) or an image */
    double time;          /* a video's frame at this time (seconds); 0: its first frame */
    int keyframe;         /* 1: the keyframe at or before time (faster), 0: the frame on screen at time */
    int width, height;    /* the size to fit into (0 and 0: the picture's own size) */
    int fit;              /* enum playctl_poster_fit */
    int priority;         /* enum playctl_poster_priority */
    void *reserved[6];    /* zero */
} playctl_poster_request;

/* A ready poster (playctl_posters_result). */
typedef struct playctl_poster_info {
    int width, height;   /* the picture: width * height * 4 bytes of RGBA, rows of width * 4 bytes */
    int source_width, source_height; /* the source's own picture size */
    double time;         /* the frame's time (seconds; 0 for an image) */
    int from_cache;      /* 1 when it came from the memory cache */
    double reserved[4];
} playctl_poster_info;

/* What a Picture in Picture session is doing (playctl_pip_get_state). */
typedef struct playctl_pip_state {
    int possible;        /* a start would succeed now */
    int active;          /* from PIP_DID_START to PIP_DID_STOP */
    int suspended;
    uint64_t frames_shown; /* frames the PiP window has shown */
    playctl_player *player; /* the player whose picture the window shows */
    double reserved[4];
} playctl_pip_state;

/* ---- Library ---- */

/* The library's API version (PLAYCTL_API_VERSION of the header it was built with). */
uint32_t playctl_api_version(void);

/* A static English string for an error code (never NULL; unknown codes give "unknown error"). */
const char *playctl_error_string(int error);

/* A static name for an event type ("seek-completed", ...; never NULL). */
const char *playctl_event_name(int type);

/* ---- Players ---- */

/* A new player, or NULL when config holds an unknown value (NULL config: the defaults). Starts the player's
 * threads; no item. PLAYCTL_AUDIO_PULSE connects to the sound server on a thread of its own; the output in use
 * is reported (PLAYCTL_EVENT_AUDIO_DEVICE) at the first item's load, with the error when the server or the sink
 * could not be used: the player then goes on with the null output and the host clock. */
playctl_player *playctl_create(const playctl_config *config);

/* Stops the player and frees it (NULL is allowed). After it returns no callback of this player runs. Blocks
 * until a callback in progress has returned. The player's PiP sessions must be destroyed first. */
void playctl_destroy(playctl_player *player);

/* Loads a path or an http(s) URL. A local path that does not exist, cannot be read or is a directory fails at
 * once (NOT_FOUND, PERMISSION, NOT_MEDIA: nothing changes); other failures arrive as PLAYCTL_EVENT_ITEM_STATUS
 * with PLAYCTL_ITEM_FAILED. Blocks for a stat() of the path. */
int playctl_load(playctl_player *player, const char *url, int mode);

/* Sets the rate: 0 pauses, 1 plays, 2 plays twice as fast (pitch kept). Negative and non-finite rates are
 * INVALID_ARGUMENT. */
int playctl_set_rate(playctl_player *player, double rate);

/* Seeks the current item to seconds (flags: enum playctl_seek_flags). The result arrives as
 * PLAYCTL_EVENT_SEEK_COMPLETED with request_id, exactly once per accepted call; a newer seek supersedes an older
 * one (finished = 0). Unknown flags are INVALID_ARGUMENT. */
int playctl_seek(playctl_player *player, double seconds, int flags, uint64_t request_id);

/* PLAYCTL_CLOCK_MANUAL: moves the player's clock forward by seconds (>= 0; 0 just settles) and returns once every
 * player on that clock has caught up: loaded, decoded and shown everything due, and queued the events it caused.
 * INVALID_STATE under other clocks. Blocks for as long as that work takes. */
int playctl_clock_advance(playctl_player *player, double seconds);

/* Fills *out with the player's state. */
int playctl_get_state(playctl_player *player, playctl_state *out);

/* The sound level, 0...1 (PLAYCTL_AUDIO_PULSE; kept and reported under the other outputs). */
int playctl_set_volume(playctl_player *player, double volume);
int playctl_set_muted(playctl_player *player, int muted);

/* Copies the details of the last failure of a call on this player (or of its last failed item) into buffer, NUL
 * terminated and cut to size. Returns the full length, or a negative error. */
int playctl_last_error_message(playctl_player *player, char *buffer, size_t size);

/* ---- Events ---- */

/* The next event, waiting up to timeout_seconds for one (0 polls, a negative timeout waits until an event or
 * playctl_wakeup()). Never NULL: a PLAYCTL_EVENT_NONE on timeout or wakeup. The event and its strings are valid
 * until the next call on this player. One thread at a time per player. NULL player: a NONE event. */
const playctl_event *playctl_wait_event(playctl_player *player, double timeout_seconds);

/* Makes a playctl_wait_event() in progress (or the next one) return a NONE event. */
void playctl_wakeup(playctl_player *player);

/* Calls callback(context) from a thread of the library's own whenever the event queue goes from empty to not
 * empty (and at playctl_wakeup()). It only signals: drain with playctl_wait_event(player, 0) on your own thread
 * until NONE. It must not call playctl functions. NULL removes it. */
void playctl_set_wakeup_callback(playctl_player *player, void (*callback)(void *context), void *context);

/* ---- Video ---- */

/* Scales the frame on screen into target (libswscale) and describes it in *info (may be NULL). NO_FRAME before
 * the first frame. Runs on the calling thread: one conversion (a millisecond or two for 1080p). */
int playctl_render_sw(playctl_player *player, const playctl_sw_target *target, playctl_frame_info *info);

/* Calls callback(context) from a thread of the library's own each time a new frame is on screen: call
 * playctl_render_sw() from your render thread. It must not call playctl functions. NULL removes it. */
void playctl_set_frame_callback(playctl_player *player, void (*callback)(void *context), void *context);

/* ---- Picture in Picture (a simulated system window showing a player's picture) ---- */

/* A Picture in Picture controller for player's picture (config may be NULL). Its events arrive on player's event
 * queue (pip set). NULL on a NULL player or an unknown config value. */
playctl_pip *playctl_pip_create(playctl_player *player, const playctl_pip_config *config);

/* Asks for the window: PIP_WILL_START then PIP_DID_START, or PIP_FAILED_TO_START (the player has not shown a
 * frame yet, say). INVALID_STATE when a session is already active or starting. */
int playctl_pip_start(playctl_pip *pip);

/* Closes the window: PIP_WILL_STOP, PIP_DID_STOP. Does nothing when not active. */
int playctl_pip_stop(playctl_pip *pip);

/* Changes what the window shows without closing it. player NULL and url set: the shown player loads url in place
 * of its item (a new item). player set and url NULL: the window shows player's picture (a new player; it should
 * have shown its first frame: a player that has not stops the session, as AVKit does). PIP_CONTENT_SWAPPED
 * follows. */
int playctl_pip_swap(playctl_pip *pip, playctl_player *player, const char *url);

/* Fills *out. */
int playctl_pip_get_state(playctl_pip *pip, playctl_pip_state *out);

/* Ends the session (PIP_WILL_STOP, PIP_DID_STOP if active: queued before it returns) and frees the controller
 * (NULL is allowed). */
void playctl_pip_destroy(playctl_pip *pip);

/* ---- Metric events (since 0.2) ---- */

/* enabled 1: the player's metric events (the `metric.*` lines of `playctl play --json`: seeks, first frame,
 * stalls, likely to keep up, rate changes, variant switches, content swaps, hangs, the playback summary) arrive
 * on its event queue as PLAYCTL_EVENT_METRIC from now on; 0 stops them (the default). */
int playctl_set_metric_events(playctl_player *player, int enabled);

/* ---- Feeds of short videos and images (since 0.2) ---- */

/* A feed of count entries (urls: paths or http(s) URLs; kinds: enum playctl_feed_kind each, or NULL to take
 * .jpg, .jpeg, .png, .webp and .gif as images and the rest as videos), its players in a pool. Nothing loads until
 * the first playctl_feed_scroll(). NULL when an argument or a config value is bad. The entries are copied. */
playctl_feed *playctl_feed_create(const char *const *urls, const int *kinds, size_t count,
                                  const playctl_feed_config *config);

/* Stops everything (prefetches, players) and frees the feed (NULL is allowed). After it returns no callback of
 * this feed runs. Blocks until a callback in progress has returned. */
void playctl_feed_destroy(playctl_feed *feed);

/* The user scrolled to entry index (0-based) at speed items a second (0 for a swipe that stopped there): it
 * becomes the active item and plays (looping), the prefetch plan follows. Counted as a swipe in the summary, and
 * as a fling above the policy's fling speed (4 items a second). */
int playctl_feed_scroll(playctl_feed *feed, size_t index, double speed);

/* An endless feed's next page: count entries (as playctl_feed_create() takes them) after the last one, the first
 * numbered with the feed's entry count so far. Nothing in flight changes (the pool, the prepared player, the
 * prefetches); the plan takes them in as the user nears them; a PLAYCTL_EVENT_FEED "feed.page" says so. */
int playctl_feed_append(playctl_feed *feed, const char *const *urls, const int *kinds, size_t count);

/* The link changed (enum playctl_network). */
int playctl_feed_network_changed(playctl_feed *feed, int network);

/* PLAYCTL_CLOCK_MANUAL: moves the feed's clock forward by seconds (>= 0) and returns once its players, its
 * prefetches and its events caught up (the events are queued when it returns). INVALID_STATE under the host
 * clock. Blocks for as long as that work takes. */
int playctl_feed_clock_advance(playctl_feed *feed, double seconds);

/* The feed's summary so far as one JSON object, the `feed.summary` line of `playctl feed --json` (first-frame
 * latencies, stalls, bytes, pool hits, ...), copied into buffer NUL terminated and cut to size. Returns the full
 * length (call with NULL, 0 to size the buffer), or a negative error. */
int playctl_feed_summary(playctl_feed *feed, char *buffer, size_t size);

/* The feed's next event (PLAYCTL_EVENT_FEED), as playctl_wait_event() (NONE on timeout or wakeup, overflow
 * reported the same way; valid until the next call; one thread at a time). NULL feed: a NONE event. */
const playctl_event *playctl_feed_wait_event(playctl_feed *feed, double timeout_seconds);
void playctl_feed_wakeup(playctl_feed *feed);
void playctl_feed_set_wakeup_callback(playctl_feed *feed, void (*callback)(void *context), void *context);

/* Scales the picture of the player holding entry index (the active item's, or the prepared one's) into target,
 * as playctl_render_sw(). NO_FRAME when no player holds it or it has shown no frame. */
int playctl_feed_render_sw(playctl_feed *feed, size_t index, const playctl_sw_target *target,
                           playctl_frame_info *info);

/* ---- Posters (since 0.2): first frames and images, made once however often asked, in a bounded cache ---- */

/* A posters pipeline (config may be NULL). NULL on a bad config value. */
playctl_posters *playctl_posters_create(const playctl_posters_config *config);

/* Cancels every request and frees the pipeline (NULL is allowed). Blocks until a callback in progress returned. */
void playctl_posters_destroy(playctl_posters *posters);

/* Asks for a poster; its PLAYCTL_EVENT_POSTER with request_id follows exactly once (ready, failed or
 * cancelled). INVALID_STATE when request_id is already in flight or waiting to be taken. */
int playctl_posters_request(playctl_posters *posters, const playctl_poster_request *request, uint64_t request_id);

/* Cancels a request in flight: its event says CANCELLED (unless it ended before). INVALID_STATE for an id not in
 * flight. */
int playctl_posters_cancel(playctl_posters *posters, uint64_t request_id);

/* A ready poster: fills *info (may be NULL) and, with rgba, copies its RGBA pixels (rows of width * 4 bytes) into
 * rgba (size bytes, at least width * height * 4) and forgets it. rgba NULL: *info only, the poster kept.
 * INVALID_STATE when no ready poster has that id (never asked, failed, taken, or dropped past max_results);
 * INVALID_ARGUMENT when size is too small. */
int playctl_posters_result(playctl_posters *posters, uint64_t request_id, uint8_t *rgba, size_t size,
                          playctl_poster_info *info);

/* The pipeline's events, as playctl_wait_event(). */
const playctl_event *playctl_posters_wait_event(playctl_posters *posters, double timeout_seconds);
void playctl_posters_wakeup(playctl_posters *posters);
void playctl_posters_set_wakeup_callback(playctl_posters *posters, void (*callback)(void *context), void *context);

#ifdef __cplusplus
}
#endif

#endif /* PLAYCTL_H */
