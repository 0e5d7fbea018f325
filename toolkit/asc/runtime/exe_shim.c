/* LD_PRELOAD shim of the migrate-check .asc runner: in the process whose pid is $ASC_EXE_PID (the program
 * being run, hosted by a Python child), the executable's own path -- /proc/self/exe, /proc/thread-self/exe,
 * /proc/<its pid>/exe -- is $ASC_EXE, the path the program would have if it had been built as an
 * executable there: readlink, readlinkat, realpath (also the fortified __realpath_chk) and
 * canonicalize_file_name answer it. Every other call, and every other process (std::system children
 * inherit the preload), gets the real answer. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

static const char* own_exe(const char* path) {
    if (!path || strncmp(path, "/proc/", 6) != 0) return NULL;
    const char* pid = getenv("ASC_EXE_PID");
    const char* exe = getenv("ASC_EXE");
    if (!pid || !exe || atol(pid) != (long)getpid()) return NULL;
    char mine[64];
    snprintf(mine, sizeof mine, "/proc/%ld/exe", (long)getpid());
    if (strcmp(path, "/proc/self/exe") == 0 || strcmp(path, "/proc/thread-self/exe") == 0 ||
        strcmp(path, mine) == 0)
        return exe;
    return NULL;
}

ssize_t readlink(const char* path, char* buf, size_t size) {
    const char* exe = own_exe(path);
    if (exe) {
        size_t n = strlen(exe);
        if (n > size) n = size;
        memcpy(buf, exe, n);
        return (ssize_t)n;
    }
    return syscall(SYS_readlinkat, AT_FDCWD, path, buf, size);
}

ssize_t readlinkat(int dirfd, const char* path, char* buf, size_t size) {
    if (path && path[0] == '/' && own_exe(path)) return readlink(path, buf, size);
    return syscall(SYS_readlinkat, dirfd, path, buf, size);
}

typedef char* (*realpath_fn)(const char*, char*);
typedef char* (*realpath_chk_fn)(const char*, char*, size_t);

char* realpath(const char* path, char* resolved) {
    static realpath_fn real = NULL;
    if (!real) real = (realpath_fn)dlsym(RTLD_NEXT, "realpath");
    const char* exe = own_exe(path);
    return real(exe ? exe : path, resolved);
}

char* __realpath_chk(const char* path, char* resolved, size_t resolvedlen) {
    static realpath_chk_fn real = NULL;
    if (!real) real = (realpath_chk_fn)dlsym(RTLD_NEXT, "__realpath_chk");
    const char* exe = own_exe(path);
    return real(exe ? exe : path, resolved, resolvedlen);
}

char* canonicalize_file_name(const char* path) {
    return realpath(path, NULL);
}
