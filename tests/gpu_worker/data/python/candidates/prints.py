import sys


def custom_kernel(data):
    print("stdout belongs to the candidate")
    print("so does stderr", file=sys.stderr)
    return [data["a"] * v for v in data["x"]]
