# Escape: leave a process behind. On its first call it starts a grandchild in a session of its own (setsid, double
# fork) that sleeps with @MARKER@ on its command line, then answers correctly; the test looks for the marker after.
import os
import sys

_started = False


def custom_kernel(data):
    global _started
    if not _started:
        _started = True
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(60)", "@MARKER@"])
            os._exit(0)
        os.wait()
    return [data["a"] * v for v in data["x"]]
