import torch


def custom_kernel(data):
    logits, targets = data
    x = logits.float()
    m = x.max(dim=1, keepdim=True).values
    e = torch.exp(x - m)
    s = e.sum(dim=1, keepdim=True)
    p = e / s
    loss = (torch.log(s) + m).squeeze(1) - x.gather(1, targets[:, None]).squeeze(1)
    grad = p.clone()
    grad[torch.arange(x.shape[0], device=x.device), targets] -= 1.0
    return (loss, grad.to(logits.dtype))
