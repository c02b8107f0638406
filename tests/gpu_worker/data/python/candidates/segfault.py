import os
import signal


def custom_kernel(data):
    os.kill(os.getpid(), signal.SIGSEGV)
