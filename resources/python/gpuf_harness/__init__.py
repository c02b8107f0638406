"""gpuf's harness for Python kernel candidates (docs/python-problems.md).

gpuf-measure starts it as a fresh interpreter per candidate: `python3 -m gpuf_harness --job JOB --result RESULT`.
It loads a problem (a PyTorch or standard-library reference, a seeded input generator per case, a checker) and the
candidate's `custom_kernel(data)`, checks correctness on fresh inputs, times candidate then reference (device time
under the GPU MODE stop rule, call time as triton.testing.do_bench times it), checks again after timing, takes the
device time from CUPTI's kernel records where it can (after every other timing), and writes one JSON result.
"""

HARNESS_VERSION = "1.3.0"
RESULT_FORMAT = "gpuf-python-result/1"
