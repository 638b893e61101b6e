/* Feed entries with their full fields (since 0.3), over nginx (scripts/netns.sh; skipped without it): renditions
 * (the 360p copy chosen on a cellular link that excludes the other), poster pictures, headers, a declared size over
 * the cellular cap (capped, its poster alone fetched, played on playctl_feed_play), a size learned with a HEAD, and
 * the summary's capped and probe counts. Host clock: every wait has a deadline. */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#if PLAYCTL_API_VERSION_MINOR >= 3
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct entries_log {
    int rendition_value, rendition_width, rendition_height, rendition_360p, posters[4], first_frames[4];
    int64_t capped_bytes, sized_bytes;
    int capped, sized, failed, pages;
} entries_log;

static void drain_entries(playctl_feed *feed, entries_log *log, double timeout) {
    for (const playctl_event *event = playctl_feed_wait_event(feed, timeout); event->type != PLAYCTL_EVENT_NONE;
         event = playctl_feed_wait_event(feed, 0)) {
        if (event->type != PLAYCTL_EVENT_FEED) continue;
        if (verbose) printf("  %s\n", event->json);
        int at = event->index >= 0 && event->index < 4 ? (int)event->index : -1;
        if (strcmp(event->name, "feed.rendition") == 0 && at == 0) {
            log->rendition_value = (int)event->value;
            log->rendition_width = event->width;
            log->rendition_height = event->height;
            log->rendition_360p = strstr(event->json, "a-360p.mp4") != NULL;
        }
        if (strcmp(event->name, "feed.poster") == 0 && at >= 0) log->posters[at]++;
        if (strcmp(event->name, "feed.firstFrame") == 0 && at >= 0) log->first_frames[at]++;
        if (strcmp(event->name, "feed.capped") == 0 && at == 1) {
            log->capped++;
            log->capped_bytes = event->value;
        }
        if (strcmp(event->name, "feed.sized") == 0 && at == 2) {
            log->sized++;
            log->sized_bytes = event->value;
        }
        if (strcmp(event->name, "feed.failed") == 0) log->failed++;
        if (strcmp(event->name, "feed.page") == 0) log->pages++;
    }
}

/* Drains until cond holds, 30 s at most (a hang detector); reports what it waited for when it never came. */
#define WAIT_FOR(feed, log, cond, what)                                                                     \
    do {                                                                                                    \
        double deadline_ = now_seconds() + 30;                                                              \
        while (!(cond) && now_seconds() < deadline_) drain_entries(feed, log, 0.1);                         \
        if (!(cond)) fprintf(stderr, "feed_entries: waited 30 s for %s\n", what);                          \
        CHECK(cond);                                                                                        \
    } while (0)

/* How many lines of nginx's access log contain text. */
static int logged(const char *text) {
    const char *path = getenv("PLAYCTL_HTTP_LOG");
    FILE *file = path ? fopen(path, "r") : NULL;
    if (file == NULL) return -1;
    char line[4096];
    int count = 0;
    while (fgets(line, sizeof line, file)) count += strstr(line, text) != NULL;
    fclose(file);
    return count;
}

static double summary_number(playctl_feed *feed, const char *key) {
    char summary[8192], pattern[64];
    playctl_feed_summary(feed, summary, sizeof summary);
    snprintf(pattern, sizeof pattern, "\"%s\":", key);
    const char *at = strstr(summary, pattern);
    return at ? strtod(at + strlen(pattern), NULL) : -1;
}

void test_feed_entries(void) {
    /* Bad entries make no feed. */
    playctl_feed_config config = {0};
    playctl_feed_entry bad = {0};
    CHECK(playctl_feed_create_entries(&bad, 1, &config) == NULL); /* no URL, no rendition */
    bad.url = media("a.mp4");
    const char *no_colon[1] = {"X-Test yes"};
    bad.headers = no_colon;
    bad.header_count = 1;
    CHECK(playctl_feed_create_entries(&bad, 1, &config) == NULL);
    bad.header_count = 0;
    playctl_feed_rendition zero_rate = {0};
    zero_rate.url = media("a.mp4");
    bad.renditions = &zero_rate;
    bad.rendition_count = 1;
    CHECK(playctl_feed_create_entries(&bad, 1, &config) == NULL);
    bad.rendition_count = 0;
    bad.reserved[0] = &bad;
    CHECK(playctl_feed_create_entries(&bad, 1, &config) == NULL);
    bad.reserved[0] = NULL;
    bad.kind = 5;
    CHECK(playctl_feed_create_entries(&bad, 1, &config) == NULL);
    CHECK(playctl_feed_create_entries(NULL, 1, &config) == NULL);
    CHECK_EQ_INT(playctl_feed_play(NULL, 0), PLAYCTL_ERROR_INVALID_ARGUMENT);
    CHECK_EQ_INT(playctl_feed_append_entries(NULL, &bad, 1), PLAYCTL_ERROR_INVALID_ARGUMENT);

    const char *http = getenv("PLAYCTL_HTTP"), *root = getenv("PLAYCTL_HTTP_ROOT");
    if (http == NULL || root == NULL || getenv("PLAYCTL_HTTP_LOG") == NULL) {
        printf("  feed entries over HTTP: skipped (no PLAYCTL_HTTP: run inside scripts/netns.sh)\n");
        return;
    }
    char path[4096];
    struct stat b_file;
    snprintf(path, sizeof path, "%s/b.mp4", root);
    CHECK(stat(path, &b_file) == 0);
    char marker[64];
    snprintf(marker, sizeof marker, "capi-entries-%ld-%ld", (long)getpid(), (long)now_seconds());
    static char urls[10][512];
    snprintf(urls[0], sizeof urls[0], "%s:18000/renditions/a-360p.mp4?%s-0", http, marker);
    snprintf(urls[1], sizeof urls[1], "%s:18000/renditions/a-720p.mp4?%s-0", http, marker);
    snprintf(urls[2], sizeof urls[2], "%s:18000/a.mp4?%s-1", http, marker);
    snprintf(urls[3], sizeof urls[3], "%s:18000/b.mp4?%s-2", http, marker);
    snprintf(urls[4], sizeof urls[4], "%s:18000/still.jpg?%s-3", http, marker);
    for (int i = 0; i < 3; i++) snprintf(urls[5 + i], sizeof urls[5], "%s:18000/still.jpg?%s-poster-%d", http, marker, i);
    snprintf(urls[8], sizeof urls[8], "%s:18000/b.mp4?%s-4", http, marker);

    /* The 720p copy declares 50 Mbit/s: a cellular link's 2 Mbit/s cap leaves the 360p one. */
    playctl_feed_rendition renditions[2] = {{0}, {0}};
    renditions[0].url = urls[0];
    renditions[0].bitrate = 630000;
    renditions[0].width = 640;
    renditions[0].height = 360;
    renditions[1].url = urls[1];
    renditions[1].bitrate = 50000000;
    renditions[1].width = 1280;
    renditions[1].height = 720;
    const char *headers[2] = {"X-Playctl-Test: entries", "Accept-Language: en"};
    playctl_feed_entry entries[4];
    memset(entries, 0, sizeof entries);
    entries[0].renditions = renditions; /* url NULL: the first rendition's */
    entries[0].rendition_count = 2;
    entries[0].duration = 10; /* 630 kbit/s for 10 s: under the cap, no probe */
    entries[0].poster = urls[5];
    entries[0].headers = headers;
    entries[0].header_count = 2;
    entries[1].url = urls[2];
    entries[1].byte_size = (int64_t)40 << 20; /* over the cellular cap (20 MiB) */
    entries[1].poster = urls[6];
    entries[2].url = urls[3]; /* no size: learned with a HEAD */
    entries[2].poster = urls[7];
    entries[3].url = urls[4];
    entries[3].kind = PLAYCTL_FEED_IMAGE;

    config.audio = PLAYCTL_AUDIO_NONE;
    config.network = PLAYCTL_NETWORK_CELLULAR;
    config.poster_width = 96;
    config.poster_height = 96;
    playctl_feed *feed = playctl_feed_create_entries(entries, 4, &config);
    CHECK(feed != NULL);
    if (feed == NULL) return;
    entries_log *log = calloc(1, sizeof *log);
    CHECK_EQ_INT(playctl_feed_play(feed, 4), PLAYCTL_ERROR_INVALID_ARGUMENT);
    CHECK_EQ_INT(playctl_feed_scroll(feed, 0, 0), PLAYCTL_OK);
    WAIT_FOR(feed, log, log->first_frames[0] > 0 && log->sized > 0, "item 0's first frame and item 2's size");
    CHECK_EQ_INT(log->rendition_value, 630000);
    CHECK_EQ_INT(log->rendition_width, 640);
    CHECK_EQ_INT(log->rendition_height, 360);
    CHECK(log->rendition_360p);
    CHECK_EQ_INT(log->sized_bytes, b_file.st_size);

    /* The heavy item on screen: capped, its poster picture fetched, not one request for its video. */
    CHECK_EQ_INT(playctl_feed_scroll(feed, 1, 1), PLAYCTL_OK);
    WAIT_FOR(feed, log, log->capped > 0 && log->posters[1] > 0, "feed.capped and feed.poster of item 1");
    CHECK_EQ_INT(log->capped_bytes, (int64_t)40 << 20);
    CHECK_EQ_INT(log->first_frames[1], 0);
    char request[128];
    snprintf(request, sizeof request, "still.jpg?%s-poster-1 ", marker);
    CHECK(logged(request) >= 1);
    snprintf(request, sizeof request, "a.mp4?%s-1 ", marker);
    CHECK_EQ_INT(logged(request), 0);
    CHECK_EQ_INT(summary_number(feed, "cappedItems"), 1);
    CHECK_EQ_INT(summary_number(feed, "cappedItemsTapped"), 0);
    /* The tap: it loads and plays. */
    CHECK_EQ_INT(playctl_feed_play(feed, 1), PLAYCTL_OK);
    WAIT_FOR(feed, log, log->first_frames[1] > 0, "item 1's first frame after the tap");
    /* nginx logs a response when it ends: its video's, read by its player. */
    double deadline = now_seconds() + 30;
    while (logged(request) < 1 && now_seconds() < deadline) drain_entries(feed, log, 0.1);
    CHECK(logged(request) >= 1);
    CHECK_EQ_INT(summary_number(feed, "cappedItemsTapped"), 1);
    CHECK_EQ_INT(summary_number(feed, "sizeProbes"), 1);
    CHECK_EQ_INT(summary_number(feed, "sizeProbeFailures"), 0);
    /* One HEAD, for item 2; never a byte of the 720p copy. */
    snprintf(request, sizeof request, "\"HEAD /b.mp4?%s-2 ", marker);
    CHECK_EQ_INT(logged(request), 1);
    snprintf(request, sizeof request, "a-720p.mp4?%s", marker);
    CHECK_EQ_INT(logged(request), 0);

    /* A page of entries appended. */
    playctl_feed_entry more = {0};
    more.url = urls[8];
    more.byte_size = 41461;
    CHECK_EQ_INT(playctl_feed_append_entries(feed, &more, 1), PLAYCTL_OK);
    WAIT_FOR(feed, log, log->pages > 0, "feed.page");
    CHECK_EQ_INT(log->failed, 0);
    playctl_feed_destroy(feed);
    free(log);
}
#else
typedef int feed_entries_tests_need_api_0_3;
#endif
