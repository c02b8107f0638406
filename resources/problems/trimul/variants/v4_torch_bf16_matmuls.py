import torch


def custom_kernel(data):
    x, mask, p, config = data
    dim, hidden = x.shape[-1], p["left_proj.weight"].shape[0]
    bf = torch.bfloat16
    x = torch.nn.functional.layer_norm(x, (dim,), p["norm.weight"], p["norm.bias"], 1e-5).to(bf)
    w = torch.cat([p["left_proj.weight"], p["right_proj.weight"], p["left_gate.weight"], p["right_gate.weight"], p["out_gate.weight"]], dim=0).to(bf)
    pl, pr, gl, gr, go = (x @ w.T).float().split(hidden, dim=-1)
    m = mask[..., None]
    left = (pl * m * torch.sigmoid(gl)).to(bf)
    right = (pr * m * torch.sigmoid(gr)).to(bf)
    out = torch.einsum("bikh,bjkh->bijh", left, right).float()
    out = torch.nn.functional.layer_norm(out, (hidden,), p["to_out_norm.weight"], p["to_out_norm.bias"], 1e-5)
    return ((out * torch.sigmoid(go)).to(bf) @ p["to_out.weight"].T.to(bf)).float()
