import torch


def custom_kernel(data):
    x, mask, p, config = data
    dim, hidden = x.shape[-1], p["left_proj.weight"].shape[0]
    x = torch.nn.functional.layer_norm(x, (dim,), p["norm.weight"], p["norm.bias"], 1e-5)
    m = mask[..., None]
    left = (x @ p["left_proj.weight"].T) * m * torch.sigmoid(x @ p["left_gate.weight"].T)
    right = (x @ p["right_proj.weight"].T) * m * torch.sigmoid(x @ p["right_gate.weight"].T)
    out = torch.einsum("bikh,bjkh->bijh", left, right)
    out = torch.nn.functional.layer_norm(out, (hidden,), p["to_out_norm.weight"], p["to_out_norm.bias"], 1e-5)
    out = out * torch.sigmoid(x @ p["out_gate.weight"].T)
    return out @ p["to_out.weight"].T
