# Escape: read the worker's environment. Prints every variable it sees (the failure's log_tail carries the output
# back), names a secret if it finds one, and fails on purpose so that the log comes back.
import os


def custom_kernel(data):
    for name, value in sorted(os.environ.items()):
        print(f"{name}={value}")
    secrets = [n for n in os.environ if n.endswith(("_KEY", "_TOKEN")) or "SECRET" in n]
    raise RuntimeError(f"planted failure; secrets seen: {secrets}")
