"""gpuf's harness for Python kernel candidates (docs/python-problems.md).

gpuf-measure starts it as a fresh interpreter per candidate: `python3 -m gpuf_harness --job JOB --result RESULT`.
It loads a problem (a PyTorch or standard-library reference, a seeded input generator per case, a checker) and the
candidate's `custom_kernel(data)`, checks correctness on fresh inputs, times candidate then reference with the
GPU MODE stop rule (device time and call time, each), checks again after timing, and writes one JSON result.
"""

HARNESS_VERSION = "1.2.0"
RESULT_FORMAT = "gpuf-python-result/1"
