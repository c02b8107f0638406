import gpuf_no_such_module_for_tests  # noqa: F401


def custom_kernel(data):
    return data["x"]
