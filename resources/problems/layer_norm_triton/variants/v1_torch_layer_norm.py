import torch


def custom_kernel(data):
    x, w, b = data
    return torch.nn.functional.layer_norm(x, (x.shape[1],), w, b, 1e-5)
