import torch


def custom_kernel(data):
    a, b = data
    # float32 operands: without TF32 (PyTorch's default for matmul) this runs on the CUDA cores, not tensor cores.
    return (a.float() @ b.float()).to(torch.float16)
