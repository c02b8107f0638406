"""Row softmax over a float32 matrix: the Python twin of the CUDA corpus's row_softmax (same cases and inputs)."""
import torch

NAME = "row_softmax_triton"
BACKEND = "torch"
# A teaching problem about the kernel itself: the speedup compares device time (call time is measured beside it).
SPEEDUP_TIME = "device"
DESCRIPTION = ("y[r, c] = exp(x[r, c] - max_r) / sum_c exp(x[r, c] - max_r), x uniform in [-4, 4]. Memory-bound: "
               "at best one read and one write of the matrix.")
CASES = [
    {"name": "8192x2048", "args": {"rows": 8192, "cols": 2048}},
    {"name": "32768x256", "args": {"rows": 32768, "cols": 256}},
    {"name": "2000x5003", "args": {"rows": 2000, "cols": 5003}},
]
CPU_CASE = {"rows": 16, "cols": 300}
# Sums of exponentials in different orders differ by a few ulp times sqrt(cols); exp2-based variants add ~2 ulp.
TOLERANCE = {"rtol": 1e-4, "atol": 1e-7}


def generate_input(seed, rows, cols, device="cuda"):
    g = torch.Generator(device=device).manual_seed(seed)
    return (torch.rand(rows, cols, generator=g, device=device) * 8.0 - 4.0,)


def ref_kernel(data):
    (x,) = data
    return torch.softmax(x, dim=1)


def bytes_moved(rows, cols):
    return 8 * rows * cols


def flops(rows, cols):
    return 5 * rows * cols
