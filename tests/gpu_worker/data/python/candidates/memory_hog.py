def custom_kernel(data):
    hog = []
    while True:
        hog.append(bytearray(16 * 2**20))
