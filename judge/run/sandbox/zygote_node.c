/* A Node.js zygote's native half (zygote_node.js): the few steps Node cannot take itself.
 *
 * Node has no fork. The zygote, a `node --single-threaded` that has loaded this addon and
 * zygote_node.js and nothing of a student's, serves the session's requests (supervisor.py's
 * zygote protocol: one JSON datagram, descriptors beside it) through next() and send(); for a
 * call, spawn() forks, and the child takes here every step a case takes before its program
 * runs (the case's cgroup, an IPC namespace and a session of its own, its stdin, stdout and
 * stderr and no other descriptor of the zygote's, the case's rlimits, the case's user with no
 * capability), then returns 0 to JavaScript, which runs the build's main.js as `node main.js`
 * would and ends by exit() (_exit: the platform's worker threads stay in the zygote, so Node's
 * own teardown, which joins them, cannot run in a child).
 *
 * Rootless (spawn's fourth argument), where the call would run as the zygote's own user, the
 * fork takes a pid namespace for its children and forks the call's init (call_init: pid 1 of
 * it, in a mount and IPC namespace of its own, with _fastspawn.c's case_init's mounts), whose
 * fork is the program (pid 2), with no capability; the init says the program's end on a pipe.
 *
 * V8 is multi-threaded; with --single-threaded it posts no work to its workers, so at a fork
 * they are idle, holding no lock. libuv's loop is the zygote's until uv_loop_fork gives the
 * child one of its own (its epoll, its async and signal descriptors).
 *
 * The N-API prototypes are declared here (the ABI is stable), so no Node headers are needed:
 * the judge compiles this file with the machine's C compiler once (session.node_kit). */

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/capability.h>

typedef struct napi_env__ *napi_env;
typedef struct napi_value__ *napi_value;
typedef struct napi_callback_info__ *napi_callback_info;
typedef int napi_status;
typedef napi_value (*napi_callback)(napi_env, napi_callback_info);
struct uv_loop_s;

extern napi_status napi_create_function(napi_env, const char *, size_t, napi_callback, void *, napi_value *);
extern napi_status napi_set_named_property(napi_env, napi_value, const char *, napi_value);
extern napi_status napi_get_cb_info(napi_env, napi_callback_info, size_t *, napi_value *, napi_value *, void **);
extern napi_status napi_get_value_int64(napi_env, napi_value, int64_t *);
extern napi_status napi_get_value_string_utf8(napi_env, napi_value, char *, size_t, size_t *);
extern napi_status napi_get_array_length(napi_env, napi_value, uint32_t *);
extern napi_status napi_get_element(napi_env, napi_value, uint32_t, napi_value *);
extern napi_status napi_create_array_with_length(napi_env, size_t, napi_value *);
extern napi_status napi_set_element(napi_env, napi_value, uint32_t, napi_value);
extern napi_status napi_create_string_utf8(napi_env, const char *, size_t, napi_value *);
extern napi_status napi_create_int64(napi_env, int64_t, napi_value *);
extern napi_status napi_get_null(napi_env, napi_value *);
extern napi_status napi_throw_error(napi_env, const char *, const char *);
extern napi_status napi_get_uv_event_loop(napi_env, struct uv_loop_s **);
extern int uv_loop_fork(struct uv_loop_s *);

#define MAX_FDS 16
#define MAX_LIMITS 16
#define MAX_OPEN 4096
#define DATAGRAM (1 << 20)

/* The call's child while it runs, and a pidfd of it, which next() waits on: not SIGCHLD, which
 * the kernel may hand to one of V8's threads (they do not block it), where it is lost. */
static pid_t running;
static int running_fd = -1;
/* Rootless (isolate): the call's init says the program's end on this pipe, before its own exit
 * (which waits for its mount namespace's teardown): {0, wait status}, or {1, errno} and a stage */
static int said_fd = -1;

static napi_value args(napi_env env, napi_callback_info info, size_t want, napi_value *argv) {
    size_t got = want;
    napi_get_cb_info(env, info, &got, argv, NULL, NULL);
    if (got < want) napi_throw_error(env, NULL, "zygote_node: too few arguments");
    return got < want ? NULL : argv[0];
}

static int64_t int_of(napi_env env, napi_value value) {
    int64_t out = 0;
    napi_get_value_int64(env, value, &out);
    return out;
}

static napi_value number(napi_env env, int64_t value) {
    napi_value out;
    napi_create_int64(env, value, &out);
    return out;
}

static napi_value fail(napi_env env, const char *what) {
    char said[256];
    snprintf(said, sizeof said, "%s: %s", what, strerror(errno));
    napi_throw_error(env, NULL, said);
    return NULL;
}

/* send(fd, text): one datagram to the session */
static napi_value js_send(napi_env env, napi_callback_info info) {
    napi_value argv[2];
    char *text = malloc(DATAGRAM);
    size_t len = 0;
    ssize_t sent;
    if (!text || !args(env, info, 2, argv)) {
        free(text);
        return NULL;
    }
    napi_get_value_string_utf8(env, argv[1], text, DATAGRAM, &len);
    sent = send((int)int_of(env, argv[0]), text, len, MSG_NOSIGNAL);
    free(text);
    return sent < 0 ? fail(env, "send") : NULL;
}

static void say_status(int control, int status) {
    char text[64];
    int len = snprintf(text, sizeof text, "{\"status\": %d}", status);
    send(control, text, (size_t)len, MSG_NOSIGNAL);
}

static void call_ended(void) {
    running = 0;
    close(running_fd);
    running_fd = -1;
    if (said_fd >= 0) close(said_fd);
    said_fd = -1;
}

/* Rootless: what the call's init said, once it has (the session hears the program's wait
 * status, or why the init failed); nothing yet, nothing done. */
static void hear_init(int control) {
    int said[2];
    char text[256];
    ssize_t got = read(said_fd, said, sizeof said);
    if (got < 0 && (errno == EAGAIN || errno == EINTR)) return;
    if (got == (ssize_t)sizeof said && said[0] == 0) {
        say_status(control, said[1]);
    } else {
        int len = snprintf(text, sizeof text, "{\"error\": \"the call's init failed: %s\"}",
                           got == (ssize_t)sizeof said ? strerror(said[1]) : "it ended without a word");
        send(control, text, (size_t)len, MSG_NOSIGNAL);
    }
    call_ended();
}

/* Reap every child that ended (the call, and orphans of it: the zygote is their subreaper);
 * the session hears the call's wait status. */
static void reap(int control) {
    int status;
    pid_t pid;
    if (said_fd >= 0) hear_init(control);
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
        if (pid == running && said_fd < 0) {
            call_ended();
            say_status(control, status);
        }
    }
}

/* next(fd): the next request, [text, [fds...]], or null once the session has closed it */
static napi_value js_next(napi_env env, napi_callback_info info) {
    napi_value argv[1], out, list, item;
    int control;
    if (!args(env, info, 1, argv)) return NULL;
    control = (int)int_of(env, argv[0]);
    for (;;) {
        struct pollfd wait[3] = {{control, POLLIN, 0}, {running_fd, POLLIN, 0}, {said_fd, POLLIN, 0}};
        if (poll(wait, said_fd >= 0 ? 3 : running_fd >= 0 ? 2 : 1, -1) < 0) {
            if (errno == EINTR) continue;
            return fail(env, "poll");
        }
        reap(control); /* the call, once its pidfd says so, and any orphan of it meanwhile */
        if (!(wait[0].revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL))) continue;
        {
            char *data = malloc(DATAGRAM);
            char space[CMSG_SPACE(sizeof(int) * MAX_FDS)];
            struct iovec iov = {data, DATAGRAM};
            struct msghdr msg = {0};
            struct cmsghdr *cmsg;
            ssize_t got;
            uint32_t n = 0;
            if (!data) return fail(env, "malloc");
            msg.msg_iov = &iov;
            msg.msg_iovlen = 1;
            msg.msg_control = space;
            msg.msg_controllen = sizeof space;
            got = recvmsg(control, &msg, MSG_CMSG_CLOEXEC);
            if (got <= 0) {
                free(data);
                napi_get_null(env, &out);
                return out; /* the session ended the zygote */
            }
            napi_create_array_with_length(env, 2, &out);
            napi_create_string_utf8(env, data, (size_t)got, &item);
            free(data);
            napi_set_element(env, out, 0, item);
            napi_create_array_with_length(env, 0, &list);
            for (cmsg = CMSG_FIRSTHDR(&msg); cmsg; cmsg = CMSG_NXTHDR(&msg, cmsg)) {
                if (cmsg->cmsg_level != SOL_SOCKET || cmsg->cmsg_type != SCM_RIGHTS) continue;
                size_t count = (cmsg->cmsg_len - CMSG_LEN(0)) / sizeof(int), i;
                int fds[MAX_FDS];
                memcpy(fds, CMSG_DATA(cmsg), count * sizeof(int));
                for (i = 0; i < count; i++) napi_set_element(env, list, n++, number(env, fds[i]));
            }
            napi_set_element(env, out, 1, list);
            return out;
        }
    }
}

/* fresh(bytes): /tmp and /dev/shm replaced by empty tmpfs mounts (what a call wrote goes) */
static napi_value js_fresh(napi_env env, napi_callback_info info) {
    static const char *places[] = {"/tmp", "/dev/shm"};
    napi_value argv[1];
    char options[64];
    int i;
    if (!args(env, info, 1, argv)) return NULL;
    snprintf(options, sizeof options, "size=%lld,mode=1777", (long long)int_of(env, argv[0]));
    for (i = 0; i < 2; i++) {
        /* EINVAL: nothing mounted there (a zygote ended between the two steps): mount anew */
        if (umount2(places[i], MNT_DETACH) != 0 && errno != EINVAL) return fail(env, "umount");
        if (mount("tmpfs", places[i], "tmpfs", MS_NOSUID | MS_NODEV, options) != 0) return fail(env, "mount");
    }
    return NULL;
}

/* setup(): the zygote's own state once, before its first request */
static napi_value js_setup(napi_env env, napi_callback_info info) {
    (void)env;
    (void)info;
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); /* a call's orphans come back here, to be reaped */
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);        /* no call may trace it or read its memory */
    return NULL;
}

struct open_fd {
    int fd;
    dev_t dev;
    ino_t ino;
};

/* The zygote's open descriptors (above stderr), by what they are: a child closes exactly these */
static int zygote_fds(struct open_fd *out) {
    DIR *dir = opendir("/proc/self/fd");
    struct dirent *entry;
    struct stat st;
    int n = 0, own = dir ? dirfd(dir) : -1;
    if (!dir) return -1;
    while ((entry = readdir(dir)) && n < MAX_OPEN) {
        int fd = atoi(entry->d_name);
        if (fd > 2 && fd != own && fstat(fd, &st) == 0) out[n++] = (struct open_fd){fd, st.st_dev, st.st_ino};
    }
    closedir(dir);
    return n;
}

/* V8 marks its heap's pages MADV_DONTFORK: a child would find holes where its objects are.
 * Every mapping is made copied again before each fork (new pages may have come since). */
static int copy_on_fork(void) {
    char line[512];
    FILE *maps = fopen("/proc/self/maps", "re");
    if (!maps) return -1;
    while (fgets(line, sizeof line, maps)) {
        unsigned long start, end;
        if (sscanf(line, "%lx-%lx", &start, &end) == 2) madvise((void *)start, end - start, MADV_DOFORK);
        if (!strchr(line, '\n')) { /* a long line (a path): skip to its end */
            int c;
            while ((c = fgetc(maps)) != EOF && c != '\n') {
            }
        }
    }
    fclose(maps);
    return 0;
}

struct call {
    int fds[MAX_FDS];
    int n_fds;
    int resources[MAX_LIMITS];
    struct rlimit limits[MAX_LIMITS];
    int n_limits;
    long uid;
    int isolate;          /* rootless: pid, mount and IPC namespaces of the call's own, under an init */
    char tmp_options[64]; /* isolate: its /tmp and /dev/shm */
    char box_options[64]; /* isolate: the tmpfs above its box's overlay, "" for none */
};

static void __attribute__((noreturn)) refuse(const char *step) {
    char said[256];
    int len = snprintf(said, sizeof said, "judge: cannot run node: could not %s: %s\n", step, strerror(errno));
    if (write(2, said, (size_t)len) < 0) _exit(127);
    _exit(127);
}

/* In the child: every step a case takes before its program runs. Returns, or exits 127. */
static void become_case(napi_env env, const struct call *call, const struct open_fd *before, int n_before) {
    static const unsigned long dfl[8]; /* an all-zero kernel sigaction: SIG_DFL, no flags, no mask */
    struct uv_loop_s *loop = NULL;
    struct stat st;
    sigset_t none;
    int i;
    for (i = 3; i < call->n_fds; i++) {
        if (write(call->fds[i], "0", 1) != 1) refuse("join its cgroup"); /* its memory counts from here */
    }
    if (!call->isolate && unshare(CLONE_NEWIPC) != 0) refuse("make its IPC namespace"); /* isolate: its init's */
    if (setsid() < 0) refuse("start a session");
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL); /* Node's own handlers stay, as Node's start set them */
    /* Node's start resets 1-31 only: the rest to their default by the raw call (glibc refuses
     * its own 32 and 33), or an ignore of the judge's ancestors would reach the call; but 33,
     * whose handler glibc's start installs in every process (a fresh Node's too) */
    for (i = 32; i < NSIG; i++) {
        if (i != 33) syscall(SYS_rt_sigaction, i, dfl, NULL, (size_t)(NSIG / 8));
    }
    /* The zygote's descriptors are marked (close-on-exec cleared): libuv makes each of its own
     * close-on-exec, the signal lock its fork handler made anew included, so after the loop's
     * fork every marked one left is the zygote's, whatever number libuv reused, and goes. */
    for (i = 0; i < n_before; i++) {
        if (fstat(before[i].fd, &st) == 0 && st.st_dev == before[i].dev && st.st_ino == before[i].ino) fcntl(before[i].fd, F_SETFD, 0);
    }
    for (i = 0; i < 3; i++) {
        if (dup2(call->fds[i], i) < 0) refuse("take its stdio");
    }
    /* A loop of its own (epoll, async and signal descriptors), not the zygote's */
    if (napi_get_uv_event_loop(env, &loop) != 0 || !loop || uv_loop_fork(loop) != 0) refuse("fork its event loop");
    for (i = 0; i < n_before; i++) {
        int flags = fcntl(before[i].fd, F_GETFD);
        if (flags >= 0 && !(flags & FD_CLOEXEC)) close(before[i].fd);
    }
    for (i = 0; i < call->n_limits; i++) {
        if (setrlimit(call->resources[i], &call->limits[i]) != 0) refuse("take its limits");
    }
    if (call->uid >= 0) {
        if (setgroups(0, NULL) != 0 || setgid((gid_t)call->uid) != 0 || setuid((uid_t)call->uid) != 0) refuse("drop to its user");
    } else {
        /* Rootless, the zygote's own user: no capability may reach it (as _fastspawn.c's child) */
        struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
        struct __user_cap_data_struct none[2];
        memset(none, 0, sizeof none);
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) refuse("set no new privileges");
        if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL) refuse("drop its capabilities");
        if (syscall(SYS_capset, &header, none) != 0) refuse("drop its capabilities");
    }
    prctl(PR_SET_DUMPABLE, 1, 0, 0, 0); /* as after an exec: the program's own */
}

static int read_call(napi_env env, napi_value fds, napi_value limits, napi_value uid, struct call *call) {
    memset(call, 0, sizeof *call);
    uint32_t n, i, parts;
    napi_value item, part;
    napi_get_array_length(env, fds, &n);
    if (n < 3 || n > MAX_FDS) return -1;
    for (i = 0; i < n; i++) {
        napi_get_element(env, fds, i, &item);
        call->fds[i] = (int)int_of(env, item);
    }
    call->n_fds = (int)n;
    napi_get_array_length(env, limits, &n);
    if (n > MAX_LIMITS) return -1;
    for (i = 0; i < n; i++) {
        int64_t soft, hard;
        napi_get_element(env, limits, i, &item);
        napi_get_array_length(env, item, &parts);
        if (parts != 3) return -1;
        napi_get_element(env, item, 0, &part);
        call->resources[i] = (int)int_of(env, part);
        napi_get_element(env, item, 1, &part);
        soft = int_of(env, part);
        napi_get_element(env, item, 2, &part);
        hard = int_of(env, part);
        call->limits[i].rlim_cur = soft < 0 ? RLIM_INFINITY : (rlim_t)soft;
        call->limits[i].rlim_max = hard < 0 ? RLIM_INFINITY : (rlim_t)hard;
    }
    call->n_limits = (int)n;
    call->uid = (long)int_of(env, uid);
    return 0;
}

/* Rootless, in the call's init (pid 1 of its pid namespace): say why it failed, and end */
static void __attribute__((noreturn)) init_failed(int said) {
    int word[2] = {1, errno};
    if (write(said, word, sizeof word) < 0) _exit(127);
    _exit(127);
}

/* Rootless, the call's init: what _fastspawn.c's case_init mounts (its own /proc, its covered
 * parts read-only; a fresh /tmp and /dev/shm; the box as an overlay, best effort), then the
 * program's fork, which returns here (the init never does); the init reaps what is orphaned to
 * it and says the program's wait status on `said` once it has ended, then exits. */
static void call_init(const struct call *call, int said) {
    static const char *covered[] = {"/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus"};
    static const char *fresh[] = {"/tmp", "/dev/shm"};
    static const unsigned long dfl[8];
    const unsigned long hidden = MS_NOSUID | MS_NODEV | MS_NOEXEC;
    int i, status;
    pid_t program, ended;
    if (unshare(CLONE_NEWNS | CLONE_NEWIPC) != 0) init_failed(said);
    if (mount("proc", "/proc", "proc", hidden, NULL) != 0) init_failed(said);
    for (i = 0; i < 4; i++) {
        if (mount(covered[i], covered[i], NULL, MS_BIND | MS_REC, NULL) != 0) {
            if (errno == ENOENT) continue;
            init_failed(said);
        }
        if (mount(NULL, covered[i], NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | hidden, NULL) != 0) init_failed(said);
    }
    for (i = 0; i < 2; i++) {
        if (mount("tmpfs", fresh[i], "tmpfs", MS_NOSUID | MS_NODEV, call->tmp_options) != 0) init_failed(said);
    }
    if (call->box_options[0] && mkdir("/tmp/.judge-box", 0700) == 0) {
        if (mount("tmpfs", "/tmp/.judge-box", "tmpfs", MS_NOSUID | MS_NODEV, call->box_options) == 0) {
            if (mkdir("/tmp/.judge-box/upper", 0777) == 0 && chmod("/tmp/.judge-box/upper", 0777) == 0 &&
                mkdir("/tmp/.judge-box/work", 0700) == 0) {
                const char *overlay = "lowerdir=/box,upperdir=/tmp/.judge-box/upper,workdir=/tmp/.judge-box/work";
                char with_xattr[160];
                snprintf(with_xattr, sizeof with_xattr, "%s,userxattr", overlay);
                if (mount("overlay", "/box", "overlay", MS_NOSUID | MS_NODEV, with_xattr) != 0)
                    mount("overlay", "/box", "overlay", MS_NOSUID | MS_NODEV, overlay);
            }
            umount2("/tmp/.judge-box", MNT_DETACH);
        }
        rmdir("/tmp/.judge-box");
    }
    program = fork();
    if (program < 0) init_failed(said);
    if (program == 0) {
        close(said);
        return;
    }
    for (i = 1; i < NSIG; i++) { /* as pid 1 it then takes no signal of its namespace */
        if (i != SIGKILL && i != SIGSTOP) syscall(SYS_rt_sigaction, i, dfl, NULL, (size_t)(NSIG / 8));
    }
    if (said > 0) syscall(SYS_close_range, 0U, (unsigned int)said - 1, 0U); /* nothing of the zygote's */
    syscall(SYS_close_range, (unsigned int)said + 1, ~0U, 0U);
    for (;;) {
        ended = waitpid(-1, &status, __WALL);
        if (ended == program) {
            int word[2] = {0, status};
            if (write(said, word, sizeof word) < 0) _exit(127);
            _exit(0);
        }
        if (ended < 0 && errno != EINTR) _exit(127);
    }
}

/* Rootless: the call's fork, whose own fork (pid 1 of a new pid namespace) is the call's init;
 * the program, a fork of that, returns 0. The zygote gets the first fork's pid, which only
 * waits for the init (the zygote never takes a pid namespace for its children: a second
 * would be refused), and the reading end of the init's pipe. */
static pid_t isolated_fork(const struct call *call) {
    int said[2];
    pid_t pid, init;
    if (pipe2(said, O_CLOEXEC) != 0) return -1;
    pid = fork();
    if (pid < 0) {
        close(said[0]);
        close(said[1]);
        return -1;
    }
    if (pid > 0) {
        close(said[1]);
        said_fd = said[0];
        fcntl(said_fd, F_SETFL, O_NONBLOCK);
        return pid;
    }
    close(said[0]);
    if (unshare(CLONE_NEWPID) != 0) init_failed(said[1]);
    init = fork();
    if (init < 0) init_failed(said[1]);
    if (init == 0) {
        call_init(call, said[1]);
        return 0; /* the program */
    }
    syscall(SYS_close_range, 0U, ~0U, 0U); /* the call's descriptors are the init's and the program's */
    while (waitpid(init, NULL, 0) < 0 && errno == EINTR) {
    }
    _exit(0);
}

/* spawn(fds, rlimits, uid[, [tmp bytes, box bytes]]): the call's child. The zygote gets its
 * pid (and has closed the call's descriptors); the child, the case's user now, gets 0. With
 * the fourth (rootless), the child is pid 2 of namespaces of its own under an init. */
static napi_value js_spawn(napi_env env, napi_callback_info info) {
    static struct open_fd before[MAX_OPEN];
    napi_value argv[4], part;
    struct call call;
    pid_t pid;
    int n_before, i;
    size_t got = 4;
    uint32_t n = 0;
    if (napi_get_cb_info(env, info, &got, argv, NULL, NULL) != 0 || got < 3) return fail(env, "spawn");
    if (read_call(env, argv[0], argv[1], argv[2], &call) != 0) {
        errno = EINVAL;
        return fail(env, "spawn");
    }
    if (got > 3 && napi_get_array_length(env, argv[3], &n) == 0 && n == 2) {
        call.isolate = 1;
        napi_get_element(env, argv[3], 0, &part);
        snprintf(call.tmp_options, sizeof call.tmp_options, "size=%lld,mode=1777", (long long)int_of(env, part));
        napi_get_element(env, argv[3], 1, &part);
        if (int_of(env, part) > 0)
            snprintf(call.box_options, sizeof call.box_options, "size=%lld,mode=0755", (long long)int_of(env, part));
    }
    n_before = zygote_fds(before);
    if (n_before < 0) return fail(env, "list its descriptors");
    if (copy_on_fork() != 0) return fail(env, "read its mappings");
    pid = call.isolate ? isolated_fork(&call) : fork();
    if (pid < 0) return fail(env, "fork");
    if (pid == 0) {
        become_case(env, &call, before, n_before);
        return number(env, 0);
    }
    for (i = 0; i < call.n_fds; i++) close(call.fds[i]);
    running = pid;
    running_fd = (int)syscall(SYS_pidfd_open, pid, 0);
    if (running_fd < 0) return fail(env, "pidfd_open");
    return number(env, pid);
}

/* pid(): the caller's own (Node keeps its start's in process.pid: the zygote's, in a child) */
static napi_value js_pid(napi_env env, napi_callback_info info) {
    (void)info;
    return number(env, getpid());
}

/* exit(code): the child's end, without Node's teardown (see above) */
static napi_value js_exit(napi_env env, napi_callback_info info) {
    napi_value argv[1];
    size_t got = 1;
    int64_t code = 0;
    napi_get_cb_info(env, info, &got, argv, NULL, NULL);
    if (got > 0) napi_get_value_int64(env, argv[0], &code);
    _exit((int)(code & 0xff));
}

napi_value napi_register_module_v1(napi_env env, napi_value exports) {
    static const struct {
        const char *name;
        napi_callback call;
    } table[] = {{"send", js_send}, {"next", js_next},   {"fresh", js_fresh},
                 {"setup", js_setup}, {"spawn", js_spawn}, {"reallyExit", js_exit},
                 {"pid", js_pid}};
    size_t i;
    for (i = 0; i < sizeof table / sizeof table[0]; i++) {
        napi_value fn;
        napi_create_function(env, table[i].name, (size_t)-1, table[i].call, NULL, &fn);
        napi_set_named_property(env, exports, table[i].name, fn);
    }
    return exports;
}
