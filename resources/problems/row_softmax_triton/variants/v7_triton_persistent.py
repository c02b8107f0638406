import torch
import triton
import triton.language as tl


@triton.jit
def softmax_persistent(x_ptr, y_ptr, rows, cols, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < cols
    for row in range(tl.program_id(0), rows, tl.num_programs(0)):
        x = tl.load(x_ptr + row * cols + offs, mask=mask, other=-float("inf"))
        m = tl.max(x, axis=0)
        e = tl.exp(x - m)
        tl.store(y_ptr + row * cols + offs, e / tl.sum(e, axis=0), mask=mask)


def custom_kernel(data):
    (x,) = data
    rows, cols = x.shape
    block = triton.next_power_of_2(cols)
    warps = max(1, min(16, block // 512))
    sms = torch.cuda.get_device_properties(x.device).multi_processor_count
    programs = min(rows, sms * max(1, 16 // warps))  # about as many programs as fit on the chip at once
    y = torch.empty_like(x)
    softmax_persistent[(programs,)](x, y, rows, cols, BLOCK=block, num_warps=warps)
    return y
