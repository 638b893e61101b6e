// libxml2 2.9 (Debian 12), for DASH manifests (MPD). FFmpeg's own DASH demuxer links the same library, so it is
// already in the process; Streaming is the only Swift module that imports it.
#ifndef PLAYCTL_CXML2_SHIM_H
#define PLAYCTL_CXML2_SHIM_H

#include <libxml/parser.h>
#include <libxml/tree.h>

#endif
