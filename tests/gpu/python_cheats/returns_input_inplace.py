# Softmax written into the input tensor it was given, which it then returns: the values are right, but the output
# shares storage with the input.
import torch


def custom_kernel(data):
    (x,) = data
    x.copy_(torch.softmax(x, dim=1))
    return x
