#ifndef DECLUTTER_CCAIRO_CURL_H
#define DECLUTTER_CCAIRO_CURL_H

// libcurl is opened at run time (dlopen) by the HTTP tile source, so that a process drawing without HTTP tiles does
// not load it and its TLS and Kerberos libraries, about half of a short run's start-up. Swift cannot call C's
// variadic functions, so these forward typed arguments to curl_easy_setopt and curl_easy_getinfo as C calls them.

#include <stddef.h>

typedef int (*declutter_curl_variadic)(void *handle, int option, ...);
typedef size_t (*declutter_curl_write_callback)(char *data, size_t size, size_t count, void *context);

/// curl_easy_setopt with a pointer (string or object) argument.
static inline int declutter_curl_setopt_pointer(void *function, void *handle, int option, const void *value) {
    return ((declutter_curl_variadic)function)(handle, option, value);
}

/// curl_easy_setopt with a long argument.
static inline int declutter_curl_setopt_long(void *function, void *handle, int option, long value) {
    return ((declutter_curl_variadic)function)(handle, option, value);
}

/// curl_easy_setopt with a write-callback argument.
static inline int declutter_curl_setopt_write(void *function, void *handle, int option, declutter_curl_write_callback value) {
    return ((declutter_curl_variadic)function)(handle, option, value);
}

/// curl_easy_getinfo for a long answer.
static inline int declutter_curl_getinfo_long(void *function, void *handle, int info, long *value) {
    return ((declutter_curl_variadic)function)(handle, info, value);
}

#endif
