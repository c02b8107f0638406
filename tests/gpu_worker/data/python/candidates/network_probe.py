# Correct only where the network is out of reach: the test listens on the host's loopback (@PORT@ is replaced by its
# port); inside a network namespace of its own the candidate's loopback is another one, so the connection fails
# (refused, or unreachable where loopback is down). With the network allowed it connects.
import socket


def custom_kernel(data):
    try:
        socket.create_connection(("127.0.0.1", int("@PORT@")), timeout=2).close()
    except OSError:
        return [data["a"] * v for v in data["x"]]
    raise RuntimeError("network reachable: connected to the test's port @PORT@ on 127.0.0.1")
