import torch
import triton
import triton.language as tl


@triton.jit
def ce_three_pass(x_ptr, t_ptr, loss_ptr, g_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = row.to(tl.int64) * V
    m = tl.full([BLOCK], -float("inf"), tl.float32)
    for start in range(0, V, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        m = tl.maximum(m, tl.load(x_ptr + base + offs, mask=offs < V, other=-float("inf")).to(tl.float32))
    row_max = tl.max(m, axis=0)
    s = tl.zeros([BLOCK], tl.float32)
    for start in range(0, V, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + offs, mask=offs < V, other=-float("inf")).to(tl.float32)
        s += tl.exp(x - row_max)
    lse = row_max + tl.log(tl.sum(s, axis=0))
    t = tl.load(t_ptr + row)
    for start in range(0, V, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < V
        x = tl.load(x_ptr + base + offs, mask=mask, other=0.0).to(tl.float32)
        p = tl.exp(x - lse)
        p = tl.where(offs == t, p - 1.0, p)
        tl.store(g_ptr + base + offs, p.to(g_ptr.dtype.element_ty), mask=mask)
    tl.store(loss_ptr + row, lse - tl.load(x_ptr + base + t).to(tl.float32))


def custom_kernel(data):
    logits, targets = data
    B, V = logits.shape
    loss = torch.empty(B, device=logits.device, dtype=torch.float32)
    grad = torch.empty_like(logits)
    ce_three_pass[(B,)](logits, targets, loss, grad, V, BLOCK=2048, num_warps=8)
    return (loss, grad)
