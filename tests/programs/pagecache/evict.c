/* Each call that evicts a page of the page cache or tells whether one is cached without a
 * clock, and a few that only read ahead or advise otherwise: prints each call's name and the
 * errno it failed with (0: it ran). The sandbox's filter (judge/run/sandbox/filters.py) must
 * refuse the first kind (EPERM; preadv2 with RWF_NOWAIT EOPNOTSUPP) and let the second run. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#define MADV_COLD_ 20
#define MADV_PAGEOUT_ 21
#define HIGH_BITS 0x100000000L /* the kernel reads an int: the same advice with these set */

static void said(const char *call, long result) { printf("%s %d\n", call, result < 0 ? errno : 0); }

int main(void) {
    int fd = open("/usr/bin/env", O_RDONLY);
    if (fd < 0) return 2;
    long page = sysconf(_SC_PAGESIZE);
    char *map = mmap(NULL, page, PROT_READ, MAP_PRIVATE, fd, 0);
    char *anon = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED || anon == MAP_FAILED) return 3;
    unsigned char vector[1];
    char byte;
    struct iovec one = {&byte, 1};
    long cachestat[4] = {0, page, 0, 0}, stat[5];
    long ring[15] = {0};
    /* refused */
    said("fadvise_dontneed", syscall(SYS_fadvise64, fd, 0L, 0L, (long)POSIX_FADV_DONTNEED));
    said("fadvise_dontneed_high", syscall(SYS_fadvise64, fd, 0L, 0L, HIGH_BITS | POSIX_FADV_DONTNEED));
    said("madvise_cold", syscall(SYS_madvise, map, page, (long)MADV_COLD_));
    said("madvise_pageout", syscall(SYS_madvise, map, page, (long)MADV_PAGEOUT_));
    said("madvise_pageout_high", syscall(SYS_madvise, map, page, HIGH_BITS | MADV_PAGEOUT_));
    said("mincore", syscall(SYS_mincore, map, page, vector));
    said("cachestat", syscall(451, fd, cachestat, stat, 0L));
    said("preadv2_nowait", syscall(SYS_preadv2, fd, &one, 1L, 0L, 0L, (long)RWF_NOWAIT));
    said("io_uring_setup", syscall(425, 4L, ring));
    /* let through */
    said("fadvise_sequential", syscall(SYS_fadvise64, fd, 0L, 0L, (long)POSIX_FADV_SEQUENTIAL));
    said("fadvise_willneed", syscall(SYS_fadvise64, fd, 0L, 0L, (long)POSIX_FADV_WILLNEED));
    said("madvise_willneed", syscall(SYS_madvise, map, page, (long)MADV_WILLNEED));
    said("madvise_dontneed", syscall(SYS_madvise, anon, page, (long)MADV_DONTNEED));
    said("preadv2", syscall(SYS_preadv2, fd, &one, 1L, 0L, 0L, 0L));
    said("readahead", syscall(SYS_readahead, fd, 0L, page));
#ifdef __x86_64__
    long result; /* the i386 ABI's fadvise64_64 (call 272): advice is its sixth argument there */
    __asm__ volatile("push %%rbp\n\tmov %7, %%rbp\n\tint $0x80\n\tpop %%rbp"
                     : "=a"(result)
                     : "a"(272L), "b"((long)fd), "c"(0L), "d"(0L), "S"(0L), "D"(0L), "r"((long)POSIX_FADV_DONTNEED)
                     : "memory");
    printf("i386_fadvise64_64 %ld\n", -result);
#endif
    return 0;
}
