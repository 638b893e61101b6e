// Shim over libcurl 7.88 (Debian 12) for what Swift cannot call: curl_easy_setopt, curl_easy_getinfo and
// curl_multi_setopt are variadic, so each type of argument gets a typed inline wrapper.
#ifndef PLAYCTL_CCURL_SHIM_H
#define PLAYCTL_CCURL_SHIM_H

#include <curl/curl.h>

typedef size_t (*playctl_curl_data_callback)(char *data, size_t size, size_t count, void *context);
typedef int (*playctl_curl_progress_callback)(void *context, curl_off_t dltotal, curl_off_t dlnow,
                                              curl_off_t ultotal, curl_off_t ulnow);

static inline CURLcode playctl_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode playctl_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode playctl_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode playctl_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode playctl_curl_set_data_callback(CURL *handle, CURLoption option,
                                                      playctl_curl_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}
static inline CURLcode playctl_curl_set_progress_callback(CURL *handle, playctl_curl_progress_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}
static inline CURLcode playctl_curl_set_list(CURL *handle, CURLoption option, struct curl_slist *list) {
    return curl_easy_setopt(handle, option, list);
}
static inline CURLcode playctl_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode playctl_curl_get_double(CURL *handle, CURLINFO info, double *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode playctl_curl_get_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLMcode playctl_curl_multi_set_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}
static inline CURLMcode playctl_curl_multi_set_pointer(CURLM *multi, CURLMoption option, void *value) {
    return curl_multi_setopt(multi, option, value);
}
static inline CURLSHcode playctl_curl_share_set_long(CURLSH *share, CURLSHoption option, long value) {
    return curl_share_setopt(share, option, value);
}

static inline size_t playctl_curl_writefunc_pause(void) { return CURL_WRITEFUNC_PAUSE; }
static inline int playctl_curl_pause_all(void) { return CURLPAUSE_ALL; }
static inline int playctl_curl_pause_cont(void) { return CURLPAUSE_CONT; }
static inline int playctl_curl_pause_recv(void) { return CURLPAUSE_RECV; }

#endif
