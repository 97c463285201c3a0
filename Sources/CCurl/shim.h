#ifndef DECLUTTER_CCURL_SHIM_H
#define DECLUTTER_CCURL_SHIM_H

// libcurl's types, option and info numbers come from its own header; the library itself is not linked but opened at
// run time (dlopen) by the HTTP tile source, so that a process drawing without HTTP tiles does not load it and its 30
// TLS, HTTP/2, Kerberos and LDAP libraries (4.6 ms of every start). Swift cannot call C's variadic functions, so these
// forward typed arguments to curl_easy_setopt and curl_easy_getinfo as C calls them.

#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

typedef CURLcode (*declutter_curl_setopt_function)(CURL *handle, CURLoption option, ...);
typedef CURLcode (*declutter_curl_getinfo_function)(CURL *handle, CURLINFO info, ...);

/// curl_easy_setopt with a pointer (string or object) argument.
static inline CURLcode declutter_curl_setopt_pointer(void *function, CURL *handle, CURLoption option, const void *value) {
    return ((declutter_curl_setopt_function)function)(handle, option, value);
}

/// curl_easy_setopt with a long argument.
static inline CURLcode declutter_curl_setopt_long(void *function, CURL *handle, CURLoption option, long value) {
    return ((declutter_curl_setopt_function)function)(handle, option, value);
}

/// curl_easy_setopt with a write-callback argument.
static inline CURLcode declutter_curl_setopt_write(void *function, CURL *handle, CURLoption option, curl_write_callback value) {
    return ((declutter_curl_setopt_function)function)(handle, option, value);
}

/// curl_easy_getinfo for a long answer.
static inline CURLcode declutter_curl_getinfo_long(void *function, CURL *handle, CURLINFO info, long *value) {
    return ((declutter_curl_getinfo_function)function)(handle, info, value);
}

#endif
