def custom_kernel(data):
    raise ValueError("planted failure in custom_kernel")
