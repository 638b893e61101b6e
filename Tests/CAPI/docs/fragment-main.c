/* The program around a C example of docs/c-api.md that is not a whole program (scripts/test-capi.sh): the example
 * is included in main()'s body, with a player on the manual clock that has shown Media/a.mp4 up to 1 s (`player`),
 * and the app's functions the examples call (`handle`, `upload`, `show`) printing what they got. Run from the
 * repository's root. */
#include <playctl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void handle(const playctl_event *event) { printf("handled %s\n", playctl_event_name(event->type)); }

static void upload(const uint8_t *pixels) { printf("uploaded a frame, first pixel %u %u %u\n", pixels[0], pixels[1], pixels[2]); }

static void show(const uint8_t *rgba, int width, int height) {
    printf("showed a %dx%d poster, first pixel %u %u %u %u\n", width, height, rgba[0], rgba[1], rgba[2], rgba[3]);
}

int main(void) {
    playctl_config player_config = {0};
    player_config.clock = PLAYCTL_CLOCK_MANUAL;
    playctl_player *player = playctl_create(&player_config);
    if (player == NULL || playctl_load(player, "Media/a.mp4", PLAYCTL_LOAD_REPLACE) < 0) return 1;
    playctl_set_rate(player, 1);
    playctl_clock_advance(player, 1.0);
    (void)handle;
    (void)upload;
    (void)show;
    {
#include EXAMPLE
    }
    playctl_destroy(player);
    return 0;
}
