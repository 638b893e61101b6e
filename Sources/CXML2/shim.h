// libxml2 2.9 (Debian 12), for DASH manifests (MPD). FFmpeg's own DASH demuxer links the same library, so it is
// already in the process; Streaming is the only Swift module that imports it.
#ifndef PLAYCTL_CXML2_SHIM_H
#define PLAYCTL_CXML2_SHIM_H

#include <libxml/xmlversion.h>
// libxml2's ICU support includes the system's ICU headers, whose UErrorCode differs from that of Foundation's own
// ICU (_FoundationICU): a Swift module importing both fails to build. Nothing here uses libxml2's ICU converters;
// without the macro, xmlCharEncodingHandler only lacks its last two pointer fields, which Swift never reads.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>

#endif
