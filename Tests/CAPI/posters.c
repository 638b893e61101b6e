/* Posters through the C API (since 0.2): a.mp4's first frame as RGBA against ffmpeg's scale of it, a missing
 * file, a cancelled request, the bound on ready posters. */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#if PLAYCTL_API_VERSION_MINOR >= 2
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* Waits up to timeout seconds for the event of request id; fills *out; returns 1 when found. */
static int wait_poster(playctl_posters *posters, uint64_t id, recorded_event *out, double timeout) {
    double deadline = now_seconds() + timeout;
    while (now_seconds() < deadline) {
        const playctl_event *event = playctl_posters_wait_event(posters, deadline - now_seconds());
        if (event->type != PLAYCTL_EVENT_POSTER || event->request_id != id) continue;
        memset(out, 0, sizeof *out);
        out->type = event->type;
        out->error = event->error;
        out->request_id = event->request_id;
        out->value = (int64_t)event->width << 32 | (uint32_t)event->height;
        if (event->message) snprintf(out->message, sizeof out->message, "%s", event->message);
        if (verbose) printf("  poster %llu: error %d %dx%d %s\n", (unsigned long long)id, event->error,
                            event->width, event->height, event->message ? event->message : "");
        return 1;
    }
    return 0;
}

void test_posters(void) {
    CHECK(playctl_posters_create(&(playctl_posters_config){.max_concurrent_decodes = 99}) == NULL);
    CHECK_EQ_INT(playctl_posters_request(NULL, NULL, 1), PLAYCTL_ERROR_INVALID_ARGUMENT);
    CHECK_EQ_INT(playctl_posters_result(NULL, 1, NULL, 0, NULL), PLAYCTL_ERROR_INVALID_ARGUMENT);
    playctl_posters_destroy(NULL);
    playctl_posters_config config = {0};
    config.max_results = 2;
    playctl_posters *posters = playctl_posters_create(&config);
    CHECK(posters != NULL);
    if (posters == NULL) return;

    /* a.mp4 (640x360) into 160x160, fitted: 160x90. */
    playctl_poster_request request = {0};
    request.source = media("a.mp4");
    request.width = 160;
    request.height = 160;
    CHECK_EQ_INT(playctl_posters_request(posters, &request, 1), PLAYCTL_OK);
    CHECK_EQ_INT(playctl_posters_request(posters, &request, 1), PLAYCTL_ERROR_INVALID_STATE); /* in flight */
    recorded_event event;
    CHECK(wait_poster(posters, 1, &event, 20));
    CHECK_EQ_INT(event.error, 0);
    CHECK_EQ_INT(event.value, (int64_t)160 << 32 | 90);
    playctl_poster_info info;
    CHECK_EQ_INT(playctl_posters_result(posters, 1, NULL, 0, &info), PLAYCTL_OK);
    CHECK_EQ_INT(info.width, 160);
    CHECK_EQ_INT(info.height, 90);
    CHECK_EQ_INT(info.source_width, 640);
    CHECK_EQ_INT(info.source_height, 360);
    size_t size = (size_t)info.width * (size_t)info.height * 4;
    uint8_t *pixels = malloc(size);
    CHECK_EQ_INT(playctl_posters_result(posters, 1, pixels, size - 1, NULL), PLAYCTL_ERROR_INVALID_ARGUMENT);
    CHECK_EQ_INT(playctl_posters_result(posters, 1, pixels, size, &info), PLAYCTL_OK);
    CHECK_EQ_INT(playctl_posters_result(posters, 1, pixels, size, NULL), PLAYCTL_ERROR_INVALID_STATE); /* taken */

    /* Against ffmpeg's own scale of the first frame: the mean difference of R, G, B is small (the scalers differ
     * in their filters), and the picture is not black. */
    char command[4200];
    snprintf(command, sizeof command,
             "ffmpeg -v error -i '%s' -frames:v 1 -vf scale=160:90 -pix_fmt rgba -f rawvideo -", media("a.mp4"));
    FILE *pipe = popen(command, "r");
    uint8_t *reference = malloc(size);
    size_t read = pipe ? fread(reference, 1, size, pipe) : 0;
    if (pipe) pclose(pipe);
    CHECK_EQ_INT(read, size);
    if (read == size) {
        double difference = 0, brightness = 0;
        int opaque = 1;
        for (size_t i = 0; i < size; i += 4) {
            for (int c = 0; c < 3; c++) {
                difference += abs((int)pixels[i + c] - (int)reference[i + c]);
                brightness += pixels[i + c];
            }
            opaque &= pixels[i + 3] == 255;
        }
        difference /= (double)(size / 4 * 3);
        brightness /= (double)(size / 4 * 3);
        printf("  poster a.mp4 160x90: mean |difference| from ffmpeg's scale %.2f, mean level %.1f\n", difference,
               brightness);
        CHECK(difference < 4.0);
        CHECK(brightness > 16.0);
        CHECK(opaque);
    }
    free(reference);
    free(pixels);

    /* A missing file: the event names it. */
    request.source = media("missing.mp4");
    CHECK_EQ_INT(playctl_posters_request(posters, &request, 2), PLAYCTL_OK);
    CHECK(wait_poster(posters, 2, &event, 20));
    CHECK_EQ_INT(event.error, PLAYCTL_ERROR_NOT_FOUND);
    CHECK(strstr(event.message, "missing.mp4") != NULL);
    CHECK_EQ_INT(playctl_posters_result(posters, 2, NULL, 0, NULL), PLAYCTL_ERROR_INVALID_STATE);

    /* Cancelled: a source that never delivers a byte (a FIFO nobody writes) cannot end before the cancel; the
     * request's one event says CANCELLED. The FIFO is then opened and closed, so the blocked read ends. */
    char fifo[64];
    snprintf(fifo, sizeof fifo, "/tmp/playctl-capi-fifo-%d.mp4", (int)getpid());
    unlink(fifo);
    CHECK_EQ_INT(mkfifo(fifo, 0600), 0);
    request.source = fifo;
    CHECK_EQ_INT(playctl_posters_request(posters, &request, 3), PLAYCTL_OK);
    CHECK(!wait_poster(posters, 3, &event, 0.3)); /* waiting for bytes */
    CHECK_EQ_INT(playctl_posters_cancel(posters, 3), PLAYCTL_OK);
    CHECK(wait_poster(posters, 3, &event, 5));
    CHECK_EQ_INT(event.error, PLAYCTL_ERROR_CANCELLED);
    CHECK_EQ_INT(playctl_posters_cancel(posters, 3), PLAYCTL_ERROR_INVALID_STATE); /* not in flight */
    CHECK_EQ_INT(playctl_posters_cancel(posters, 99), PLAYCTL_ERROR_INVALID_STATE);
    CHECK(!wait_poster(posters, 3, &event, 0.2)); /* once */
    CHECK_EQ_INT(playctl_posters_result(posters, 3, NULL, 0, NULL), PLAYCTL_ERROR_INVALID_STATE);
    int writer = open(fifo, O_WRONLY | O_NONBLOCK);
    if (writer >= 0) close(writer);
    unlink(fifo);

    /* max_results 2: of three ready posters not taken, the oldest is dropped. */
    const char *sources[3] = {"a.mp4", "c.webm", "still.jpg"};
    int ready = 0;
    for (int i = 0; i < 3; i++) {
        request.source = media(sources[i]);
        request.time = 0;
        request.width = request.height = 64;
        CHECK_EQ_INT(playctl_posters_request(posters, &request, 10 + (uint64_t)i), PLAYCTL_OK);
        CHECK(wait_poster(posters, 10 + (uint64_t)i, &event, 20));
        CHECK_EQ_INT(event.error, 0);
    }
    for (int i = 0; i < 3; i++) ready += playctl_posters_result(posters, 10 + (uint64_t)i, NULL, 0, NULL) == 0;
    CHECK_EQ_INT(ready, 2);
    CHECK_EQ_INT(playctl_posters_result(posters, 10, NULL, 0, NULL), PLAYCTL_ERROR_INVALID_STATE);
    playctl_posters_destroy(posters);
}
#else
typedef int poster_tests_need_api_0_2;
#endif
