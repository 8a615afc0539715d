/* The page cache as a channel from a secret case to a later run (docs/sandbox.md, "The page
 * cache"). Its input says which side it plays:
 *   w PATH HEX   a secret case: it reads one page of PATH for each bit of HEX that is set
 *                (page i for bit i, readahead off), which brings those pages into the cache;
 *   r PATH BITS  a later run (a sample case of another submission, whose output its student
 *                sees): it times a one-byte read of each of the first BITS pages and prints 1
 *                for each page that answered at once (cached) and 0 for one that had to be
 *                read, as hex digits, then how many of each and their median times;
 *   anything else: nothing.
 * A cached page answers in about 1 us; one read from a disk in 48 us or more. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_BITS 4096
#define THRESHOLD_NS 15000

static long now_ns(void) {
    struct timespec at;
    clock_gettime(CLOCK_MONOTONIC, &at);
    return at.tv_sec * 1000000000L + at.tv_nsec;
}

static int by_value(const void *a, const void *b) {
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

static int write_bits(int fd, long page, const char *secret) {
    char byte;
    for (size_t i = 0; i < 4 * strlen(secret) && i < MAX_BITS; i++) {
        char digit = secret[i / 4];
        int value = digit <= '9' ? digit - '0' : (digit | 0x20) - 'a' + 10;
        if ((value >> (3 - i % 4) & 1) && pread(fd, &byte, 1, (off_t)i * page) != 1) return 4;
    }
    printf("written\n");
    return 0;
}

static int read_bits(int fd, long page, int bits) {
    static long times[MAX_BITS], fast[MAX_BITS], slow[MAX_BITS];
    int nfast = 0, nslow = 0;
    char byte;
    if (bits <= 0 || bits > MAX_BITS || bits % 4) return 2;
    for (int i = 0; i < bits; i++) {
        long start = now_ns();
        if (pread(fd, &byte, 1, (off_t)i * page) != 1) return 4;
        times[i] = now_ns() - start;
    }
    for (int i = 0; i < bits; i += 4) {
        int digit = 0;
        for (int j = i; j < i + 4; j++) digit = digit << 1 | (times[j] < THRESHOLD_NS);
        putchar("0123456789abcdef"[digit]);
    }
    for (int i = 0; i < bits; i++) {
        if (times[i] < THRESHOLD_NS) fast[nfast++] = times[i];
        else slow[nslow++] = times[i];
    }
    qsort(fast, nfast, sizeof(long), by_value);
    qsort(slow, nslow, sizeof(long), by_value);
    printf("\ncached %d median %ld ns; uncached %d median %ld ns\n", nfast, nfast ? fast[nfast / 2] : 0L, nslow,
           nslow ? slow[nslow / 2] : 0L);
    return 0;
}

int main(void) {
    char side[8], path[4096], what[1100];
    if (scanf("%7s %4095s %1099s", side, path, what) != 3) {
        printf("nothing\n");
        return 0;
    }
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        perror(path);
        return 3;
    }
    posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM); /* one page per read: no readahead */
    long page = sysconf(_SC_PAGESIZE);
    if (side[0] == 'w') return write_bits(fd, page, what);
    if (side[0] == 'r') return read_bits(fd, page, atoi(what));
    return 2;
}
