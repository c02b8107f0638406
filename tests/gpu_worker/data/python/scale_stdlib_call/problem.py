"""scale_stdlib whose speedup is taken from call time (SPEEDUP_TIME = "call")."""
import random

NAME = "scale_stdlib_call"
SPEEDUP_TIME = "call"
BACKEND = "stdlib"
CASES = [{"name": "n64", "args": {"n": 64}}, {"name": "n512", "args": {"n": 512}}]
TOLERANCE = {"rtol": 1e-9, "atol": 1e-12}


def generate_input(seed, n):
    rng = random.Random(seed)
    return {"x": [rng.uniform(-1.0, 1.0) for _ in range(n)], "a": 2.5}


def ref_kernel(data):
    return [data["a"] * v for v in data["x"]]


def bytes_moved(n):
    return 16 * n
