import torch


def custom_kernel(data):
    x, mask, p, config = data
    dim, hidden = x.shape[-1], p["left_proj.weight"].shape[0]
    before = torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = True  # restored below: the reference is timed in this process too
    try:
        x = torch.nn.functional.layer_norm(x, (dim,), p["norm.weight"], p["norm.bias"], 1e-5)
        w = torch.cat([p["left_proj.weight"], p["right_proj.weight"], p["left_gate.weight"], p["right_gate.weight"], p["out_gate.weight"]], dim=0)
        pl, pr, gl, gr, go = (x @ w.T).split(hidden, dim=-1)
        m = mask[..., None]
        out = torch.einsum("bikh,bjkh->bijh", pl * m * torch.sigmoid(gl), pr * m * torch.sigmoid(gr))
        out = torch.nn.functional.layer_norm(out, (hidden,), p["to_out_norm.weight"], p["to_out_norm.bias"], 1e-5)
        return (out * torch.sigmoid(go)) @ p["to_out.weight"].T
    finally:
        torch.backends.cuda.matmul.allow_tf32 = before
