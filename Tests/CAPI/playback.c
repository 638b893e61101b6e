/* Playback through the C API: the manual clock, seeks, rates, render_sw, the queue, the other clocks. */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static atomic_int wakeups, frames, wrong_context;
static void count_wakeup(void *context) { /* a library thread: no CHECK here (its counters are not atomic) */
    if (context != (void *)&wakeups) atomic_store(&wrong_context, 1);
    atomic_fetch_add(&wakeups, 1);
}
static void count_frame(void *context) {
    (void)context;
    atomic_fetch_add(&frames, 1);
}

static playctl_player *manual_player(void) {
    playctl_config config = {0};
    config.clock = PLAYCTL_CLOCK_MANUAL;
    return playctl_create(&config);
}

/* 1100 seeks left undrained: the first event is an overflow that dropped at least `at_least` of their events. */
static void check_overflow(playctl_player *player, int64_t at_least) {
    for (uint64_t id = 0; id < 1100; id++) playctl_seek(player, 1.0, PLAYCTL_SEEK_EXACT, 1000 + id);
    CHECK_EQ_INT(playctl_clock_advance(player, 0), PLAYCTL_OK); /* not drained */
    const playctl_event *event = playctl_wait_event(player, 0);
    CHECK_EQ_INT(event->type, PLAYCTL_EVENT_QUEUE_OVERFLOW);
    CHECK(event->value >= at_least);
    drain(player, NULL);
}

/* a.mp4 (6 s, 30 fps, keyframes at 0 and 4 s) on the manual clock: start, exact and keyframe seeks, superseded and
 * relative seeks, rates, the state, the wakeup and frame callbacks. */
void test_manual_playback(void) {
    event_log *log = calloc(1, sizeof *log);
    playctl_player *player = manual_player();
    CHECK(player != NULL);
    playctl_set_wakeup_callback(player, count_wakeup, &wakeups);
    playctl_set_frame_callback(player, count_frame, NULL);
    CHECK_EQ_INT(playctl_load(player, media("a.mp4"), PLAYCTL_LOAD_REPLACE), PLAYCTL_OK);
    CHECK_EQ_INT(playctl_set_rate(player, 1), PLAYCTL_OK);
    advance(player, 0.5, 0.1, log);
    int ready = find_event(log, PLAYCTL_EVENT_ITEM_STATUS, 0);
    CHECK(ready >= 0);
    if (ready >= 0) {
        CHECK_EQ_INT(log->events[ready].item_status, PLAYCTL_ITEM_READY);
        CHECK_NEAR(log->events[ready].duration, 6.0, 0.05);
        CHECK(strcmp(log->events[ready].item, "a.mp4") == 0);
    }
    CHECK(find_event(log, PLAYCTL_EVENT_CURRENT_ITEM, 0) >= 0);
    CHECK(find_event(log, PLAYCTL_EVENT_FIRST_FRAME, 0) >= 0);
    int playing = -1;
    for (int i = 0; i < log->count; i++) {
        if (log->events[i].type == PLAYCTL_EVENT_TIME_CONTROL_STATUS &&
            log->events[i].time_control_status == PLAYCTL_PLAYING)
            playing = i;
    }
    CHECK(playing >= 0);
    CHECK(atomic_load(&wakeups) >= log->count);
    CHECK_EQ_INT(atomic_load(&wrong_context), 0);
    CHECK(atomic_load(&frames) >= 14); /* 0 .. 0.5 s at 30 fps */

    playctl_state state;
    CHECK_EQ_INT(playctl_get_state(player, &state), PLAYCTL_OK);
    CHECK_NEAR(state.time, 0.5, 0.001);
    CHECK_NEAR(state.duration, 6.0, 0.05);
    CHECK_NEAR(state.rate, 1, 0);
    CHECK_EQ_INT(state.time_control_status, PLAYCTL_PLAYING);
    CHECK_EQ_INT(state.waiting_reason, PLAYCTL_WAITING_NONE);
    CHECK_EQ_INT(state.item_status, PLAYCTL_ITEM_READY);
    CHECK_EQ_INT(state.audio_output, PLAYCTL_AUDIO_NULL);
    CHECK_EQ_INT(state.width, 640);
    CHECK_EQ_INT(state.height, 360);
    CHECK_NEAR(state.clock_time, 0.5, 0.001);
    CHECK_EQ_INT(state.frames_rendered, 16);
    CHECK_EQ_INT(state.frames_dropped, 0);
    CHECK(fabs(state.avsync) < 0.05);

    /* An exact seek lands on the target; the event carries the app's id. */
    log->count = 0;
    CHECK_EQ_INT(playctl_seek(player, 3.9, PLAYCTL_SEEK_EXACT, 11), PLAYCTL_OK);
    advance(player, 0, 0, log);
    int seek = find_event(log, PLAYCTL_EVENT_SEEK_COMPLETED, 0);
    CHECK(seek >= 0);
    if (seek >= 0) {
        CHECK_EQ_INT(log->events[seek].request_id, 11);
        CHECK_EQ_INT(log->events[seek].finished, 1);
        CHECK_NEAR(log->events[seek].landed, 3.9, 1e-6);
    }
    CHECK(find_event(log, PLAYCTL_EVENT_TIME_JUMPED, 0) >= 0);
    CHECK_EQ_INT(playctl_get_state(player, &state), PLAYCTL_OK);
    CHECK_NEAR(state.time, 3.9, 1e-6);

    /* A keyframe seek lands on the keyframe at or before the target (0 s: the next is at 4 s). */
    log->count = 0;
    CHECK_EQ_INT(playctl_seek(player, 3.5, PLAYCTL_SEEK_KEYFRAME, 12), PLAYCTL_OK);
    advance(player, 0, 0, log);
    seek = find_event(log, PLAYCTL_EVENT_SEEK_COMPLETED, 0);
    CHECK(seek >= 0 && log->events[seek].request_id == 12 && log->events[seek].finished == 1);
    if (seek >= 0) CHECK_NEAR(log->events[seek].landed, 0.0, 1e-6);

    /* A newer seek supersedes an older one: each completes exactly once, the older with finished == 0. */
    log->count = 0;
    CHECK_EQ_INT(playctl_seek(player, 1.0, PLAYCTL_SEEK_EXACT, 21), PLAYCTL_OK);
    CHECK_EQ_INT(playctl_seek(player, 2.0, PLAYCTL_SEEK_EXACT, 22), PLAYCTL_OK);
    advance(player, 0, 0, log);
    CHECK_EQ_INT(count_events(log, PLAYCTL_EVENT_SEEK_COMPLETED), 2);
    for (int i = 0; i < log->count; i++) {
        if (log->events[i].type != PLAYCTL_EVENT_SEEK_COMPLETED) continue;
        if (log->events[i].request_id == 21) {
            CHECK_EQ_INT(log->events[i].finished, 0);
            CHECK(isnan(log->events[i].landed));
        } else {
            CHECK_EQ_INT(log->events[i].request_id, 22);
            CHECK_EQ_INT(log->events[i].finished, 1);
            CHECK_NEAR(log->events[i].landed, 2.0, 1e-6);
        }
    }

    /* A relative seek adds the current time. */
    log->count = 0;
    CHECK_EQ_INT(playctl_seek(player, 0.5, PLAYCTL_SEEK_EXACT | PLAYCTL_SEEK_RELATIVE, 23), PLAYCTL_OK);
    advance(player, 0, 0, log);
    seek = find_event(log, PLAYCTL_EVENT_SEEK_COMPLETED, 0);
    CHECK(seek >= 0);
    if (seek >= 0) CHECK_NEAR(log->events[seek].landed, 2.5, 1e-6);

    /* Rate 2: the playhead moves twice as fast as the clock; rate 0 pauses. */
    log->count = 0;
    CHECK_EQ_INT(playctl_set_rate(player, 2), PLAYCTL_OK);
    advance(player, 0.5, 0.1, log);
    int rate = find_event(log, PLAYCTL_EVENT_RATE, 0);
    CHECK(rate >= 0);
    if (rate >= 0) CHECK_NEAR(log->events[rate].rate, 2, 0);
    CHECK_EQ_INT(playctl_get_state(player, &state), PLAYCTL_OK);
    CHECK_NEAR(state.time, 3.5, 1e-3);
    CHECK_EQ_INT(playctl_set_rate(player, 0), PLAYCTL_OK);
    advance(player, 0.5, 0.1, log);
    CHECK_EQ_INT(playctl_get_state(player, &state), PLAYCTL_OK);
    CHECK_NEAR(state.time, 3.5, 1e-3);
    CHECK_EQ_INT(state.time_control_status, PLAYCTL_PAUSED);

    /* Volume and mute are kept and reported. */
    CHECK_EQ_INT(playctl_set_volume(player, 0.25), PLAYCTL_OK);
    CHECK_EQ_INT(playctl_set_muted(player, 1), PLAYCTL_OK);
    CHECK_EQ_INT(playctl_get_state(player, &state), PLAYCTL_OK);
    CHECK_NEAR(state.volume, 0.25, 0);
    CHECK_EQ_INT(state.muted, 1);

    /* A wakeup makes a waiting call return a NONE event; a timeout too, after about its time. */
    playctl_wakeup(player);
    const playctl_event *event = playctl_wait_event(player, -1);
    CHECK_EQ_INT(event->type, PLAYCTL_EVENT_NONE);
    double start = now_seconds();
    event = playctl_wait_event(player, 0.05);
    CHECK_EQ_INT(event->type, PLAYCTL_EVENT_NONE);
    CHECK(now_seconds() - start >= 0.045);

    /* Callbacks removed: no more calls. */
    playctl_set_wakeup_callback(player, NULL, NULL);
    playctl_set_frame_callback(player, NULL, NULL);
    int wakeups_before = atomic_load(&wakeups), frames_before = atomic_load(&frames);
    CHECK_EQ_INT(playctl_set_rate(player, 1), PLAYCTL_OK);
    advance(player, 0.3, 0.1, NULL);
    CHECK_EQ_INT(atomic_load(&wakeups), wakeups_before);
    CHECK_EQ_INT(atomic_load(&frames), frames_before);

    /* The event queue is bounded: past 1000 undrained events, the oldest are dropped and counted. */
    check_overflow(player, 100);
    playctl_destroy(player);
    free(log);

    /* And in bytes (256 KB): events naming an item by a 250-byte file name (about 380 bytes an event) reach it before
     * 1000 events, so more than the hundred over 1000 are dropped. */
    char dir[] = "/tmp/playctl-capi-XXXXXX", target[4096], link_path[4096], name[251];
    CHECK(mkdtemp(dir) != NULL);
    char cwd[2048] = "";
    if (media_dir[0] != '/') CHECK(getcwd(cwd, sizeof cwd) != NULL);
    snprintf(target, sizeof target, "%s%s%s", cwd, cwd[0] ? "/" : "", media("a.mp4"));
    memset(name, 'n', 246);
    memcpy(name + 246, ".mp4", 5);
    snprintf(link_path, sizeof link_path, "%s/%s", dir, name);
    CHECK_EQ_INT(symlink(target, link_path), 0);
    player = manual_player();
    CHECK_EQ_INT(playctl_load(player, link_path, PLAYCTL_LOAD_REPLACE), PLAYCTL_OK);
    advance(player, 0, 0, NULL); /* loads */
    drain(player, NULL);
    check_overflow(player, 300);
    playctl_destroy(player);
    unlink(link_path);
    rmdir(dir);
}

/* render_sw: RGBA, BGRA and I420 at the app's size and stride; the frame's time; new or not. */
void test_render(void) {
    playctl_player *player = manual_player();
    CHECK_EQ_INT(playctl_load(player, media("a.mp4"), PLAYCTL_LOAD_REPLACE), PLAYCTL_OK);
    advance(player, 0, 0, NULL); /* loads */
    CHECK_EQ_INT(playctl_seek(player, 2.0, PLAYCTL_SEEK_EXACT, 1), PLAYCTL_OK);
    advance(player, 0, 0, NULL);
    enum { W = 64, H = 36, STRIDE = W * 4 + 16 };
    static uint8_t rgba[H * STRIDE], bgra[H * STRIDE], y[H * 80], u[(H / 2) * 40], v[(H / 2) * 40];
    memset(rgba, 0xEE, sizeof rgba);
    playctl_sw_target target = {0};
    target.format = PLAYCTL_FORMAT_RGBA;
    target.width = W;
    target.height = H;
    target.planes[0] = rgba;
    target.strides[0] = STRIDE;
    playctl_frame_info info;
    CHECK_EQ_INT(playctl_render_sw(player, &target, &info), PLAYCTL_OK);
    CHECK_EQ_INT(info.width, 640);
    CHECK_EQ_INT(info.height, 360);
    CHECK_NEAR(info.time, 2.0, 1e-6);
    CHECK_EQ_INT(info.is_new, 1);
    CHECK(info.serial >= 1);
    for (int row = 0; row < H; row++) {
        CHECK_EQ_INT(rgba[row * STRIDE + 3], 255);         /* alpha */
        CHECK_EQ_INT(rgba[row * STRIDE + W * 4], 0xEE);     /* the padding past the row is the app's */
    }
    target.format = PLAYCTL_FORMAT_BGRA;
    target.planes[0] = bgra;
    CHECK_EQ_INT(playctl_render_sw(player, &target, &info), PLAYCTL_OK);
    CHECK_EQ_INT(info.is_new, 0); /* the same frame */
    int swapped = 1;
    for (int i = 0; i < W * 4; i += 4) swapped &= rgba[i] == bgra[i + 2] && rgba[i + 2] == bgra[i];
    CHECK(swapped);
    target.format = PLAYCTL_FORMAT_I420;
    target.planes[0] = y;
    target.planes[1] = u;
    target.planes[2] = v;
    target.strides[0] = 80;
    target.strides[1] = target.strides[2] = 40;
    CHECK_EQ_INT(playctl_render_sw(player, &target, &info), PLAYCTL_OK);
    int varied = 0;
    for (int i = 1; i < W; i++) varied |= y[i] != y[0];
    CHECK(varied); /* testsrc2 is not flat */

    /* After the clock moves, a new frame; playing on, the serial grows. */
    uint64_t serial = info.serial;
    CHECK_EQ_INT(playctl_set_rate(player, 1), PLAYCTL_OK);
    advance(player, 0.1, 0.1, NULL);
    CHECK_EQ_INT(playctl_render_sw(player, &target, &info), PLAYCTL_OK);
    CHECK_EQ_INT(info.is_new, 1);
    CHECK_EQ_INT(info.serial, serial + 3);
    CHECK_NEAR(info.time, 2.1, 1e-6);
    playctl_destroy(player);
}

/* Append, PLAYCTL_END_AUTO (advance while queued, then pause on the last frame), replace. */
void test_queue_and_end(void) {
    event_log *log = calloc(1, sizeof *log);
    playctl_player *player = manual_player();
    CHECK_EQ_INT(playctl_load(player, media("a.mp4"), PLAYCTL_LOAD_APPEND), PLAYCTL_OK);
    CHECK_EQ_INT(playctl_load(player, media("b.mp4"), PLAYCTL_LOAD_APPEND), PLAYCTL_OK);
    CHECK_EQ_INT(playctl_set_rate(player, 1), PLAYCTL_OK);
    advance(player, 0, 0, log); /* loads */
    CHECK_EQ_INT(playctl_seek(player, 5.5, PLAYCTL_SEEK_EXACT, 1), PLAYCTL_OK);
    advance(player, 1.0, 0.25, log);
    int end = find_event(log, PLAYCTL_EVENT_PLAYED_TO_END, 0);
    CHECK(end >= 0);
    if (end >= 0) CHECK(strcmp(log->events[end].item, "a.mp4") == 0);
    int next = find_event(log, PLAYCTL_EVENT_CURRENT_ITEM, end);
    CHECK(next >= 0);
    if (next >= 0) CHECK(strcmp(log->events[next].item, "b.mp4") == 0);
    advance(player, 4.5, 0.5, log);
    CHECK_EQ_INT(count_events(log, PLAYCTL_EVENT_PLAYED_TO_END), 2);
    playctl_state state;
    CHECK_EQ_INT(playctl_get_state(player, &state), PLAYCTL_OK);
    CHECK_EQ_INT(state.time_control_status, PLAYCTL_PAUSED); /* on b.mp4's last frame */
    CHECK_EQ_INT(state.item_status, PLAYCTL_ITEM_READY);
    CHECK_NEAR(state.time, 4.0, 0.05);

    /* Replace: c.webm in place of b.mp4. */
    log->count = 0;
    CHECK_EQ_INT(playctl_load(player, media("c.webm"), PLAYCTL_LOAD_REPLACE), PLAYCTL_OK);
    advance(player, 0, 0, log);
    next = find_event(log, PLAYCTL_EVENT_CURRENT_ITEM, 0);
    CHECK(next >= 0);
    if (next >= 0) CHECK(strcmp(log->events[next].item, "c.webm") == 0);
    CHECK_EQ_INT(playctl_get_state(player, &state), PLAYCTL_OK);
    CHECK_EQ_INT(state.width, 320);
    playctl_destroy(player);
    free(log);
}

/* The untimed clock plays as fast as it decodes; the host clock in real time; no audio at all. */
void test_other_clocks(void) {
    event_log *log = calloc(1, sizeof *log);
    playctl_config config = {0};
    config.clock = PLAYCTL_CLOCK_UNTIMED;
    playctl_player *player = playctl_create(&config);
    CHECK_EQ_INT(playctl_load(player, media("c.webm"), PLAYCTL_LOAD_REPLACE), PLAYCTL_OK);
    CHECK_EQ_INT(playctl_set_rate(player, 1), PLAYCTL_OK);
    CHECK(wait_for(player, log, PLAYCTL_EVENT_PLAYED_TO_END, 30) >= 0);
    playctl_state state;
    CHECK_EQ_INT(playctl_get_state(player, &state), PLAYCTL_OK);
    CHECK_NEAR(state.clock_time, 3.0, 0.05);
    CHECK_EQ_INT(state.frames_rendered, 72);
    CHECK_EQ_INT(playctl_clock_advance(player, 1), PLAYCTL_ERROR_INVALID_STATE);
    playctl_destroy(player);

    log->count = 0;
    config.clock = PLAYCTL_CLOCK_HOST;
    config.audio = PLAYCTL_AUDIO_NONE;
    player = playctl_create(&config);
    CHECK_EQ_INT(playctl_load(player, media("b.mp4"), PLAYCTL_LOAD_REPLACE), PLAYCTL_OK);
    CHECK_EQ_INT(playctl_set_rate(player, 1), PLAYCTL_OK);
    CHECK(wait_for(player, log, PLAYCTL_EVENT_FIRST_FRAME, 10) >= 0);
    /* Playing, not waiting for its buffer (beside a busy test suite that may take a moment). */
    double deadline = now_seconds() + 10;
    do {
        CHECK_EQ_INT(playctl_get_state(player, &state), PLAYCTL_OK);
        if (state.time_control_status == PLAYCTL_PLAYING) break;
        playctl_wait_event(player, 0.01);
    } while (now_seconds() < deadline);
    double start = now_seconds();
    double time_before = state.time;
    while (now_seconds() - start < 0.3) playctl_wait_event(player, 0.3 - (now_seconds() - start));
    CHECK_EQ_INT(playctl_get_state(player, &state), PLAYCTL_OK);
    CHECK(state.time - time_before > 0.2 && state.time - time_before < 0.5); /* real time moved it */
    CHECK_EQ_INT(state.audio_output, PLAYCTL_AUDIO_NONE);
    playctl_destroy(player); /* while playing */
    free(log);
}
