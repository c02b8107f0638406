"""Correct, and writes into the Triton cache folder it was given, as a Triton kernel's first compile does."""
import os


def custom_kernel(data):
    with open(os.path.join(os.environ["TRITON_CACHE_DIR"], "written-by-candidate"), "w") as f:
        f.write("cached")
    a = data["a"]
    return [a * v for v in data["x"]]
