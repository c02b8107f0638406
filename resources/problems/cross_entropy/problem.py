"""Fused softmax cross-entropy, forward and backward (one of the paper's GPU MODE tasks): per-row loss and the
gradient of the summed loss with respect to the logits, for a batch of 4096 rows over LLM vocabularies."""
import torch

NAME = "cross_entropy"
BACKEND = "torch"
PAPER_TASK = "cross_entropy"
# The paper timed its GPU MODE tasks as single calls after a synchronise (host work included): call time.
SPEEDUP_TIME = "call"
DESCRIPTION = ("logits [B, V] bfloat16, targets [B] int64 -> (loss [B] float32 = logsumexp(x) - x[target], "
               "grad [B, V] bfloat16 = softmax(x) - onehot(target)); B = 4096.")
CASES = [
    {"name": "4096x32000", "args": {"batch": 4096, "vocab": 32000}},
    {"name": "4096x50264", "args": {"batch": 4096, "vocab": 50264}},
    {"name": "4096x128256", "args": {"batch": 4096, "vocab": 128256}},
]
CPU_CASE = {"batch": 8, "vocab": 1000}
TOLERANCE = {"rtol": 1e-2, "atol": 1e-3}  # paper-facts §10


def generate_input(seed, batch, vocab, device="cuda"):
    g = torch.Generator(device=device).manual_seed(seed)
    logits = (torch.randn(batch, vocab, generator=g, device=device) * 2.0).to(torch.bfloat16)
    targets = torch.randint(0, vocab, (batch,), generator=g, device=device)
    return (logits, targets)


def ref_kernel(data):
    logits, targets = data
    x = logits.float()
    lse = torch.logsumexp(x, dim=1)
    loss = lse - x.gather(1, targets[:, None]).squeeze(1)
    grad = torch.exp(x - lse[:, None])
    grad[torch.arange(x.shape[0], device=x.device), targets] -= 1.0
    return (loss, grad.to(logits.dtype))


def bytes_moved(batch, vocab):
    return 4 * batch * vocab + 12 * batch  # read logits once, write grad once (bf16), targets and loss


def flops(batch, vocab):
    return 6 * batch * vocab
