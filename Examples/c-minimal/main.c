/* c-minimal: plays a clip on playctl's manual clock, seeks exactly, plays to the end, prints every event, and
 * exits non-zero if anything is off.
 *   cc main.c $(pkg-config --cflags --libs playctl) -o c-minimal && ./c-minimal ../../Media/a.mp4 */
#include <math.h>
#include <playctl.h>
#include <stdio.h>

static int failures = 0;

static void expect(int condition, const char *what) {
    if (!condition) {
        fprintf(stderr, "c-minimal: FAILED: %s\n", what);
        failures++;
    }
}

/* Prints every queued event; returns the last event of type `wanted` seen (its landed time for a seek). */
static int drain(playctl_player *player, int wanted, double *landed) {
    int seen = 0;
    for (;;) {
        const playctl_event *event = playctl_wait_event(player, 0);
        if (event->type == PLAYCTL_EVENT_NONE) return seen;
        printf("%7.3f  %-20s %-8s item %.3f", event->clock_time, playctl_event_name(event->type),
               event->item ? event->item : "", event->time);
        if (event->type == PLAYCTL_EVENT_SEEK_COMPLETED)
            printf("  id %llu finished %d landed %.3f", (unsigned long long)event->request_id, event->finished,
                   event->landed);
        if (event->error) printf("  error %d: %s", event->error, event->message ? event->message : "");
        printf("\n");
        if (event->type == wanted) {
            seen = 1;
            if (landed) *landed = event->finished ? event->landed : NAN;
        }
    }
}

int main(int argc, char **argv) {
    const char *clip = argc > 1 ? argv[1] : "../../Media/a.mp4";
    if ((playctl_api_version() >> 16) != PLAYCTL_API_VERSION_MAJOR) {
        fprintf(stderr, "c-minimal: library API %x, header %x\n", playctl_api_version(), PLAYCTL_API_VERSION);
        return 1;
    }
    playctl_config config = {0};
    config.clock = PLAYCTL_CLOCK_MANUAL; /* time moves only when we say: the same output on every run */
    playctl_player *player = playctl_create(&config);
    if (!player) return 1;
    int result = playctl_load(player, clip, PLAYCTL_LOAD_REPLACE);
    if (result < 0) {
        char message[512];
        playctl_last_error_message(player, message, sizeof message);
        fprintf(stderr, "c-minimal: %s: %s\n", playctl_error_string(result), message);
        playctl_destroy(player);
        return 1;
    }
    playctl_set_rate(player, 1);
    for (int step = 0; step < 10; step++) { /* one second, in 0.1 s steps */
        playctl_clock_advance(player, 0.1);
        drain(player, -1, NULL);
    }
    playctl_state state;
    playctl_get_state(player, &state);
    expect(state.item_status == PLAYCTL_ITEM_READY, "the clip is ready");
    expect(state.time_control_status == PLAYCTL_PLAYING, "the player plays");
    expect(fabs(state.time - 1.0) < 1e-3, "one second played");
    double duration = state.duration;

    double landed = NAN;
    double target = duration > 2 ? duration - 2 : duration / 2;
    playctl_seek(player, target, PLAYCTL_SEEK_EXACT, 1);
    playctl_clock_advance(player, 0);
    expect(drain(player, PLAYCTL_EVENT_SEEK_COMPLETED, &landed), "the seek completed");
    expect(fabs(landed - target) < 1e-6, "the seek landed exactly on its target");

    uint8_t pixels[160 * 90 * 4];
    playctl_sw_target picture = {0};
    picture.format = PLAYCTL_FORMAT_RGBA;
    picture.width = 160;
    picture.height = 90;
    picture.planes[0] = pixels;
    picture.strides[0] = 160 * 4;
    playctl_frame_info info;
    expect(playctl_render_sw(player, &picture, &info) == PLAYCTL_OK, "the frame on screen renders");
    expect(info.time <= target + 1e-6 && info.time > target - 0.1, "the frame shown is the one at the target");

    int ended = 0;
    for (int step = 0; step < 40 && !ended; step++) {
        playctl_clock_advance(player, 0.1);
        ended = drain(player, PLAYCTL_EVENT_PLAYED_TO_END, NULL);
    }
    expect(ended, "the clip played to its end");
    playctl_get_state(player, &state);
    expect(fabs(state.time - duration) < 0.05, "the playhead is at the end");
    printf("c-minimal: %s, %.3f s, seek landed at %.3f, %llu frames shown: %s\n", clip, duration, landed,
           (unsigned long long)state.frames_rendered, failures ? "FAILED" : "ok");
    playctl_destroy(player);
    return failures ? 1 : 0;
}
