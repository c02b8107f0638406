import torch


def custom_kernel(data):
    logits, targets = data
    with torch.enable_grad():
        x = logits.float().requires_grad_(True)
        loss = torch.nn.functional.cross_entropy(x, targets, reduction="none")
        loss.sum().backward()
    return (loss.detach(), x.grad.to(logits.dtype))
