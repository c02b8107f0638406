import torch


def custom_kernel(data):
    (x,) = data
    t, h = x.shape
    groups = x.float().view(t, h // 128, 128)
    scale = groups.abs().amax(dim=2).clamp_min(1e-10) / 448.0
    q = (groups / scale[:, :, None]).clamp(-448.0, 448.0).to(torch.float8_e4m3fn)
    return (q.view(t, h), scale)
