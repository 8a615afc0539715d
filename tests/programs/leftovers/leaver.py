# Looks for what an earlier case (or another student's program) left in kernel objects that
# outlive a process, says "nothing" or what it found, then leaves each of them behind.
import ctypes
import os
import platform
import socket

libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
found = []
IPC_CREAT, IPC_EXCL, IPC_NOWAIT = 0o1000, 0o2000, 0o4000
queue = libc.msgget(0x4A55, IPC_CREAT | 0o666)
message = ctypes.create_string_buffer(64)
if queue >= 0 and libc.msgrcv(queue, message, 32, 0, IPC_NOWAIT) > 0:
    found.append("message-queue")
segment = libc.shmget(0x4A56, 4096, IPC_CREAT | 0o666)
memory = libc.shmat(segment, None, 0) if segment >= 0 else None
if memory not in (None, ctypes.c_void_p(-1).value) and ctypes.string_at(memory, 4) == b"mark":
    found.append("shared-memory")
if libc.semget(0x4A57, 1, IPC_CREAT | IPC_EXCL | 0o666) < 0 and ctypes.get_errno() == 17:  # EEXIST
    found.append("semaphore")
if libc.mq_open(b"/judge-mark", os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o600, None) < 0 and ctypes.get_errno() == 17:
    found.append("posix-queue")
ADD_KEY, KEYCTL = {"x86_64": (248, 250), "aarch64": (217, 219)}[platform.machine()]
USER_KEYRING, SEARCH = -4, 10
if libc.syscall(KEYCTL, SEARCH, USER_KEYRING, b"user", b"judge-mark", 0) > 0:
    found.append("keyring")
probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:
    probe.connect("\0judge-mark")
    found.append("abstract-socket")
except OSError:
    pass
print(" ".join(found) or "nothing", flush=True)
libc.msgsnd(queue, b"\x01\0\0\0\0\0\0\0mark", 4, IPC_NOWAIT)
if memory not in (None, ctypes.c_void_p(-1).value):
    ctypes.memmove(memory, b"mark", 4)
libc.syscall(ADD_KEY, b"user", b"judge-mark", b"mark", 4, USER_KEYRING)
# a daemon holding an abstract socket, for as long as anything lets it live
if os.fork() == 0:
    os.setsid()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind("\0judge-mark")
    listener.listen(1)
    os.pause()
