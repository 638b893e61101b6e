/* The C API's tests: compiled against the installed playctl.h and playctl.pc, run by Tests/CAPITests.
 *   capi-tests MEDIA_DIR [-v] */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <time.h>

int checks_passed = 0, checks_failed = 0;
int verbose = 0;
const char *media_dir = "Media";

const char *media(const char *name) {
    static char slots[4][4096];
    static int next = 0;
    char *slot = slots[next++ % 4];
    snprintf(slot, sizeof slots[0], "%s/%s", media_dir, name);
    return slot;
}

/* Records event in log (printing it when verbose). */
static void record(const playctl_event *event, event_log *log) {
    if (verbose) {
        printf("  %8.3f %-20s item=%s t=%.3f id=%llu fin=%d landed=%.3f err=%d value=%lld %s\n", event->clock_time,
               playctl_event_name(event->type), event->item ? event->item : "-", event->time,
               (unsigned long long)event->request_id, event->finished, event->landed, event->error,
               (long long)event->value, event->message ? event->message : "");
    }
    if (log == NULL || log->count >= (int)(sizeof log->events / sizeof log->events[0])) return;
    recorded_event *out = &log->events[log->count++];
    memset(out, 0, sizeof *out);
    out->type = event->type;
    out->error = event->error;
    out->item_status = event->item_status;
    out->time_control_status = event->time_control_status;
    out->finished = event->finished;
    out->request_id = event->request_id;
    out->time = event->time;
    out->landed = event->landed;
    out->duration = event->duration;
    out->rate = event->rate;
    out->value = event->value;
    out->pip = event->pip;
    if (event->item) snprintf(out->item, sizeof out->item, "%s", event->item);
    if (event->message) snprintf(out->message, sizeof out->message, "%s", event->message);
}

int drain(playctl_player *player, event_log *log) {
    int drained = 0;
    for (;;) {
        const playctl_event *event = playctl_wait_event(player, 0);
        if (event == NULL || event->type == PLAYCTL_EVENT_NONE) break;
        drained++;
        record(event, log);
    }
    return drained;
}

double now_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

int wait_for(playctl_player *player, event_log *log, int type, double timeout) {
    int from = log->count;
    double deadline = now_seconds() + timeout;
    for (;;) {
        int found = find_event(log, type, from);
        if (found >= 0) return found;
        double left = deadline - now_seconds();
        if (left <= 0) return -1;
        const playctl_event *event = playctl_wait_event(player, left);
        if (event->type != PLAYCTL_EVENT_NONE) record(event, log);
    }
}

int find_event(const event_log *log, int type, int from) {
    for (int i = from < 0 ? 0 : from; i < log->count; i++) {
        if (log->events[i].type == type) return i;
    }
    return -1;
}

int count_events(const event_log *log, int type) {
    int count = 0;
    for (int i = 0; i < log->count; i++) count += log->events[i].type == type;
    return count;
}

void advance(playctl_player *player, double seconds, double step, event_log *log) {
    double done = 0;
    while (done + 1e-9 < seconds) {
        double next = seconds - done < step ? seconds - done : step;
        CHECK_EQ_INT(playctl_clock_advance(player, next), PLAYCTL_OK);
        done += next;
        drain(player, log);
    }
    if (seconds == 0) {
        CHECK_EQ_INT(playctl_clock_advance(player, 0), PLAYCTL_OK);
        drain(player, log);
    }
}

/* The version, the static strings. */
void test_library(void) {
    /* The header's rule: the same MAJOR, the library's MINOR at least the header's (a program built against an
     * older header runs here: scripts/test-capi.sh builds these tests against the 0.1 header too). */
    CHECK_EQ_INT(playctl_api_version() >> 16, PLAYCTL_API_VERSION_MAJOR);
    CHECK((playctl_api_version() & 0xffff) >= PLAYCTL_API_VERSION_MINOR);
    CHECK_EQ_INT(playctl_api_version(), (0 << 16) | 3); /* this library */
    CHECK(strcmp(playctl_error_string(PLAYCTL_OK), "success") == 0);
    for (int code = PLAYCTL_ERROR_OTHER; code <= 0; code++) {
        const char *text = playctl_error_string(code);
        CHECK(text != NULL && strlen(text) > 0 && strcmp(text, "unknown error") != 0);
    }
    CHECK(strcmp(playctl_error_string(-1000), "unknown error") == 0);
#if PLAYCTL_API_VERSION_MINOR >= 2
    CHECK(strcmp(playctl_error_string(PLAYCTL_ERROR_CANCELLED), "cancelled") == 0);
    CHECK(strcmp(playctl_event_name(PLAYCTL_EVENT_FEED), "feed") == 0);
    CHECK(strcmp(playctl_event_name(PLAYCTL_EVENT_METRIC), "metric") == 0);
    CHECK(strcmp(playctl_event_name(PLAYCTL_EVENT_POSTER), "poster") == 0);
#endif
    CHECK(strcmp(playctl_error_string(5), "unknown error") == 0);
    CHECK(strcmp(playctl_event_name(PLAYCTL_EVENT_SEEK_COMPLETED), "seek-completed") == 0);
    CHECK(strcmp(playctl_event_name(PLAYCTL_EVENT_PIP_DID_START), "pip-did-start") == 0);
    CHECK(strcmp(playctl_event_name(999), "unknown") == 0);
}

/* NULL handles and pointers, unknown values, NaN: a negative error (or NULL), never a crash. */
void test_bad_arguments(void) {
    const int invalid = PLAYCTL_ERROR_INVALID_ARGUMENT;
    CHECK_EQ_INT(playctl_load(NULL, media("a.mp4"), PLAYCTL_LOAD_REPLACE), invalid);
    CHECK_EQ_INT(playctl_set_rate(NULL, 1), invalid);
    CHECK_EQ_INT(playctl_seek(NULL, 1, PLAYCTL_SEEK_EXACT, 1), invalid);
    CHECK_EQ_INT(playctl_clock_advance(NULL, 1), invalid);
    playctl_state state;
    CHECK_EQ_INT(playctl_get_state(NULL, &state), invalid);
    CHECK_EQ_INT(playctl_set_volume(NULL, 0.5), invalid);
    CHECK_EQ_INT(playctl_set_muted(NULL, 1), invalid);
    char message[64];
    CHECK_EQ_INT(playctl_last_error_message(NULL, message, sizeof message), invalid);
    uint8_t pixels[16 * 16 * 4];
    playctl_sw_target target = {0};
    target.format = PLAYCTL_FORMAT_RGBA;
    target.width = 16;
    target.height = 16;
    target.planes[0] = pixels;
    target.strides[0] = 64;
    CHECK_EQ_INT(playctl_render_sw(NULL, &target, NULL), invalid);
    const playctl_event *none = playctl_wait_event(NULL, 0.01);
    CHECK(none != NULL && none->type == PLAYCTL_EVENT_NONE);
    playctl_wakeup(NULL);
    playctl_set_wakeup_callback(NULL, NULL, NULL);
    playctl_set_frame_callback(NULL, NULL, NULL);
    playctl_destroy(NULL);
    CHECK(playctl_pip_create(NULL, NULL) == NULL);
    CHECK_EQ_INT(playctl_pip_start(NULL), invalid);
    CHECK_EQ_INT(playctl_pip_stop(NULL), invalid);
    CHECK_EQ_INT(playctl_pip_swap(NULL, NULL, media("b.mp4")), invalid);
    playctl_pip_state pip_state;
    CHECK_EQ_INT(playctl_pip_get_state(NULL, &pip_state), invalid);
    playctl_pip_destroy(NULL);

    /* Configs with unknown values make no player. */
    playctl_config config = {0};
    config.clock = 7;
    CHECK(playctl_create(&config) == NULL);
    config.clock = 0;
    config.audio = -1;
    CHECK(playctl_create(&config) == NULL);
    config.audio = 0;
    config.action_at_item_end = 9;
    CHECK(playctl_create(&config) == NULL);

    playctl_player *player = playctl_create(NULL); /* the defaults: host clock, null audio */
    CHECK(player != NULL);
    config.action_at_item_end = 0;
    config.clock = PLAYCTL_CLOCK_MANUAL;
    config.share_clock = player; /* not a manual clock: nothing to share */
    CHECK(playctl_create(&config) == NULL);

    CHECK_EQ_INT(playctl_load(player, NULL, PLAYCTL_LOAD_REPLACE), invalid);
    CHECK_EQ_INT(playctl_load(player, media("a.mp4"), 5), invalid);
    CHECK_EQ_INT(playctl_load(player, "", PLAYCTL_LOAD_REPLACE), invalid);
    CHECK_EQ_INT(playctl_seek(player, 1, 0x100, 1), invalid);
    CHECK_EQ_INT(playctl_seek(player, NAN, PLAYCTL_SEEK_EXACT, 1), invalid);
    CHECK_EQ_INT(playctl_seek(player, INFINITY, 0, 1), invalid);
    CHECK_EQ_INT(playctl_set_rate(player, -1), invalid);
    CHECK_EQ_INT(playctl_set_rate(player, NAN), invalid);
    CHECK_EQ_INT(playctl_clock_advance(player, -1), invalid);
    CHECK_EQ_INT(playctl_clock_advance(player, 1), PLAYCTL_ERROR_INVALID_STATE); /* a host clock */
    CHECK(playctl_last_error_message(player, message, sizeof message) > 0);
    CHECK(strstr(message, "PLAYCTL_CLOCK_MANUAL") != NULL);
    CHECK_EQ_INT(playctl_get_state(player, NULL), invalid);
    CHECK_EQ_INT(playctl_set_volume(player, 2), invalid);
    CHECK_EQ_INT(playctl_set_volume(player, NAN), invalid);
    CHECK_EQ_INT(playctl_set_muted(player, 2), invalid);
    CHECK_EQ_INT(playctl_render_sw(player, NULL, NULL), invalid);
    target.format = 42;
    CHECK_EQ_INT(playctl_render_sw(player, &target, NULL), invalid);
    target.format = PLAYCTL_FORMAT_RGBA;
    target.strides[0] = 63; /* shorter than a row */
    CHECK_EQ_INT(playctl_render_sw(player, &target, NULL), invalid);
    target.strides[0] = 64;
    target.width = 0;
    CHECK_EQ_INT(playctl_render_sw(player, &target, NULL), invalid);
    target.width = 16;
    target.format = PLAYCTL_FORMAT_I420; /* U and V planes missing */
    target.strides[1] = target.strides[2] = 8;
    CHECK_EQ_INT(playctl_render_sw(player, &target, NULL), invalid);
    target.format = PLAYCTL_FORMAT_RGBA;
    CHECK_EQ_INT(playctl_render_sw(player, &target, NULL), PLAYCTL_ERROR_NO_FRAME); /* no item */
    playctl_pip_config pip_config = {0};
    pip_config.reserved[3] = player;
    CHECK(playctl_pip_create(player, &pip_config) == NULL);

    /* A missing file, a directory: an error and a message at once, nothing changes. */
    CHECK_EQ_INT(playctl_load(player, media("missing.mp4"), PLAYCTL_LOAD_REPLACE), PLAYCTL_ERROR_NOT_FOUND);
    int length = playctl_last_error_message(player, message, sizeof message);
    CHECK(length > 0 && strstr(message, "missing.mp4") != NULL);
    char small[5];
    CHECK_EQ_INT(playctl_last_error_message(player, small, sizeof small), length); /* cut, NUL terminated */
    CHECK_EQ_INT(strlen(small), 4);
    CHECK_EQ_INT(playctl_last_error_message(player, NULL, 0), length);
    CHECK_EQ_INT(playctl_load(player, media_dir, PLAYCTL_LOAD_REPLACE), PLAYCTL_ERROR_NOT_MEDIA);
    CHECK_EQ_INT(playctl_get_state(player, &state), PLAYCTL_OK);
    CHECK_EQ_INT(state.item_status, PLAYCTL_ITEM_NONE);
    CHECK(isnan(state.duration));

    /* A file that is not media: accepted, then a failed item status with an error and FFmpeg's message. */
    event_log *log = calloc(1, sizeof *log);
    CHECK_EQ_INT(playctl_load(player, media("make-media.sh"), PLAYCTL_LOAD_REPLACE), PLAYCTL_OK);
    int failed = wait_for(player, log, PLAYCTL_EVENT_ITEM_STATUS, 10);
    CHECK(failed >= 0);
    if (failed >= 0) {
        CHECK_EQ_INT(log->events[failed].item_status, PLAYCTL_ITEM_FAILED);
        CHECK_EQ_INT(log->events[failed].error, PLAYCTL_ERROR_NOT_MEDIA);
        CHECK(strstr(log->events[failed].message, "make-media.sh") != NULL);
    }
    CHECK(playctl_last_error_message(player, message, sizeof message) > 0);
    playctl_destroy(player);
    free(log);
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-v") == 0) {
            verbose = 1;
        } else {
            media_dir = argv[i];
        }
    }
    struct {
        const char *name;
        void (*run)(void);
    } tests[] = {
        {"library", test_library},         {"bad arguments", test_bad_arguments},
        {"manual playback", test_manual_playback}, {"render", test_render},
        {"queue and end", test_queue_and_end}, {"other clocks", test_other_clocks},
        {"picture in picture", test_pip},   {"threads", test_threads},
        {"pulseaudio", test_pulse},
#if PLAYCTL_API_VERSION_MINOR >= 2
        {"metric events", test_metrics}, {"feed", test_feed}, {"posters", test_posters},
#endif
#if PLAYCTL_API_VERSION_MINOR >= 3
        {"feed entries", test_feed_entries},
#endif
    };
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        int failed_before = checks_failed;
        tests[i].run();
        printf("%s: %s\n", checks_failed == failed_before ? "ok" : "FAILED", tests[i].name);
        fflush(stdout);
    }
    printf("capi: %d checks passed, %d failed\n", checks_passed, checks_failed);
    return checks_failed == 0 ? 0 : 1;
}
