/* PLAYCTL_AUDIO_PULSE against the PulseAudio daemon the suite runs with (scripts/pulse.sh: PULSE_SERVER). */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#include <math.h>
#include <stdlib.h>

/* Plays a.mp4 aloud for a second and a half: the device is reported, the state says so, avsync is small; the
 * volume and mute are kept. A sink that does not exist: the event carries the error and playback goes on. */
void test_pulse(void) {
    if (getenv("PULSE_SERVER") == NULL) {
        fprintf(stderr, "  no PulseAudio server (PULSE_SERVER is not set): run the tests through scripts/test.sh, "
                        "or scripts/pulse.sh run\n");
        CHECK(getenv("PULSE_SERVER") != NULL);
        return;
    }
    event_log *log = calloc(1, sizeof *log);
    playctl_config config = {0};
    config.audio = PLAYCTL_AUDIO_PULSE;
    playctl_player *player = playctl_create(&config);
    CHECK(player != NULL);
    /* The output in use is reported at the first item's load. */
    CHECK_EQ_INT(playctl_load(player, media("a.mp4"), PLAYCTL_LOAD_REPLACE), PLAYCTL_OK);
    int found = wait_for(player, log, PLAYCTL_EVENT_AUDIO_DEVICE, 5);
    CHECK(found >= 0);
    if (found >= 0) {
        CHECK_EQ_INT(log->events[found].value, PLAYCTL_AUDIO_PULSE);
        CHECK_EQ_INT(log->events[found].error, PLAYCTL_OK);
    }
    CHECK_EQ_INT(playctl_set_volume(player, 0.5), PLAYCTL_OK);
    CHECK_EQ_INT(playctl_set_rate(player, 1), PLAYCTL_OK);
    CHECK(find_event(log, PLAYCTL_EVENT_FIRST_FRAME, 0) >= 0 || wait_for(player, log, PLAYCTL_EVENT_FIRST_FRAME, 10) >= 0);
    playctl_state state;
    /* Past start-up (a new stream on a null sink may start up to a second late). */
    double start = now_seconds();
    do {
        playctl_wait_event(player, 0.05);
        CHECK_EQ_INT(playctl_get_state(player, &state), PLAYCTL_OK);
    } while (state.time < 2.0 && now_seconds() - start < 5);
    CHECK(state.time >= 2.0);
    CHECK_EQ_INT(state.audio_output, PLAYCTL_AUDIO_PULSE);
    CHECK(fabs(state.avsync) < 0.045);
    CHECK_NEAR(state.volume, 0.5, 1e-6);
    CHECK_EQ_INT(playctl_set_muted(player, 1), PLAYCTL_OK);
    CHECK_EQ_INT(playctl_get_state(player, &state), PLAYCTL_OK);
    CHECK_EQ_INT(state.muted, 1);
    if (verbose) printf("  pulse: time %.3f avsync %.4f\n", state.time, state.avsync);
    playctl_destroy(player); /* while playing */

    log->count = 0;
    config.audio_device = "playctl_no_such_sink";
    player = playctl_create(&config);
    CHECK_EQ_INT(playctl_load(player, media("b.mp4"), PLAYCTL_LOAD_REPLACE), PLAYCTL_OK);
    CHECK_EQ_INT(playctl_set_rate(player, 1), PLAYCTL_OK);
    found = wait_for(player, log, PLAYCTL_EVENT_AUDIO_DEVICE, 5);
    CHECK(found >= 0);
    if (found >= 0) {
        CHECK_EQ_INT(log->events[found].value, PLAYCTL_AUDIO_NULL);
        CHECK_EQ_INT(log->events[found].error, PLAYCTL_ERROR_AUDIO_DEVICE);
        CHECK(strstr(log->events[found].message, "playctl_no_such_sink") != NULL);
    }
    CHECK(wait_for(player, log, PLAYCTL_EVENT_PLAYED_TO_END, 10) >= 0);
    CHECK_EQ_INT(playctl_get_state(player, &state), PLAYCTL_OK);
    CHECK_EQ_INT(state.audio_output, PLAYCTL_AUDIO_NULL);
    playctl_destroy(player);
    free(log);
}
