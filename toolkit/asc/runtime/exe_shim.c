/* LD_PRELOAD shim of the migrate-check .asc runner: in the process whose pid is $ASC_EXE_PID (the program
 * being run, hosted by a Python child), readlink("/proc/self/exe") answers $ASC_EXE, the path the program
 * would have if it had been built as an executable there. Every other call, and every other process
 * (std::system children inherit the preload), gets the real answer. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

static ssize_t fake(const char* path, char* buf, size_t size, int* handled) {
    *handled = 0;
    if (strcmp(path, "/proc/self/exe") != 0) return -1;
    const char* pid = getenv("ASC_EXE_PID");
    const char* exe = getenv("ASC_EXE");
    if (!pid || !exe || atol(pid) != (long)getpid()) return -1;
    size_t n = strlen(exe);
    if (n > size) n = size;
    memcpy(buf, exe, n);
    *handled = 1;
    return (ssize_t)n;
}

ssize_t readlink(const char* path, char* buf, size_t size) {
    int handled;
    ssize_t n = fake(path, buf, size, &handled);
    if (handled) return n;
    return syscall(SYS_readlinkat, AT_FDCWD, path, buf, size);
}

ssize_t readlinkat(int dirfd, const char* path, char* buf, size_t size) {
    int handled;
    if (path[0] == '/') {
        ssize_t n = fake(path, buf, size, &handled);
        if (handled) return n;
    }
    return syscall(SYS_readlinkat, dirfd, path, buf, size);
}
