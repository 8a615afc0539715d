/* Nests 3000 folders in its box (past Python's recursion limit and past PATH_MAX), writes a
 * file at the bottom and a link to / on the way, then answers. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void) {
    int at = open(".", O_RDONLY | O_DIRECTORY);
    for (int depth = 0; depth < 3000 && at >= 0; depth++) {
        if (mkdirat(at, "d", 0700) != 0) break;
        if (depth == 10) symlinkat("/", at, "root");
        int next = openat(at, "d", O_RDONLY | O_DIRECTORY);
        close(at);
        at = next;
    }
    if (at >= 0) {
        int file = openat(at, "bottom.txt", O_WRONLY | O_CREAT, 0600);
        if (file >= 0) { write(file, "x", 1); close(file); }
        fchmod(at, 0); /* rootless: the owner itself cannot enter it until it chmods it back */
    }
    puts("nothing");
    return 0;
}
