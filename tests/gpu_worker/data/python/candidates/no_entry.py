def kernel(data):
    return [data["a"] * v for v in data["x"]]
