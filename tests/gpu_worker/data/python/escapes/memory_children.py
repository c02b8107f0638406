# Escape: exceed the memory limit with several processes, each below it. Four children hold 120 MiB each (filled, so
# resident) and sleep; the parent waits for them.
import os
import time


def custom_kernel(data):
    children = []
    for _ in range(4):
        pid = os.fork()
        if pid == 0:
            hold = b"\x01" * (120 * 2**20)
            time.sleep(60 + len(hold) * 0)
            os._exit(0)
        children.append(pid)
    for pid in children:
        os.waitpid(pid, 0)
    return [data["a"] * v for v in data["x"]]
