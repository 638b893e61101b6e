/* Picture in Picture through the C API, on a manual clock shared by two players. */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#include <stdlib.h>

void test_pip(void) {
    event_log *log = calloc(1, sizeof *log);
    playctl_config config = {0};
    config.clock = PLAYCTL_CLOCK_MANUAL;
    config.audio = PLAYCTL_AUDIO_NONE;
    playctl_player *player = playctl_create(&config);
    config.share_clock = player;
    playctl_player *other = playctl_create(&config);
    CHECK(player != NULL && other != NULL);

    /* Before the player shows a frame, PiP cannot start: the failure names the reason. */
    playctl_pip *pip = playctl_pip_create(player, NULL);
    CHECK(pip != NULL);
    CHECK_EQ_INT(playctl_pip_start(pip), PLAYCTL_OK);
    advance(player, 0, 0, log);
    int failed = find_event(log, PLAYCTL_EVENT_PIP_FAILED_TO_START, 0);
    CHECK(failed >= 0);
    if (failed >= 0) {
        CHECK_EQ_INT(log->events[failed].error, PLAYCTL_ERROR_PIP);
        if (verbose) printf("  pip failure: %s\n", log->events[failed].message);
        CHECK(strstr(log->events[failed].message, "not ready for display") != NULL);
        CHECK(log->events[failed].pip == pip);
    }

    /* Playing: possible, then started. */
    log->count = 0;
    CHECK_EQ_INT(playctl_load(player, media("a.mp4"), PLAYCTL_LOAD_REPLACE), PLAYCTL_OK);
    CHECK_EQ_INT(playctl_set_rate(player, 1), PLAYCTL_OK);
    advance(player, 0.2, 0.1, log);
    int possible = find_event(log, PLAYCTL_EVENT_PIP_POSSIBLE, 0);
    CHECK(possible >= 0 && log->events[possible].value == 1);
    CHECK_EQ_INT(playctl_pip_start(pip), PLAYCTL_OK);
    advance(player, 0.2, 0.1, log);
    int will = find_event(log, PLAYCTL_EVENT_PIP_WILL_START, 0);
    int did = find_event(log, PLAYCTL_EVENT_PIP_DID_START, 0);
    CHECK(will >= 0 && did > will);
    CHECK_EQ_INT(playctl_pip_start(pip), PLAYCTL_ERROR_INVALID_STATE); /* already active */
    playctl_pip_state state;
    CHECK_EQ_INT(playctl_pip_get_state(pip, &state), PLAYCTL_OK);
    CHECK_EQ_INT(state.active, 1);
    CHECK_EQ_INT(state.possible, 1);
    CHECK_EQ_INT(state.suspended, 0);
    CHECK(state.frames_shown > 0);
    CHECK(state.player == player);
    CHECK_EQ_INT(playctl_pip_get_state(pip, NULL), PLAYCTL_ERROR_INVALID_ARGUMENT);

    /* A new item in the same player: the window stays open. */
    log->count = 0;
    CHECK_EQ_INT(playctl_pip_swap(pip, NULL, media("b.mp4")), PLAYCTL_OK);
    advance(player, 0.2, 0.1, log);
    int swapped = find_event(log, PLAYCTL_EVENT_PIP_CONTENT_SWAPPED, 0);
    CHECK(swapped >= 0);
    if (swapped >= 0) {
        CHECK(strcmp(log->events[swapped].item, "b.mp4") == 0);
        CHECK_EQ_INT(log->events[swapped].value, 0);
    }
    CHECK(find_event(log, PLAYCTL_EVENT_PIP_WILL_STOP, 0) < 0);

    /* A new player, prepared first (its first frame shown), on the same clock. */
    log->count = 0;
    CHECK_EQ_INT(playctl_load(other, media("c.webm"), PLAYCTL_LOAD_REPLACE), PLAYCTL_OK);
    advance(player, 0, 0, NULL);
    drain(other, NULL);
    CHECK_EQ_INT(playctl_pip_swap(pip, other, NULL), PLAYCTL_OK);
    CHECK_EQ_INT(playctl_pip_swap(pip, other, media("a.mp4")), PLAYCTL_ERROR_INVALID_ARGUMENT);
    CHECK_EQ_INT(playctl_pip_swap(pip, NULL, NULL), PLAYCTL_ERROR_INVALID_ARGUMENT);
    CHECK_EQ_INT(playctl_pip_swap(pip, NULL, media("missing.mp4")), PLAYCTL_ERROR_NOT_FOUND);
    advance(player, 0.1, 0.1, log);
    swapped = find_event(log, PLAYCTL_EVENT_PIP_CONTENT_SWAPPED, 0);
    CHECK(swapped >= 0);
    if (swapped >= 0) {
        CHECK(strcmp(log->events[swapped].item, "c.webm") == 0);
        CHECK_EQ_INT(log->events[swapped].value, 1);
    }
    CHECK_EQ_INT(playctl_pip_get_state(pip, &state), PLAYCTL_OK);
    CHECK(state.player == other);
    CHECK_EQ_INT(state.active, 1);

    /* Stop, then destroy. */
    log->count = 0;
    CHECK_EQ_INT(playctl_pip_stop(pip), PLAYCTL_OK);
    advance(player, 0.1, 0.1, log);
    will = find_event(log, PLAYCTL_EVENT_PIP_WILL_STOP, 0);
    did = find_event(log, PLAYCTL_EVENT_PIP_DID_STOP, 0);
    CHECK(will >= 0 && did > will);
    CHECK_EQ_INT(playctl_pip_get_state(pip, &state), PLAYCTL_OK);
    CHECK_EQ_INT(state.active, 0);
    CHECK_EQ_INT(playctl_pip_stop(pip), PLAYCTL_OK); /* not active: nothing */

    /* Destroying an active session stops it first. */
    log->count = 0;
    CHECK_EQ_INT(playctl_pip_start(pip), PLAYCTL_OK);
    advance(player, 0.1, 0.1, log);
    CHECK(find_event(log, PLAYCTL_EVENT_PIP_DID_START, 0) >= 0);
    playctl_pip_destroy(pip);
    advance(player, 0.1, 0.1, log);
    CHECK(find_event(log, PLAYCTL_EVENT_PIP_DID_STOP, 0) >= 0);
    playctl_destroy(other);
    playctl_destroy(player);
    free(log);
}
