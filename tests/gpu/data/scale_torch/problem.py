"""y = a * x on the GPU with PyTorch: the sandbox's escape candidates (tests/gpu_worker/data/python/escapes) run
against it on a device (tests/gpu/timing_methods.py --escapes), so the sandbox is tried with CUDA inside it."""
import torch

NAME = "scale_torch"
BACKEND = "torch"
SPEEDUP_TIME = "device"
CASES = [{"name": "n1M", "args": {"n": 1 << 20}}]
TOLERANCE = {"rtol": 1e-6, "atol": 1e-7}


def generate_input(seed, n):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return {"x": torch.rand(n, generator=g, device="cuda"), "a": 2.5}


def ref_kernel(data):
    return data["a"] * data["x"]


def bytes_moved(n):
    return 8 * n
