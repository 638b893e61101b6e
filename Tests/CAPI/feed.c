/* A feed through the C API (since 0.2): ten entries over Media/ on the manual clock, scrolled one by one with a
 * dwell of 1.5 s each; its events carry the --json vocabulary; its summary is printed. */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#if PLAYCTL_API_VERSION_MINOR >= 2
#include <stdatomic.h>
#include <stdlib.h>

static atomic_int feed_wakeups;
static void count_feed_wakeup(void *context) { /* a library thread: only counts */
    if (context == (void *)&feed_wakeups) atomic_fetch_add(&feed_wakeups, 1);
}

typedef struct feed_log {
    int count, posters, active[10], first_frames[10], started[10], visible[10], failed, json_mismatch, index_mismatch;
    double max_latency;
} feed_log;

/* Drains the feed's events into log, checking that each names itself in its JSON object. */
static void drain_feed(playctl_feed *feed, feed_log *log) {
    for (;;) {
        const playctl_event *event = playctl_feed_wait_event(feed, 0);
        if (event->type == PLAYCTL_EVENT_NONE) return;
        if (event->type != PLAYCTL_EVENT_FEED) continue;
        log->count++;
        char expected[96];
        snprintf(expected, sizeof expected, "{\"event\":\"%s\"", event->name ? event->name : "?");
        if (event->json == NULL || strncmp(event->json, expected, strlen(expected)) != 0) log->json_mismatch++;
        char index[48];
        snprintf(index, sizeof index, "\"index\":%lld", (long long)event->index);
        if (event->json == NULL || strstr(event->json, index) == NULL) log->index_mismatch++;
        if (verbose) printf("  %7.3f %s\n", event->time, event->json);
        if (event->index < 0 || event->index >= 10) continue;
        int at = (int)event->index;
        if (strcmp(event->name, "feed.active") == 0) log->active[at]++;
        if (strcmp(event->name, "feed.visible") == 0) log->visible[at]++;
        if (strcmp(event->name, "feed.firstFrame") == 0) {
            log->first_frames[at]++;
            if (event->latency > log->max_latency) log->max_latency = event->latency;
        }
        if (strcmp(event->name, "feed.started") == 0) log->started[at]++;
        if (strcmp(event->name, "feed.poster") == 0) log->posters++;
        if (strcmp(event->name, "feed.failed") == 0) log->failed++;
    }
}

/* The number after "key": in json (-1 when absent). */
static double json_number(const char *json, const char *key) {
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":", key);
    const char *at = strstr(json, pattern);
    return at ? strtod(at + strlen(pattern), NULL) : -1;
}

void test_feed(void) {
    const char *names[10] = {"a.mp4", "still.jpg", "b.mp4", "c.webm", "rotated.mp4",
                             "offset.ts", "b.mp4", "a.mp4", "still.jpg", "c.webm"};
    static char paths[10][4096];
    const char *urls[10];
    for (int i = 0; i < 10; i++) {
        snprintf(paths[i], sizeof paths[i], "%s/%s", media_dir, names[i]);
        urls[i] = paths[i];
    }
    /* Bad arguments: no feed. */
    playctl_feed_config config = {0};
    CHECK(playctl_feed_create(NULL, NULL, 10, &config) == NULL);
    CHECK(playctl_feed_create(urls, NULL, 0, &config) == NULL);
    config.clock = PLAYCTL_CLOCK_UNTIMED;
    CHECK(playctl_feed_create(urls, NULL, 10, &config) == NULL);
    config.clock = PLAYCTL_CLOCK_MANUAL;
    config.network = 9;
    CHECK(playctl_feed_create(urls, NULL, 10, &config) == NULL);
    config.network = PLAYCTL_NETWORK_UNCONSTRAINED;
    int bad_kinds[10] = {0, 1, 0, 0, 0, 0, 0, 0, 7, 0};
    CHECK(playctl_feed_create(urls, bad_kinds, 10, &config) == NULL);
    CHECK_EQ_INT(playctl_feed_scroll(NULL, 0, 0), PLAYCTL_ERROR_INVALID_ARGUMENT);
    CHECK_EQ_INT(playctl_feed_summary(NULL, NULL, 0), PLAYCTL_ERROR_INVALID_ARGUMENT);
    CHECK(playctl_feed_wait_event(NULL, 0)->type == PLAYCTL_EVENT_NONE);
    playctl_feed_destroy(NULL);

    config.audio = PLAYCTL_AUDIO_NONE;
    config.poster_width = 96; /* posters of the items around, 96x96 fitted */
    config.poster_height = 96;
    playctl_feed *feed = playctl_feed_create(urls, NULL, 10, &config);
    CHECK(feed != NULL);
    if (feed == NULL) return;
    CHECK_EQ_INT(playctl_feed_scroll(feed, 10, 0), PLAYCTL_ERROR_INVALID_ARGUMENT);
    CHECK_EQ_INT(playctl_feed_scroll(feed, 0, -1), PLAYCTL_ERROR_INVALID_ARGUMENT);
    CHECK_EQ_INT(playctl_feed_network_changed(feed, 5), PLAYCTL_ERROR_INVALID_ARGUMENT);

    playctl_feed_set_wakeup_callback(feed, count_feed_wakeup, (void *)&feed_wakeups);
    feed_log *log = calloc(1, sizeof *log);
    int prepared_rendered = 0, prepared_expected = 0;
    uint8_t *pixels = malloc(160 * 90 * 4);
    int rendered = 0, bright = 0;
    for (int item = 0; item < 10; item++) {
        CHECK_EQ_INT(playctl_feed_scroll(feed, (size_t)item, 0), PLAYCTL_OK);
        for (int step = 0; step < 15; step++) {
            CHECK_EQ_INT(playctl_feed_clock_advance(feed, 0.1), PLAYCTL_OK);
            drain_feed(feed, log);
        }
        /* The item on screen renders (the images have no player). */
        playctl_sw_target target = {0};
        target.format = PLAYCTL_FORMAT_RGBA;
        target.width = 160;
        target.height = 90;
        target.planes[0] = pixels;
        target.strides[0] = 160 * 4;
        playctl_frame_info info;
        if (strstr(names[item], ".jpg") == NULL) {
            int result = playctl_feed_render_sw(feed, (size_t)item, &target, &info);
            CHECK_EQ_INT(result, PLAYCTL_OK);
            if (result == PLAYCTL_OK) {
                rendered++;
                long sum = 0;
                for (int i = 0; i < 160 * 90 * 4; i += 4) sum += pixels[i] + pixels[i + 1] + pixels[i + 2];
                bright += sum > 160 * 90 * 3 * 8; /* not a black picture */
            }
        }
        /* The next video waits prepared, its first frame decoded: it renders too. */
        if (item + 1 < 10 && strstr(names[item + 1], ".jpg") == NULL) {
            prepared_expected++;
            prepared_rendered += playctl_feed_render_sw(feed, (size_t)item + 1, &target, &info) == PLAYCTL_OK;
        }
    }
    CHECK_EQ_INT(rendered, 8);
    if (verbose) printf("  prepared items rendered: %d of %d\n", prepared_rendered, prepared_expected);
    CHECK_EQ_INT(prepared_rendered, prepared_expected);
    CHECK(atomic_load(&feed_wakeups) > 0);
    /* An entry far from the one on screen has no player: no picture. */
    CHECK_EQ_INT(playctl_feed_render_sw(feed, 0, &(playctl_sw_target){.format = PLAYCTL_FORMAT_RGBA, .width = 160,
                                                     .height = 90, .planes = {pixels}, .strides = {160 * 4}},
                                        NULL),
                 PLAYCTL_ERROR_NO_FRAME);
    CHECK_EQ_INT(bright, 8);
    CHECK(log->count > 0);
    CHECK_EQ_INT(log->json_mismatch, 0);
    CHECK_EQ_INT(log->index_mismatch, 0);
    CHECK_EQ_INT(log->failed, 0);
    int videos_with_frame = 0, active = 0, started = 0;
    for (int i = 0; i < 10; i++) {
        active += log->active[i] > 0;
        started += log->started[i] > 0;
        if (strstr(names[i], ".jpg") == NULL) videos_with_frame += log->first_frames[i] > 0;
    }
    CHECK_EQ_INT(active, 10);
    CHECK_EQ_INT(started, 10);
    CHECK_EQ_INT(videos_with_frame, 8);

    int length = playctl_feed_summary(feed, NULL, 0);
    CHECK(length > 100);
    char *summary = malloc((size_t)length + 1);
    CHECK_EQ_INT(playctl_feed_summary(feed, summary, (size_t)length + 1), length);
    CHECK_EQ_INT(strlen(summary), length);
    printf("  %s\n", summary);
    CHECK(strncmp(summary, "{\"event\":\"feed.summary\"", 23) == 0);
    CHECK_EQ_INT(json_number(summary, "swipes"), 10);
    CHECK_EQ_INT(json_number(summary, "activations"), 10);
    CHECK_EQ_INT(json_number(summary, "failures"), 0);
    /* Posters are made for remote entries only (a local file's first frame is at hand: docs/feed.md). */
    CHECK_EQ_INT(log->posters, 0);
    CHECK_EQ_INT(json_number(summary, "postersReady"), log->posters);
    CHECK_NEAR(json_number(summary, "time"), 15.0, 0.01);
    char cut[8];
    CHECK_EQ_INT(playctl_feed_summary(feed, cut, sizeof cut), length);
    CHECK_EQ_INT(strlen(cut), 7);

    /* A host-clock feed cannot be advanced. */
    playctl_feed_config host = {0};
    host.audio = PLAYCTL_AUDIO_NONE;
    playctl_feed *other = playctl_feed_create(urls, NULL, 2, &host);
    CHECK(other != NULL);
    CHECK_EQ_INT(playctl_feed_clock_advance(other, 0.1), PLAYCTL_ERROR_INVALID_STATE);
    playctl_feed_destroy(other);

    playctl_feed_set_wakeup_callback(feed, NULL, NULL);
    playctl_feed_destroy(feed);
    free(summary);
    free(pixels);
    free(log);

    /* An endless feed: two entries, then a page of two more appended while the first plays; the appended ones
     * are numbered after them and play. */
    playctl_feed *paged = playctl_feed_create(urls, NULL, 2, &config);
    CHECK(paged != NULL);
    CHECK_EQ_INT(playctl_feed_append(paged, NULL, NULL, 2), PLAYCTL_ERROR_INVALID_ARGUMENT);
    CHECK_EQ_INT(playctl_feed_append(paged, urls + 2, NULL, 0), PLAYCTL_ERROR_INVALID_ARGUMENT);
    CHECK_EQ_INT(playctl_feed_scroll(paged, 3, 0), PLAYCTL_ERROR_INVALID_ARGUMENT);
    CHECK_EQ_INT(playctl_feed_scroll(paged, 0, 0), PLAYCTL_OK);
    CHECK_EQ_INT(playctl_feed_clock_advance(paged, 0.5), PLAYCTL_OK);
    CHECK_EQ_INT(playctl_feed_append(paged, urls + 2, NULL, 2), PLAYCTL_OK);
    int pages = 0, first_frame_3 = 0;
    for (int item = 1; item < 4; item++) {
        CHECK_EQ_INT(playctl_feed_scroll(paged, (size_t)item, 0), PLAYCTL_OK);
        CHECK_EQ_INT(playctl_feed_clock_advance(paged, 1.0), PLAYCTL_OK);
        for (;;) {
            const playctl_event *event = playctl_feed_wait_event(paged, 0);
            if (event->type == PLAYCTL_EVENT_NONE) break;
            if (event->type != PLAYCTL_EVENT_FEED) continue;
            if (strcmp(event->name, "feed.page") == 0) {
                pages++;
                CHECK_EQ_INT(event->index, 2);
                CHECK(strstr(event->json, "\"count\":2") != NULL);
            }
            if (strcmp(event->name, "feed.firstFrame") == 0 && event->index == 3) first_frame_3++;
        }
    }
    CHECK_EQ_INT(pages, 1);
    CHECK_EQ_INT(first_frame_3, 1);
    playctl_feed_destroy(paged);
}
#else
typedef int feed_tests_need_api_0_2;
#endif
