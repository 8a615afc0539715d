/* Looks for what an earlier case (or another student's program) left in kernel objects that
 * outlive a process, says "nothing" or what it found, then leaves each of them behind. */
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <unistd.h>

struct message { long type; char text[16]; };

int main(void) {
    char found[256] = "";
    struct message got, mark = {1, "mark"};
    int queue = msgget(0x4a55, IPC_CREAT | 0666);
    if (queue >= 0 && msgrcv(queue, &got, sizeof got.text, 0, IPC_NOWAIT) > 0) strcat(found, "message-queue ");
    int segment = shmget(0x4a56, 4096, IPC_CREAT | 0666);
    char *memory = segment >= 0 ? shmat(segment, NULL, 0) : (char *)-1;
    if (memory != (char *)-1 && memcmp(memory, "mark", 4) == 0) strcat(found, "shared-memory ");
    if (semget(0x4a57, 1, IPC_CREAT | IPC_EXCL | 0666) < 0 && errno == EEXIST) strcat(found, "semaphore ");
    if (mq_open("/judge-mark", O_CREAT | O_EXCL | O_RDWR, 0600, NULL) < 0 && errno == EEXIST) strcat(found, "posix-queue ");
    if (syscall(SYS_keyctl, 10, -4, "user", "judge-mark", 0) > 0) strcat(found, "keyring ");
    if (found[0]) found[strlen(found) - 1] = 0;
    printf("%s\n", found[0] ? found : "nothing");
    fflush(stdout);
    msgsnd(queue, &mark, 5, IPC_NOWAIT);
    if (memory != (char *)-1) memcpy(memory, "mark", 4);
    syscall(SYS_add_key, "user", "judge-mark", "mark", 4, -4);
    return 0;
}
