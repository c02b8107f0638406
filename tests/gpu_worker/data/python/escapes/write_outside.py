# Escape: write outside the temporary directory: a folder of the test (@TARGET@ is replaced by its path), the user's
# home as the password database names it, and the system's folders. Correct only when every write fails.
import os
import pwd


def custom_kernel(data):
    home = pwd.getpwuid(os.getuid()).pw_dir
    for folder in ("@TARGET@", home, "/", "/usr/lib", "/etc"):
        try:
            with open(os.path.join(folder, "gpuf-escaped-@MARKER@"), "w") as f:
                f.write("escaped")
        except OSError:
            continue
        raise RuntimeError(f"escaped: wrote into {folder}")
    return [data["a"] * v for v in data["x"]]
