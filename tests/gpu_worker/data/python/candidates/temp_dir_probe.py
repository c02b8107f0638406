# Correct only when it runs in a temporary directory of its own, which is also TMPDIR.
import os
import tempfile


def custom_kernel(data):
    here = os.path.realpath(os.getcwd())
    if os.path.realpath(tempfile.gettempdir()) != here or not os.path.basename(here).startswith("gpuf-py-"):
        raise RuntimeError(f"not in its own temporary directory: cwd {here}, TMPDIR {tempfile.gettempdir()}")
    with open("scratch.txt", "w") as f:
        f.write("the candidate may write here")
    return [data["a"] * v for v in data["x"]]
