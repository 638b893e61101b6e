/* One player used from two threads at once (every call but wait_event, which one thread makes). */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

enum { SEEKS = 200 };

typedef struct shared {
    playctl_player *player;
    atomic_int done;
    int bad_results;
} shared;

/* Seeks, rates, state reads and renders while the other thread moves the clock and drains events. */
static void *controller(void *argument) {
    shared *s = argument;
    static uint8_t pixels[32 * 18 * 4];
    playctl_sw_target target = {0};
    target.format = PLAYCTL_FORMAT_RGBA;
    target.width = 32;
    target.height = 18;
    target.planes[0] = pixels;
    target.strides[0] = 32 * 4;
    for (int i = 0; i < SEEKS; i++) {
        if (playctl_seek(s->player, (i % 50) * 0.1, i % 2 ? PLAYCTL_SEEK_EXACT : 0, (uint64_t)i + 1) != 0)
            s->bad_results++;
        if (playctl_set_rate(s->player, i % 3 == 0 ? 0 : 1) != 0) s->bad_results++;
        playctl_state state;
        if (playctl_get_state(s->player, &state) != 0 || state.time < 0 || state.time > 6.1) s->bad_results++;
        int rendered = playctl_render_sw(s->player, &target, NULL);
        if (rendered != 0 && rendered != PLAYCTL_ERROR_NO_FRAME) s->bad_results++;
        if (i % 20 == 0) playctl_wakeup(s->player);
    }
    atomic_store(&s->done, 1);
    playctl_wakeup(s->player);
    return NULL;
}

void test_threads(void) {
    playctl_config config = {0};
    config.clock = PLAYCTL_CLOCK_MANUAL;
    shared s = {0};
    s.player = playctl_create(&config);
    CHECK_EQ_INT(playctl_load(s.player, media("a.mp4"), PLAYCTL_LOAD_REPLACE), PLAYCTL_OK);
    CHECK_EQ_INT(playctl_clock_advance(s.player, 0), PLAYCTL_OK);
    event_log *log = calloc(1, sizeof *log);
    pthread_t thread;
    CHECK_EQ_INT(pthread_create(&thread, NULL, controller, &s), 0);
    while (!atomic_load(&s.done)) {
        CHECK_EQ_INT(playctl_clock_advance(s.player, 0.02), PLAYCTL_OK);
        drain(s.player, log);
    }
    pthread_join(thread, NULL);
    CHECK_EQ_INT(playctl_clock_advance(s.player, 0.1), PLAYCTL_OK);
    drain(s.player, log);
    CHECK_EQ_INT(s.bad_results, 0);

    /* Every seek completed exactly once, with its own id; the last one landed. */
    static int completions[SEEKS + 1];
    for (int i = 0; i < log->count; i++) {
        if (log->events[i].type != PLAYCTL_EVENT_SEEK_COMPLETED) continue;
        uint64_t id = log->events[i].request_id;
        CHECK(id >= 1 && id <= SEEKS);
        if (id >= 1 && id <= SEEKS) completions[id]++;
    }
    int once = 1;
    for (int id = 1; id <= SEEKS; id++) once &= completions[id] == 1;
    CHECK(once);
    int last = -1;
    for (int i = 0; i < log->count; i++) {
        if (log->events[i].type == PLAYCTL_EVENT_SEEK_COMPLETED && log->events[i].request_id == SEEKS) last = i;
    }
    CHECK(last >= 0 && log->events[last].finished == 1);

    /* A host-clock player: one thread blocks in wait_event while another drives it; wakeup ends the wait. */
    playctl_player *host = playctl_create(NULL);
    CHECK_EQ_INT(playctl_load(host, media("b.mp4"), PLAYCTL_LOAD_REPLACE), PLAYCTL_OK);
    CHECK_EQ_INT(playctl_set_rate(host, 1), PLAYCTL_OK);
    shared h = {0};
    h.player = host;
    CHECK_EQ_INT(pthread_create(&thread, NULL, controller, &h), 0);
    int events = 0;
    while (!atomic_load(&h.done)) {
        const playctl_event *event = playctl_wait_event(host, -1);
        events += event->type != PLAYCTL_EVENT_NONE;
    }
    pthread_join(thread, NULL);
    /* The load, the rate and the seeks report themselves; the controller may be done before the first arrives. */
    for (int tries = 0; events == 0 && tries < 100; tries++) {
        const playctl_event *event = playctl_wait_event(host, 0.1);
        events += event->type != PLAYCTL_EVENT_NONE;
    }
    CHECK(events > 0);
    CHECK_EQ_INT(h.bad_results, 0);
    playctl_destroy(host);
    playctl_destroy(s.player);
    free(log);
}
