# One program, every verdict: the first word of the input says what to do.
import sys

words = sys.stdin.read().split()
if words[0] == "add":
    print(int(words[1]) + int(words[2]))
elif words[0] == "loop":
    while True:
        pass
elif words[0] == "alloc":
    block = b"x" * (int(words[1]) << 20)
    print(len(block))
elif words[0] == "crash":
    raise ValueError("crash on purpose")
elif words[0] == "peek":
    print(open(words[1]).read(), end="")
