import torch
import triton
import triton.language as tl


@triton.jit
def ce_stats(x_ptr, t_ptr, loss_ptr, lse_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = x_ptr + row.to(tl.int64) * V
    m = tl.full([BLOCK], -float("inf"), tl.float32)
    s = tl.zeros([BLOCK], tl.float32)
    for start in range(0, V, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(base + offs, mask=offs < V, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, x)
        s = s * tl.where(m == -float("inf"), 0.0, tl.exp(m - m_new)) + tl.where(x == -float("inf"), 0.0,
                                                                                 tl.exp(x - m_new))
        m = m_new
    row_max = tl.max(m, axis=0)
    total = tl.sum(tl.where(m == -float("inf"), 0.0, s * tl.exp(m - row_max)), axis=0)
    lse = row_max + tl.log(total)
    t = tl.load(t_ptr + row)
    xt = tl.load(base + t).to(tl.float32)
    tl.store(lse_ptr + row, lse)
    tl.store(loss_ptr + row, lse - xt)


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
    loss = torch.empty(B, device=logits.device, dtype=torch.float32)
    lse = torch.empty_like(loss)
    grad = torch.empty_like(logits)
    ce_stats[(B,)](logits, targets, loss, lse, V, BLOCK=2048, num_warps=8)
    ce_grad[(B, triton.cdiv(V, 2048))](logits, targets, lse, grad, V, BLOCK=2048, num_warps=4)
    return (loss, grad)
