# Escape: kill the process that started the interpreter (gpuf-measure, without a sandbox). Correct otherwise.
import os
import signal


def custom_kernel(data):
    os.kill(os.getppid(), signal.SIGKILL)
    return [data["a"] * v for v in data["x"]]
