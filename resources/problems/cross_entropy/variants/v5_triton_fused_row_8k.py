import torch
import triton
import triton.language as tl


@triton.jit
def ce_fused(x_ptr, t_ptr, loss_ptr, g_ptr, V, BLOCK: tl.constexpr):
    # One program per row: an online (max, sum) sweep, then a sweep that writes softmax - onehot.
    row = tl.program_id(0)
    base = row.to(tl.int64) * V
    m = tl.full([BLOCK], -float("inf"), tl.float32)
    s = tl.zeros([BLOCK], tl.float32)
    for start in range(0, V, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + offs, mask=offs < V, other=-float("inf")).to(tl.float32) 
        m_new = tl.maximum(m, x)
        s = s * tl.where(m == -float("inf"), 0.0, tl.exp(m - m_new)) + tl.where(x == -float("inf"), 0.0,
                                                                              tl.exp(x - m_new))
        m = m_new
    row_max = tl.max(m, axis=0)
    total = tl.sum(tl.where(m == -float("inf"), 0.0, s * tl.exp(m - row_max)), axis=0)
    lse = row_max + tl.log(total)  # in the scaled domain when the sweep used exp2
    t = tl.load(t_ptr + row)
    for start in range(0, V, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < V
        x = tl.load(x_ptr + base + offs, mask=mask, other=0.0).to(tl.float32) 
        p = tl.exp(x - lse)
        p = tl.where(offs == t, p - 1.0, p)
        tl.store(g_ptr + base + offs, p.to(g_ptr.dtype.element_ty), mask=mask)
    xt = tl.load(x_ptr + base + t).to(tl.float32) 
    tl.store(loss_ptr + row, (lse - xt) )


def custom_kernel(data):
    logits, targets = data
    B, V = logits.shape
    loss = torch.empty(B, device=logits.device, dtype=torch.float32)
    grad = torch.empty_like(logits)
    ce_fused[(B,)](logits, targets, loss, grad, V, BLOCK=8192, num_warps=16)
    return (loss, grad)
