"""Gated DeltaNet, chunk forward of the output (chunk_fwd_o; one of the paper's GPU MODE tasks): per chunk of 64
tokens, the inter-chunk part q exp(g) h plus the causal intra-chunk attention (q k^T * exp(g_t - g_s)) v."""
import torch

NAME = "gdn_chunk_o"
BACKEND = "torch"
PAPER_TASK = "gated_deltanet_chunk_fwd_o"
# The paper timed its GPU MODE tasks as single calls after a synchronise (host work included): call time.
SPEEDUP_TIME = "call"
DESCRIPTION = ("q, k [B, T, H, K], v [B, T, H, V], h [B, T/64, H, K, V] (state entering each chunk), g [B, T, H] "
               "(log decay, cumulative within a chunk), all float32 -> o [B, T, H, V] = scale * (exp(g_t) q_t h_c + "
               "sum_{s<=t in chunk} (q_t . k_s) exp(g_t - g_s) v_s), scale = K^-1/2, chunk 64.")
CHUNK = 64
CASES = [
    {"name": "b1_t4096_h16_d128", "args": {"batch": 1, "tokens": 4096, "heads": 16, "dk": 128, "dv": 128}},
    {"name": "b2_t8192_h16_d128", "args": {"batch": 2, "tokens": 8192, "heads": 16, "dk": 128, "dv": 128}},
    {"name": "b4_t2048_h32_d64", "args": {"batch": 4, "tokens": 2048, "heads": 32, "dk": 64, "dv": 64}},
]
CPU_CASE = {"batch": 1, "tokens": 128, "heads": 2, "dk": 16, "dv": 16}
TOLERANCE = {"rtol": 1e-3, "atol": 1e-3}  # paper-facts §10


def generate_input(seed, batch, tokens, heads, dk, dv, device="cuda"):
    g = torch.Generator(device=device).manual_seed(seed)
    q = torch.nn.functional.normalize(torch.randn(batch, tokens, heads, dk, generator=g, device=device), dim=-1)
    k = torch.nn.functional.normalize(torch.randn(batch, tokens, heads, dk, generator=g, device=device), dim=-1)
    v = torch.randn(batch, tokens, heads, dv, generator=g, device=device)
    h = torch.randn(batch, tokens // CHUNK, heads, dk, dv, generator=g, device=device)
    decay = -0.05 * torch.rand(batch, tokens // CHUNK, CHUNK, heads, generator=g, device=device)
    gates = decay.cumsum(dim=2).reshape(batch, tokens, heads)
    return (q, k, v, h, gates)


def ref_kernel(data):
    q, k, v, h, g = data
    B, T, H, K = q.shape
    V = v.shape[-1]
    C, NT = CHUNK, T // CHUNK
    before = torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = False  # an IEEE float32 reference whatever the caller set
    try:
        qc = q.view(B, NT, C, H, K).permute(0, 3, 1, 2, 4)
        kc = k.view(B, NT, C, H, K).permute(0, 3, 1, 2, 4)
        vc = v.view(B, NT, C, H, V).permute(0, 3, 1, 2, 4)
        gc = g.view(B, NT, C, H).permute(0, 3, 1, 2)
        inter = (qc * torch.exp(gc)[..., None]) @ h.permute(0, 2, 1, 3, 4)
        causal = torch.ones(C, C, dtype=torch.bool, device=q.device).tril()
        a = (qc @ kc.transpose(-1, -2)) * torch.exp((gc[..., :, None] - gc[..., None, :]).masked_fill(~causal, 0))
        a = a.masked_fill(~causal, 0.0)
        o = (inter + a @ vc) * K ** -0.5
        return o.permute(0, 2, 3, 1, 4).reshape(B, T, H, V)
    finally:
        torch.backends.cuda.matmul.allow_tf32 = before


def bytes_moved(batch, tokens, heads, dk, dv):
    return 4 * batch * heads * (tokens * (2 * dk + 2 * dv + 1) + tokens // CHUNK * dk * dv)


def flops(batch, tokens, heads, dk, dv):
    return 2 * batch * heads * tokens * (dk * dv + CHUNK * dk + CHUNK * dv)
