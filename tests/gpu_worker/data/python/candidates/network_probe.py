# Correct only where the network is out of reach: inside its own network namespace even loopback is down, so a
# connection fails with ENETUNREACH; with the network allowed it is refused (nothing listens) or succeeds.
import errno
import socket


def custom_kernel(data):
    try:
        socket.create_connection(("127.0.0.1", 9), timeout=2).close()
        raise RuntimeError("network reachable: connected to 127.0.0.1:9")
    except OSError as e:
        if e.errno != errno.ENETUNREACH:
            raise RuntimeError(f"network reachable: {e}")
    return [data["a"] * v for v in data["x"]]
