// libpulse's declarations (Debian's libpulse-dev), for their types and constants only: the library is not linked.
// AudioDevice's PulseLibrary opens libpulse.so.0 with dlopen when a player asks for the PulseAudio output.
#include <pulse/pulseaudio.h>
