import torch
import triton
import triton.language as tl


@triton.jit
def ce_partial(x_ptr, pm_ptr, ps_ptr, V, SPLITS: tl.constexpr, BLOCK: tl.constexpr):
    # Program (row, split): max and sum of exp over one slice of the vocabulary.
    row = tl.program_id(0)
    split = tl.program_id(1)
    width = tl.cdiv(V, SPLITS)
    lo = split * width
    base = row.to(tl.int64) * V
    m = tl.full([BLOCK], -float("inf"), tl.float32)
    s = tl.zeros([BLOCK], tl.float32)
    for start in range(lo, lo + width, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = (offs < V) & (offs < lo + width)
        x = tl.load(x_ptr + base + offs, mask=mask, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, x)
        s = s * tl.where(m == -float("inf"), 0.0, tl.exp(m - m_new)) + tl.where(x == -float("inf"), 0.0,
                                                                                 tl.exp(x - m_new))
        m = m_new
    mx = tl.max(m, axis=0)
    tl.store(pm_ptr + row * SPLITS + split, mx)
    tl.store(ps_ptr + row * SPLITS + split, tl.sum(tl.where(m == -float("inf"), 0.0, s * tl.exp(m - mx)), axis=0))


@triton.jit
def ce_grad(x_ptr, t_ptr, lse_ptr, g_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < V
    off64 = row.to(tl.int64) * V + offs
    x = tl.load(x_ptr + off64, mask=mask, other=0.0).to(tl.float32)
    p = tl.exp(x - tl.load(lse_ptr + row))
    p = tl.where(offs == tl.load(t_ptr + row), p - 1.0, p)
    tl.store(g_ptr + off64, p.to(g_ptr.dtype.element_ty), mask=mask)


def custom_kernel(data):
    logits, targets = data
    B, V = logits.shape
    splits = 8
    pm = torch.empty((B, splits), device=logits.device, dtype=torch.float32)
    ps = torch.empty_like(pm)
    ce_partial[(B, splits)](logits, pm, ps, V, SPLITS=splits, BLOCK=1024, num_warps=4)
    mx = pm.max(dim=1).values
    lse = mx + torch.log((ps * torch.exp(pm - mx[:, None])).sum(dim=1))
    loss = lse - logits.gather(1, targets[:, None]).squeeze(1).float()
    grad = torch.empty_like(logits)
    ce_grad[(B, triton.cdiv(V, 2048))](logits, targets, lse, grad, V, BLOCK=2048, num_warps=4)
    return (loss, grad)
