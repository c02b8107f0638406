import torch


def custom_kernel(data):
    x, w, b = data
    mean = x.mean(dim=1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=1, keepdim=True)
    return (x - mean) / torch.sqrt(var + 1e-5) * w + b
