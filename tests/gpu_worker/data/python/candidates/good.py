def custom_kernel(data):
    a = data["a"]
    return [a * v for v in data["x"]]
