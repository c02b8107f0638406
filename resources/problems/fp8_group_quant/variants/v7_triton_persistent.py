import torch
import triton
import triton.language as tl


@triton.jit
def quant_persistent(x_ptr, q_ptr, s_ptr, n_groups, G: tl.constexpr, GROUP: tl.constexpr):
    blocks = tl.cdiv(n_groups, G)
    for blk in range(tl.program_id(0), blocks, tl.num_programs(0)):
        gid = blk * G + tl.arange(0, G)
        offs = gid[:, None] * GROUP + tl.arange(0, GROUP)[None, :]
        mask = gid[:, None] < n_groups
        x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        scale = tl.maximum(tl.max(tl.abs(x), axis=1), 1e-10) / 448.0
        q = tl.clamp(x / scale[:, None], -448.0, 448.0)
        tl.store(q_ptr + offs, q.to(q_ptr.dtype.element_ty), mask=mask)
        tl.store(s_ptr + gid, scale, mask=gid < n_groups)


def custom_kernel(data):
    (x,) = data
    t, h = x.shape
    n = t * h // 128
    q = torch.empty((t, h), device=x.device, dtype=torch.float8_e4m3fn)
    s = torch.empty((t, h // 128), device=x.device, dtype=torch.float32)
    sms = torch.cuda.get_device_properties(x.device).multi_processor_count
    quant_persistent[(min(triton.cdiv(n, 8), sms * 8),)](x, q, s, n, G=8, GROUP=128, num_warps=4)
    return (q, s)
