"""FP8 per-token-group quantisation (one of the paper's GPU MODE tasks): groups of 128 consecutive values per row,
scale = absmax / 448 (the largest float8 e4m3 value), q = x / scale rounded to float8_e4m3fn."""
import torch

NAME = "fp8_group_quant"
BACKEND = "torch"
PAPER_TASK = "fp8_quant"
# The paper timed its GPU MODE tasks as single calls after a synchronise (host work included): call time.
SPEEDUP_TIME = "call"
DESCRIPTION = ("x [tokens, hidden] bfloat16 -> q [tokens, hidden] float8_e4m3fn and scales [tokens, hidden/128] "
               "float32; scale = max(absmax, 1e-10) / 448, q = clamp(x / scale, -448, 448).")
GROUP = 128
FP8_MAX = 448.0
CASES = [
    {"name": "1024x4096", "args": {"tokens": 1024, "hidden": 4096}},
    {"name": "4096x7168", "args": {"tokens": 4096, "hidden": 7168}},
    {"name": "16384x7168", "args": {"tokens": 16384, "hidden": 7168}},
]
CPU_CASE = {"tokens": 4, "hidden": 256}
# Scales: the paper's tolerance 1e-3. q: where x / scale falls on a rounding boundary of e4m3, one ulp of float32
# in the division decides the rounding, so q may differ by one e4m3 step (compare() below); nothing else passes.
TOLERANCE = {"rtol": 1e-3, "atol": 1e-3}


def generate_input(seed, tokens, hidden, device="cuda"):
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(tokens, hidden, generator=g, device=device)
    # A few large outliers per row, as in real activations: they decide their group's scale.
    idx = torch.randint(0, hidden, (tokens, 4), generator=g, device=device)
    x.scatter_(1, idx, torch.randn(tokens, 4, generator=g, device=device) * 20.0)
    return (x.to(torch.bfloat16),)


def ref_kernel(data):
    (x,) = data
    t, h = x.shape
    groups = x.float().view(t, h // GROUP, GROUP)
    absmax = groups.abs().amax(dim=2).clamp_min(1e-10)
    scale = absmax / FP8_MAX
    q = (groups / scale[:, :, None]).clamp(-FP8_MAX, FP8_MAX).to(torch.float8_e4m3fn)
    return (q.view(t, h), scale)


def compare(path, cand, ref, rtol, atol, backend):
    """q (out[0]) is compared in e4m3 steps: a difference of at most one step at the reference's magnitude."""
    if path != "out[0]" or not isinstance(cand, torch.Tensor) or cand.shape != ref.shape:
        return backend.compare(path, cand, ref, rtol, atol)
    if cand.dtype != ref.dtype:
        return {"output": path, "shape_mismatch": True, "expected_shape": list(ref.shape),
                "actual": f"dtype {cand.dtype}, expected {ref.dtype}", "elements": ref.numel(),
                "mismatches": ref.numel()}
    c, r = cand.float(), ref.float()
    # One e4m3 step at |r|: 2^(floor(log2|r|) - 3) for normals, 2^-9 in the subnormal range.
    step = torch.exp2(torch.floor(torch.log2(r.abs().clamp_min(2.0 ** -6))) - 3)
    report = backend.compare(path, c, r, 0.0, 0.0)
    bad = ~((c - r).abs() <= step + atol)
    report["mismatches"] = int(bad.sum().item())
    report["rule"] = "at most one float8 e4m3 step apart"
    return report


def bytes_moved(tokens, hidden):
    return 2 * tokens * hidden + tokens * hidden + 4 * tokens * hidden // GROUP


def flops(tokens, hidden):
    return 3 * tokens * hidden
