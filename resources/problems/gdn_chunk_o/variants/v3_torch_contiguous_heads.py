import torch


def custom_kernel(data):
    q, k, v, h, g = data
    B, T, H, K = q.shape
    V = v.shape[-1]
    C, NT = 64, T // 64
    # Copy to head-major contiguous layout first, so every batched GEMM reads unit-stride tiles.
    qc = q.view(B, NT, C, H, K).permute(0, 3, 1, 2, 4).contiguous()
    kc = k.view(B, NT, C, H, K).permute(0, 3, 1, 2, 4).contiguous()
    vc = v.view(B, NT, C, H, V).permute(0, 3, 1, 2, 4).contiguous()
    gc = g.view(B, NT, C, H).permute(0, 3, 1, 2).contiguous()
    hc = h.permute(0, 2, 1, 3, 4).contiguous()
    eg = torch.exp(gc)
    causal = torch.ones(C, C, dtype=torch.bool, device=q.device).tril()
    decay = torch.exp((gc[..., :, None] - gc[..., None, :]).masked_fill(~causal, 0)).masked_fill(~causal, 0.0)
    o = ((qc * eg[..., None]) @ hc + ((qc @ kc.transpose(-1, -2)) * decay) @ vc) * K ** -0.5
    return o.permute(0, 2, 3, 1, 4).reshape(B, T, H, V)
