# Escape: reach a Unix socket of the host (@SOCKET@ is replaced by the path of one the test listens on), as X11,
# D-Bus or munge would be reached. Correct only when the connection fails.
import socket


def custom_kernel(data):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect("@SOCKET@")
    except OSError:
        return [data["a"] * v for v in data["x"]]
    finally:
        s.close()
    raise RuntimeError("escaped: connected to the host's socket")
