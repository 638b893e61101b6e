/* A tiny check harness for the C API tests: CHECK counts and reports, helpers drain and record events. */
#ifndef PLAYCTL_TEST_CHECK_H
#define PLAYCTL_TEST_CHECK_H

#include <playctl.h>
#include <stdio.h>
#include <string.h>

extern int checks_passed, checks_failed;

#define CHECK(cond)                                                                            \
    do {                                                                                       \
        if (cond) {                                                                            \
            checks_passed++;                                                                   \
        } else {                                                                               \
            checks_failed++;                                                                   \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);          \
        }                                                                                      \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                                     \
    do {                                                                                       \
        long long va_ = (long long)(a), vb_ = (long long)(b);                                  \
        if (va_ == vb_) {                                                                      \
            checks_passed++;                                                                   \
        } else {                                                                               \
            checks_failed++;                                                                   \
            fprintf(stderr, "%s:%d: CHECK failed: %s == %s (%lld != %lld)\n", __FILE__, __LINE__, #a, #b, \
                    va_, vb_);                                                                 \
        }                                                                                      \
    } while (0)

#define CHECK_NEAR(a, b, tolerance)                                                            \
    do {                                                                                       \
        double va_ = (a), vb_ = (b);                                                           \
        if (va_ - vb_ <= (tolerance) && vb_ - va_ <= (tolerance)) {                            \
            checks_passed++;                                                                   \
        } else {                                                                               \
            checks_failed++;                                                                   \
            fprintf(stderr, "%s:%d: CHECK failed: %s ~ %s (%.6f vs %.6f)\n", __FILE__, __LINE__, #a, #b, va_, \
                    vb_);                                                                      \
        }                                                                                      \
    } while (0)

/* A copy of an event (the library's is valid only until the next wait). */
typedef struct recorded_event {
    int type, error, item_status, time_control_status, finished;
    uint64_t request_id;
    double time, landed, duration, rate;
    int64_t value;
    char item[64];
    char message[256];
    playctl_pip *pip;
} recorded_event;

typedef struct event_log {
    recorded_event events[4096];
    int count;
} event_log;

/* Drains every queued event of player into log (printing each when verbose). Returns how many. */
int drain(playctl_player *player, event_log *log);
/* Waits (the host or untimed clock) up to timeout seconds for an event of type, recording every event; returns
 * its index in log, or -1. */
int wait_for(playctl_player *player, event_log *log, int type, double timeout);
/* Seconds of the monotonic clock. */
double now_seconds(void);
/* The index of the first event of type in log at or after from, or -1. */
int find_event(const event_log *log, int type, int from);
/* How many events of type log holds. */
int count_events(const event_log *log, int type);
/* Advances the manual clock by seconds in steps of step, draining after each. */
void advance(playctl_player *player, double seconds, double step, event_log *log);

extern int verbose;
extern const char *media_dir;
/* media_dir + "/" + name, in a static buffer per call slot (4 slots). */
const char *media(const char *name);

void test_library(void);
void test_bad_arguments(void);
void test_manual_playback(void);
void test_render(void);
void test_queue_and_end(void);
void test_other_clocks(void);
void test_pip(void);
void test_threads(void);
void test_pulse(void);
#if PLAYCTL_API_VERSION_MINOR >= 2
void test_metrics(void);
void test_feed(void);
void test_posters(void);
#endif
#if PLAYCTL_API_VERSION_MINOR >= 3
void test_feed_entries(void);
#endif

#endif
