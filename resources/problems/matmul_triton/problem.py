"""Half-precision matrix product C = A @ B with float32 accumulation (the teaching problem for tensor cores)."""
import torch

NAME = "matmul_triton"
BACKEND = "torch"
# A teaching problem about the kernel itself: the speedup compares device time (call time is measured beside it).
SPEEDUP_TIME = "device"
DESCRIPTION = "C[M, N] = A[M, K] @ B[K, N] in float16 with float32 accumulation; A and B ~ N(0, 0.5^2)."
CASES = [
    {"name": "2048x2048x2048", "args": {"m": 2048, "n": 2048, "k": 2048}},
    {"name": "4096x4096x4096", "args": {"m": 4096, "n": 4096, "k": 4096}},
    {"name": "8192x1024x8192", "args": {"m": 8192, "n": 1024, "k": 8192}},
]
CPU_CASE = {"m": 64, "n": 48, "k": 80}
# Outputs have a spread of about 0.25*sqrt(K) (11 to 23 here); fp16 rounds them to ~0.01. Accumulation order
# (split-K, tile shape) moves results by far less than that.
TOLERANCE = {"rtol": 1e-2, "atol": 5e-2}


def generate_input(seed, m, n, k, device="cuda"):
    g = torch.Generator(device=device).manual_seed(seed)
    dtype = torch.float16 if device != "cpu" else torch.float32
    a = (torch.randn(m, k, generator=g, device=device) * 0.5).to(dtype)
    b = (torch.randn(k, n, generator=g, device=device) * 0.5).to(dtype)
    return (a, b)


def ref_kernel(data):
    a, b = data
    return a @ b


def bytes_moved(m, n, k):
    return 2 * (m * k + k * n + m * n)


def flops(m, n, k):
    return 2 * m * n * k
