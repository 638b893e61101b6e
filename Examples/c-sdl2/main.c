/* c-sdl2: a video player window over playctl's C API and SDL2. The video in an SDL window, the sound through
 * PulseAudio (the library falls back to its null output, and says so, when there is no sound server), space
 * pauses and resumes, left and right seek 5 s, p toggles a small Picture in Picture window showing a second
 * player, q or Escape quits.
 *   cc main.c $(pkg-config --cflags --libs playctl sdl2) -o c-sdl2 && ./c-sdl2 ../../Media/a.mp4
 *
 * The library's threads never touch SDL: the wakeup and frame callbacks only push an SDL user event
 * (SDL_PushEvent is thread-safe), and the main thread drains playctl's events and renders there.
 *
 * --control reads commands from standard input, one a line, and answers on standard output (what CI uses under
 * Xvfb to take a screenshot of a known frame):
 *   seek SECONDS     pause and seek exactly; prints "shown TIME window X Y W H" once that frame is on screen
 *   key space|left|right|p|q  a key press (an SDL_KEYDOWN event through SDL's queue)
 *   pip-seek SECONDS pause the PiP player and seek it exactly; prints "pip-shown TIME window X Y W H"
 *   state            prints "state time T rate R status S pip P"
 *   quit
 * Options: --size WxH (the window's size; default the video's, at most 960 wide), --pip-clip PATH (default the
 * clip), --audio pulse|null (default pulse). */
#include <SDL.h>
#include <playctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAIN = 0, PIP = 1 }; /* the two players: the window's and the PiP window's */

typedef struct view {
    SDL_Window *window;
    SDL_Renderer *renderer;
    SDL_Texture *texture;
    int texture_width, texture_height;
    SDL_Rect picture; /* where the picture goes in the window (letterboxed, aspect kept) */
} view;

typedef struct app {
    playctl_player *players[2];
    playctl_pip *pip;
    int pip_wanted;       /* p pressed: start the session once the PiP player shows its first frame */
    int pip_active;       /* between PIP_DID_START and PIP_DID_STOP */
    view views[2];
    Uint32 wakeup_event;  /* SDL user event types: code is MAIN or PIP */
    Uint32 frame_event;
    Uint32 command_event; /* --control: data1 is a line (malloc'd) */
    SDL_atomic_t frame_pending[2]; /* coalesces frame callbacks: at most one frame event queued per player */
    const char *clip, *pip_clip;
    int audio;
    int width, height;    /* --size, or 0 */
    uint64_t next_id;
    uint64_t awaited_seek[2]; /* --control: the seek whose frame we report once shown (0: none) */
    double awaited_time[2];
    int awaited_landed[2];
    int quit;
} app;

static app the_app;

/* ---- Callbacks from playctl's threads: signal the main loop, nothing else ---- */

static void push_user_event(Uint32 type, int code) {
    SDL_Event event;
    SDL_zero(event);
    event.type = type;
    event.user.code = code;
    SDL_PushEvent(&event);
}

static void on_wakeup(void *context) { push_user_event(the_app.wakeup_event, (int)(intptr_t)context); }

static void on_frame(void *context) {
    int which = (int)(intptr_t)context;
    if (SDL_AtomicCAS(&the_app.frame_pending[which], 0, 1)) push_user_event(the_app.frame_event, which);
}

/* ---- Drawing ---- */

/* (Without libm: the one-line build links playctl and SDL only.) */
static int round_int(double x) { return (int)(x + 0.5); }
static double distance(double x, double y) { return x > y ? x - y : y - x; }

static int open_view(view *v, const char *title, int x, int y, int width, int height, Uint32 flags) {
    v->window = SDL_CreateWindow(title, x, y, width, height, flags);
    if (!v->window) {
        fprintf(stderr, "c-sdl2: SDL_CreateWindow: %s\n", SDL_GetError());
        return -1;
    }
    v->renderer = SDL_CreateRenderer(v->window, -1, 0);
    if (!v->renderer) v->renderer = SDL_CreateRenderer(v->window, -1, SDL_RENDERER_SOFTWARE);
    if (!v->renderer) {
        fprintf(stderr, "c-sdl2: SDL_CreateRenderer: %s\n", SDL_GetError());
        return -1;
    }
    return 0;
}

static void close_view(view *v) {
    if (v->texture) SDL_DestroyTexture(v->texture);
    if (v->renderer) SDL_DestroyRenderer(v->renderer);
    if (v->window) SDL_DestroyWindow(v->window);
    memset(v, 0, sizeof *v);
}

/* Renders the player's frame on screen into the view at the window's own pixel size (no scaling by SDL: playctl
 * scales once, with libswscale) and presents it. Returns playctl_render_sw's result. */
static int draw(view *v, playctl_player *player, playctl_frame_info *info) {
    if (!v->window || !player) return PLAYCTL_ERROR_INVALID_STATE;
    playctl_state state;
    playctl_get_state(player, &state);
    int out_w, out_h;
    SDL_GetRendererOutputSize(v->renderer, &out_w, &out_h);
    int w = out_w, h = out_h;
    if (state.width > 0 && state.height > 0) { /* fit the picture, aspect kept */
        if ((double)out_w / out_h > (double)state.width / state.height)
            w = round_int((double)out_h * state.width / state.height);
        else
            h = round_int((double)out_w * state.height / state.width);
    }
    w += w & 1; /* I420 wants even sizes */
    h += h & 1;
    if (w > out_w) w = out_w & ~1;
    if (h > out_h) h = out_h & ~1;
    if (w <= 0 || h <= 0) return PLAYCTL_ERROR_INVALID_STATE;
    if (!v->texture || v->texture_width != w || v->texture_height != h) {
        if (v->texture) SDL_DestroyTexture(v->texture);
        v->texture = SDL_CreateTexture(v->renderer, SDL_PIXELFORMAT_IYUV, SDL_TEXTUREACCESS_STREAMING, w, h);
        if (!v->texture) {
            fprintf(stderr, "c-sdl2: SDL_CreateTexture: %s\n", SDL_GetError());
            return PLAYCTL_ERROR_OTHER;
        }
        v->texture_width = w;
        v->texture_height = h;
    }
    v->picture.x = (out_w - w) / 2;
    v->picture.y = (out_h - h) / 2;
    v->picture.w = w;
    v->picture.h = h;

    /* SDL's IYUV texture is playctl's I420: Y, then U, then V, each plane right after the one before. */
    void *pixels;
    int pitch;
    if (SDL_LockTexture(v->texture, NULL, &pixels, &pitch) < 0) return PLAYCTL_ERROR_OTHER;
    playctl_sw_target target = {0};
    target.format = PLAYCTL_FORMAT_I420;
    target.width = w;
    target.height = h;
    target.planes[0] = pixels;
    target.strides[0] = pitch;
    target.planes[1] = target.planes[0] + (size_t)pitch * h;
    target.strides[1] = pitch / 2;
    target.planes[2] = target.planes[1] + (size_t)(pitch / 2) * (h / 2);
    target.strides[2] = pitch / 2;
    int result = playctl_render_sw(player, &target, info);
    SDL_UnlockTexture(v->texture);
    SDL_SetRenderDrawColor(v->renderer, 0, 0, 0, 255);
    SDL_RenderClear(v->renderer);
    if (result == PLAYCTL_OK) SDL_RenderCopy(v->renderer, v->texture, NULL, &v->picture);
    SDL_RenderPresent(v->renderer);
    return result;
}

/* Where the picture is on the screen (what a screenshot of the X server should show). */
static void print_picture_rect(const char *what, view *v, double time) {
    int x, y;
    SDL_GetWindowPosition(v->window, &x, &y);
    printf("%s %.3f window %d %d %d %d\n", what, time, x + v->picture.x, y + v->picture.y, v->picture.w,
           v->picture.h);
}

static void redraw(app *a, int which) {
    playctl_player *player = a->players[which];
    if (which == PIP && a->pip) { /* the PiP window shows whichever player the session shows */
        playctl_pip_state pip_state;
        if (playctl_pip_get_state(a->pip, &pip_state) == PLAYCTL_OK && pip_state.player) player = pip_state.player;
    }
    playctl_frame_info info;
    if (draw(&a->views[which], player, &info) != PLAYCTL_OK) return;
    if (a->awaited_seek[which] && a->awaited_landed[which] && distance(info.time, a->awaited_time[which]) < 0.05) {
        a->awaited_seek[which] = 0;
        print_picture_rect(which == MAIN ? "shown" : "pip-shown", &a->views[which], info.time);
    }
}

/* ---- Players and Picture in Picture ---- */

static playctl_player *make_player(app *a, int which, const char *clip, int audio) {
    playctl_config config = {0};
    config.clock = PLAYCTL_CLOCK_HOST;
    config.audio = audio;
    playctl_player *player = playctl_create(&config);
    if (!player) return NULL;
    playctl_set_wakeup_callback(player, on_wakeup, (void *)(intptr_t)which);
    playctl_set_frame_callback(player, on_frame, (void *)(intptr_t)which);
    int result = playctl_load(player, clip, PLAYCTL_LOAD_REPLACE);
    if (result < 0) {
        char message[512];
        playctl_last_error_message(player, message, sizeof message);
        fprintf(stderr, "c-sdl2: %s: %s\n", playctl_error_string(result), message);
        playctl_destroy(player);
        return NULL;
    }
    playctl_set_rate(player, 1);
    a->players[which] = player;
    return player;
}

static void pip_close(app *a) {
    if (a->pip) playctl_pip_destroy(a->pip);
    a->pip = NULL;
    playctl_destroy(a->players[PIP]); /* after this no callback of it runs; its queued SDL events find no player */
    a->players[PIP] = NULL;
    close_view(&a->views[PIP]);
    a->pip_wanted = a->pip_active = 0;
    a->awaited_seek[PIP] = 0;
}

static void pip_toggle(app *a) {
    if (a->pip_active || a->pip_wanted) {
        printf("pip: stop\n");
        if (a->pip_active) playctl_pip_stop(a->pip); /* PIP_DID_STOP closes the window */
        else pip_close(a);
        return;
    }
    printf("pip: start (%s)\n", a->pip_clip);
    /* A second player, silent, for the small window; the session starts once it shows its first frame. */
    if (!make_player(a, PIP, a->pip_clip, PLAYCTL_AUDIO_NONE)) return;
    a->pip = playctl_pip_create(a->players[PIP], NULL);
    a->pip_wanted = 1;
}

static void pip_open_window(app *a) {
    int x, y, w, h;
    SDL_GetWindowPosition(a->views[MAIN].window, &x, &y);
    SDL_GetWindowSize(a->views[MAIN].window, &w, &h);
    int pw = w / 3, ph = h / 3;
    playctl_state state;
    playctl_get_state(a->players[PIP], &state);
    if (state.width > 0 && state.height > 0) ph = round_int((double)pw * state.height / state.width);
    /* Bottom right of the main window, on top, without decorations: a floating PiP window. */
    if (open_view(&a->views[PIP], "c-sdl2 PiP", x + w - pw - 16, y + h - ph - 16, pw, ph,
                  SDL_WINDOW_BORDERLESS | SDL_WINDOW_ALWAYS_ON_TOP) < 0) {
        pip_close(a);
        return;
    }
    redraw(a, PIP);
}

/* ---- playctl's events ---- */

static void print_event(int which, const playctl_event *event) {
    printf("%s %-22s item %.3f", which == MAIN ? "main" : "pip ", playctl_event_name(event->type), event->time);
    if (event->type == PLAYCTL_EVENT_SEEK_COMPLETED)
        printf("  id %llu finished %d landed %.3f", (unsigned long long)event->request_id, event->finished,
               event->landed);
    if (event->error) printf("  error %d %s", event->error, playctl_error_string(event->error));
    if (event->message) printf(": %s", event->message);
    printf("\n");
}

static void handle_event(app *a, int which, const playctl_event *event) {
    print_event(which, event);
    switch (event->type) {
    case PLAYCTL_EVENT_AUDIO_DEVICE:
        if (event->value == PLAYCTL_AUDIO_PULSE)
            printf("audio: PulseAudio\n");
        else /* no sound server, or it went away: the library plays on with its null output and host clock */
            printf("audio: no sound server, playing on without sound (%s)\n",
                   event->message ? event->message : "null output");
        break;
    case PLAYCTL_EVENT_ITEM_STATUS:
        if (event->item_status == PLAYCTL_ITEM_FAILED) {
            fprintf(stderr, "c-sdl2: %s: %s\n", event->item ? event->item : "item",
                    event->message ? event->message : playctl_error_string(event->error));
            if (which == MAIN) a->quit = 1;
        }
        break;
    case PLAYCTL_EVENT_SEEK_COMPLETED:
        if (event->request_id == a->awaited_seek[which]) {
            if (!event->finished) {
                printf("%s: seek %llu did not finish\n", which == MAIN ? "shown" : "pip-shown",
                       (unsigned long long)event->request_id);
                a->awaited_seek[which] = 0;
            } else {
                a->awaited_landed[which] = 1;
                a->awaited_time[which] = event->landed;
                redraw(a, which); /* the landed frame is on screen: draw and report it */
            }
        }
        break;
    case PLAYCTL_EVENT_FIRST_FRAME:
        if (which == MAIN) {
            playctl_state state;
            playctl_get_state(a->players[MAIN], &state);
            printf("audio: %s\n", state.audio_output == PLAYCTL_AUDIO_PULSE ? "PulseAudio"
                                  : state.audio_output == PLAYCTL_AUDIO_NULL ? "null output (not heard)"
                                                                             : "none");
        }
        if (which == PIP && a->pip_wanted && !a->pip_active && a->pip) {
            int result = playctl_pip_start(a->pip);
            if (result < 0) printf("pip: start: %s\n", playctl_error_string(result));
        }
        break;
    case PLAYCTL_EVENT_PIP_DID_START:
        a->pip_active = 1;
        a->pip_wanted = 0;
        pip_open_window(a);
        break;
    case PLAYCTL_EVENT_PIP_FAILED_TO_START:
    case PLAYCTL_EVENT_PIP_DID_STOP:
        pip_close(a); /* destroys this player: drain() stops, the event is not used after this */
        break;
    default:
        break;
    }
}

static void drain(app *a, int which) {
    while (a->players[which]) {
        const playctl_event *event = playctl_wait_event(a->players[which], 0);
        if (event->type == PLAYCTL_EVENT_NONE) return;
        handle_event(a, which, event);
    }
}

/* ---- Keys and commands ---- */

static void seek_by(app *a, double seconds) {
    playctl_seek(a->players[MAIN], seconds, PLAYCTL_SEEK_RELATIVE | PLAYCTL_SEEK_EXACT, ++a->next_id);
}

static void handle_key(app *a, SDL_Keycode key) {
    playctl_state state;
    switch (key) {
    case SDLK_SPACE:
        playctl_get_state(a->players[MAIN], &state);
        playctl_set_rate(a->players[MAIN], state.rate == 0 ? 1 : 0);
        printf("key: %s\n", state.rate == 0 ? "play" : "pause");
        break;
    case SDLK_LEFT:
        printf("key: seek -5 s\n");
        seek_by(a, -5);
        break;
    case SDLK_RIGHT:
        printf("key: seek +5 s\n");
        seek_by(a, 5);
        break;
    case SDLK_p:
        pip_toggle(a);
        break;
    case SDLK_q:
    case SDLK_ESCAPE:
        a->quit = 1;
        break;
    default:
        break;
    }
}

/* Pauses a player and seeks it exactly; the frame is reported ("shown ...") once it is on screen. */
static void seek_and_report(app *a, int which, double seconds) {
    if (!a->players[which] || (which == PIP && !a->pip_active)) {
        printf("%s: no such player\n", which == MAIN ? "shown" : "pip-shown");
        return;
    }
    playctl_set_rate(a->players[which], 0);
    a->awaited_seek[which] = ++a->next_id;
    a->awaited_landed[which] = 0;
    playctl_seek(a->players[which], seconds, PLAYCTL_SEEK_EXACT, a->awaited_seek[which]);
}

static void handle_command(app *a, const char *line) {
    double seconds;
    char word[32];
    if (sscanf(line, "seek %lf", &seconds) == 1) {
        seek_and_report(a, MAIN, seconds);
    } else if (sscanf(line, "pip-seek %lf", &seconds) == 1) {
        seek_and_report(a, PIP, seconds);
    } else if (sscanf(line, "key %31s", word) == 1) {
        SDL_Keycode key = strcmp(word, "space") == 0 ? SDLK_SPACE
                          : strcmp(word, "left") == 0 ? SDLK_LEFT
                          : strcmp(word, "right") == 0 ? SDLK_RIGHT
                          : SDL_GetKeyFromName(word);
        SDL_Event event; /* through SDL's queue, as a key press arrives */
        SDL_zero(event);
        event.type = SDL_KEYDOWN;
        event.key.state = SDL_PRESSED;
        event.key.windowID = SDL_GetWindowID(a->views[MAIN].window);
        event.key.keysym.sym = key;
        SDL_PushEvent(&event);
    } else if (strncmp(line, "state", 5) == 0) {
        playctl_state state;
        playctl_get_state(a->players[MAIN], &state);
        printf("state time %.3f rate %g status %d pip %d audio %d avsync %.3f\n", state.time, state.rate,
               state.time_control_status, a->pip_active, state.audio_output, state.avsync);
    } else if (strncmp(line, "quit", 4) == 0) {
        a->quit = 1;
    } else {
        printf("unknown command: %s", line);
    }
}

/* --control: a thread reads standard input and hands each line to the main loop. */
static int read_commands(void *data) {
    (void)data;
    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        SDL_Event event;
        SDL_zero(event);
        event.type = the_app.command_event;
        event.user.data1 = SDL_strdup(line);
        SDL_PushEvent(&event);
    }
    SDL_Event event; /* end of input: quit */
    SDL_zero(event);
    event.type = SDL_QUIT;
    SDL_PushEvent(&event);
    return 0;
}

static int usage(void) {
    fprintf(stderr, "usage: c-sdl2 [--size WxH] [--pip-clip PATH] [--audio pulse|null] [--control] CLIP\n");
    return 2;
}

int main(int argc, char **argv) {
    app *a = &the_app;
    int control = 0;
    a->audio = PLAYCTL_AUDIO_PULSE;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--control") == 0) control = 1;
        else if (strcmp(argv[i], "--size") == 0 && i + 1 < argc) {
            if (sscanf(argv[++i], "%dx%d", &a->width, &a->height) != 2 || a->width <= 0 || a->height <= 0)
                return usage();
        } else if (strcmp(argv[i], "--pip-clip") == 0 && i + 1 < argc) a->pip_clip = argv[++i];
        else if (strcmp(argv[i], "--audio") == 0 && i + 1 < argc) {
            i++;
            if (strcmp(argv[i], "pulse") == 0) a->audio = PLAYCTL_AUDIO_PULSE;
            else if (strcmp(argv[i], "null") == 0) a->audio = PLAYCTL_AUDIO_NULL;
            else return usage();
        } else if (argv[i][0] == '-') return usage();
        else a->clip = argv[i];
    }
    if (!a->clip) a->clip = "../../Media/a.mp4";
    if (!a->pip_clip) a->pip_clip = a->clip;
    setvbuf(stdout, NULL, _IOLBF, 0); /* one line at a time: a script waits for them */
    if ((playctl_api_version() >> 16) != PLAYCTL_API_VERSION_MAJOR) {
        fprintf(stderr, "c-sdl2: library API %x, header %x\n", playctl_api_version(), PLAYCTL_API_VERSION);
        return 1;
    }
    if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_EVENTS) < 0) {
        fprintf(stderr, "c-sdl2: SDL_Init: %s\n", SDL_GetError());
        return 1;
    }
    a->wakeup_event = SDL_RegisterEvents(3);
    if (a->wakeup_event == (Uint32)-1) return 1;
    a->frame_event = a->wakeup_event + 1;
    a->command_event = a->wakeup_event + 2;

    if (!make_player(a, MAIN, a->clip, a->audio)) {
        SDL_Quit();
        return 1;
    }
    /* The window's size: --size, else the video's (known once the item is ready), at most 960 wide. */
    int width = a->width, height = a->height;
    if (!width) {
        playctl_state state = {0};
        for (int tries = 0; tries < 500 && state.width == 0; tries++) {
            playctl_get_state(a->players[MAIN], &state);
            if (state.item_status == PLAYCTL_ITEM_FAILED) break;
            if (state.width == 0) SDL_Delay(10);
        }
        width = state.width > 0 ? state.width : 640;
        height = state.height > 0 ? state.height : 360;
        if (width > 960) {
            height = height * 960 / width;
            width = 960;
        }
    }
    if (open_view(&a->views[MAIN], "c-sdl2", 0, 0, width, height, SDL_WINDOW_RESIZABLE) < 0) {
        playctl_destroy(a->players[MAIN]);
        SDL_Quit();
        return 1;
    }
    SDL_RendererInfo renderer;
    if (SDL_GetRendererInfo(a->views[MAIN].renderer, &renderer) < 0) renderer.name = "?";
    printf("c-sdl2: %s in a %dx%d window (SDL renderer %s); space pause, left/right seek, p PiP, q quit\n", a->clip,
           width, height, renderer.name);
    if (control) SDL_DetachThread(SDL_CreateThread(read_commands, "commands", NULL));
    drain(a, MAIN); /* events queued before the callback could find the loop */

    while (!a->quit) {
        SDL_Event event;
        if (!SDL_WaitEvent(&event)) break;
        if (event.type == SDL_QUIT) {
            a->quit = 1;
        } else if (event.type == a->wakeup_event) {
            drain(a, event.user.code);
        } else if (event.type == a->frame_event) {
            SDL_AtomicSet(&a->frame_pending[event.user.code], 0);
            if (a->players[event.user.code]) redraw(a, event.user.code);
            if (event.user.code == MAIN && a->pip_active) { /* the PiP window may show the main player */
                playctl_pip_state pip_state;
                if (playctl_pip_get_state(a->pip, &pip_state) == PLAYCTL_OK && pip_state.player == a->players[MAIN])
                    redraw(a, PIP);
            }
        } else if (event.type == a->command_event) {
            handle_command(a, event.user.data1);
            SDL_free(event.user.data1);
        } else if (event.type == SDL_KEYDOWN && !event.key.repeat) {
            handle_key(a, event.key.keysym.sym);
        } else if (event.type == SDL_WINDOWEVENT && (event.window.event == SDL_WINDOWEVENT_EXPOSED ||
                                                      event.window.event == SDL_WINDOWEVENT_SIZE_CHANGED)) {
            int which = a->views[PIP].window && event.window.windowID == SDL_GetWindowID(a->views[PIP].window)
                            ? PIP
                            : MAIN;
            redraw(a, which);
        } else if (event.type == SDL_WINDOWEVENT && event.window.event == SDL_WINDOWEVENT_CLOSE) {
            if (a->views[PIP].window && event.window.windowID == SDL_GetWindowID(a->views[PIP].window))
                pip_toggle(a);
            else
                a->quit = 1;
        }
    }
    printf("c-sdl2: quit\n");
    pip_close(a);
    playctl_destroy(a->players[MAIN]);
    close_view(&a->views[MAIN]);
    SDL_Quit();
    return 0;
}
