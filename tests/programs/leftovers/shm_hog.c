/* Holds 300 MiB in a SysV shared memory segment, touched, and never removes it: memory the
 * case's cgroup must count, and that must not outlive the case. */
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>

int main(void) {
    size_t size = (size_t)300 << 20;
    int segment = shmget(IPC_PRIVATE, size, IPC_CREAT | 0600);
    if (segment < 0) { perror("shmget"); return 1; }
    char *memory = shmat(segment, NULL, 0);
    if (memory == (char *)-1) { perror("shmat"); return 1; }
    memset(memory, 1, size);
    puts("held");
    return 0;
}
