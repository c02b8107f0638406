import torch
import triton
import triton.language as tl


@triton.jit
def chunk_o(q_ptr, k_ptr, v_ptr, h_ptr, g_ptr, o_ptr, T, H, scale,
            K: tl.constexpr, V: tl.constexpr, BT: tl.constexpr, BV: tl.constexpr):
    # Program (value block, chunk, batch*head): the whole chunk's q, k, gates and a BV-wide slice of v and h.
    i_v, i_t, i_bh = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    i_b, i_h = i_bh // H, i_bh % H
    NT = T // BT
    t = i_t * BT + tl.arange(0, BT)
    kk = tl.arange(0, K)
    vv = i_v * BV + tl.arange(0, BV)
    row = (i_b * T + t).to(tl.int64) * H + i_h
    bq = tl.load(q_ptr + row[:, None] * K + kk[None, :])
    bk = tl.load(k_ptr + row[:, None] * K + kk[None, :])
    bv = tl.load(v_ptr + row[:, None] * V + vv[None, :])
    bg = tl.load(g_ptr + row)
    hbase = ((i_b * NT + i_t) * H + i_h).to(tl.int64) * K * V
    bh = tl.load(h_ptr + hbase + kk[:, None] * V + vv[None, :])
    inter = tl.dot(bq, bh, input_precision="tf32") * tl.exp(bg)[:, None]
    a = tl.dot(bq, tl.trans(bk), input_precision="tf32")
    ti = tl.arange(0, BT)
    causal = ti[:, None] >= ti[None, :]
    a = tl.where(causal, a * tl.exp(tl.where(causal, bg[:, None] - bg[None, :], 0.0)), 0.0)
    out = (inter + tl.dot(a, bv, input_precision="tf32")) * scale
    tl.store(o_ptr + row[:, None] * V + vv[None, :], out)


def custom_kernel(data):
    q, k, v, h, g = data
    B, T, H, K = q.shape
    V = v.shape[-1]
    BV = min(64, V)
    o = torch.empty_like(v)
    chunk_o[(V // BV, T // 64, B * H)](q, k, v, h, g, o, T, H, K ** -0.5, K=K, V=V, BT=64, BV=BV,
                                       num_warps=8, num_stages=2)
    return o
