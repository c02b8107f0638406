import torch


def custom_kernel(data):
    (x,) = data
    t, h = x.shape
    xf = x.to(torch.float32)
    groups = xf.reshape(t, h // 128, 128)
    mags = torch.abs(groups)  # a full-size temporary
    absmax = torch.max(mags, dim=2).values
    absmax = torch.maximum(absmax, torch.full_like(absmax, 1e-10))
    scale = absmax / 448.0
    scaled = groups / scale.unsqueeze(2)  # another
    clipped = torch.clamp(scaled, min=-448.0, max=448.0)  # and another
    q = clipped.to(torch.float8_e4m3fn).reshape(t, h).contiguous()
    return (q, scale.contiguous())
