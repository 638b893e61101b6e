/* A player's metric events through the C API (since 0.2): off by default; on, metric.firstFrame and
 * metric.seekDidComplete arrive with their JSON objects; off again, none. */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#if PLAYCTL_API_VERSION_MINOR >= 2
#include <stdlib.h>

typedef struct metric_log {
    int metrics, first_frame, seek_done, json_mismatch;
    double first_frame_latency, seek_latency;
} metric_log;

static void drain_metrics(playctl_player *player, metric_log *log) {
    for (;;) {
        const playctl_event *event = playctl_wait_event(player, 0);
        if (event->type == PLAYCTL_EVENT_NONE) return;
        if (event->type != PLAYCTL_EVENT_METRIC) continue;
        log->metrics++;
        char expected[96];
        snprintf(expected, sizeof expected, "{\"event\":\"%s\"", event->name ? event->name : "?");
        if (event->json == NULL || strncmp(event->json, expected, strlen(expected)) != 0) log->json_mismatch++;
        if (verbose) printf("  %s\n", event->json);
        if (strcmp(event->name, "metric.firstFrame") == 0) {
            log->first_frame++;
            log->first_frame_latency = event->latency;
        }
        if (strcmp(event->name, "metric.seekDidComplete") == 0) {
            log->seek_done++;
            log->seek_latency = event->latency;
        }
    }
}

void test_metrics(void) {
    CHECK_EQ_INT(playctl_set_metric_events(NULL, 1), PLAYCTL_ERROR_INVALID_ARGUMENT);
    playctl_config config = {0};
    config.clock = PLAYCTL_CLOCK_MANUAL;
    config.audio = PLAYCTL_AUDIO_NONE;
    playctl_player *player = playctl_create(&config);
    CHECK_EQ_INT(playctl_set_metric_events(player, 2), PLAYCTL_ERROR_INVALID_ARGUMENT);
    metric_log log = {0};

    /* Off (the default): none. */
    CHECK_EQ_INT(playctl_load(player, media("b.mp4"), PLAYCTL_LOAD_REPLACE), PLAYCTL_OK);
    CHECK_EQ_INT(playctl_set_rate(player, 1), PLAYCTL_OK);
    for (int i = 0; i < 5; i++) {
        CHECK_EQ_INT(playctl_clock_advance(player, 0.1), PLAYCTL_OK);
        drain_metrics(player, &log);
    }
    CHECK_EQ_INT(log.metrics, 0);

    /* On: a new item's first frame, an exact seek. */
    CHECK_EQ_INT(playctl_set_metric_events(player, 1), PLAYCTL_OK);
    CHECK_EQ_INT(playctl_load(player, media("a.mp4"), PLAYCTL_LOAD_REPLACE), PLAYCTL_OK);
    for (int i = 0; i < 5; i++) {
        CHECK_EQ_INT(playctl_clock_advance(player, 0.1), PLAYCTL_OK);
        drain_metrics(player, &log);
    }
    CHECK_EQ_INT(log.first_frame, 1);
    CHECK(log.first_frame_latency >= 0 && log.first_frame_latency < 0.5);
    CHECK_EQ_INT(playctl_seek(player, 3.0, PLAYCTL_SEEK_EXACT, 7), PLAYCTL_OK);
    CHECK_EQ_INT(playctl_clock_advance(player, 0), PLAYCTL_OK);
    drain_metrics(player, &log);
    CHECK_EQ_INT(log.seek_done, 1);
    CHECK(log.seek_latency >= 0);
    CHECK_EQ_INT(log.json_mismatch, 0);

    /* Off again: none. */
    CHECK_EQ_INT(playctl_set_metric_events(player, 0), PLAYCTL_OK);
    int before = log.metrics;
    CHECK_EQ_INT(playctl_seek(player, 1.0, PLAYCTL_SEEK_EXACT, 8), PLAYCTL_OK);
    CHECK_EQ_INT(playctl_clock_advance(player, 0.2), PLAYCTL_OK);
    drain_metrics(player, &log);
    CHECK_EQ_INT(log.metrics, before);
    playctl_destroy(player);
}
#else
typedef int metric_tests_need_api_0_2;
#endif
