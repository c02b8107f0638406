import torch


def custom_kernel(data):
    logits, targets = data
    x = logits.float()
    lse = torch.logsumexp(x, dim=1)
    loss = lse - x.gather(1, targets[:, None]).squeeze(1)
    grad = torch.exp(x - lse[:, None])
    grad.scatter_add_(1, targets[:, None], torch.full_like(lse[:, None], -1.0))
    return (loss, grad.to(logits.dtype))
