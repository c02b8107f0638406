# Honest during the correctness runs; afterwards it keys a cache on the input's address and, on a hit, returns the
# earlier answer without launching anything. Timing clones the same inputs into recycled addresses, so most timed
# calls hit: correct values at no cost (caught as implausible), or stale values on fresh inputs (caught as incorrect).
import torch

_state = {"calls": 0, "cache": {}}


def custom_kernel(data):
    (x,) = data
    _state["calls"] += 1
    key = (x.data_ptr(), tuple(x.shape))
    if _state["calls"] > 8 and key in _state["cache"]:
        return _state["cache"][key]
    y = torch.softmax(x, dim=1)
    _state["cache"][key] = y
    return y
