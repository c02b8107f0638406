#!/usr/bin/env python3
"""On the GPU machine: the premise of a search's free evaluations (docs/search.md) against the real gpuf-measure and
NVRTC. Sources that differ only in comments, white space or an unused macro compile to the same cubin (the compile
request's binary_sha256, with no arch: the device's), sources that differ in code do not; and the same binary
measured twice gives the same time within its noise, so taking one's measurement for the other loses nothing.
Usage: binary_reuse_check.py [GPUF_MEASURE]   Prints one line per check and exits 1 when one fails."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpuf_worker import Worker, default_binary  # noqa: E402

SRC = 'extern "C" __global__ void copy(const float* x, float* y, int n) ' \
      '{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = x[i]; }'
VARIANTS = [
    ("original", SRC, True),
    ("a comment", SRC + "\n// the same code, another text\n", True),
    ("white space", SRC.replace("{ ", "{\n    ").replace("; ", ";\n    "), True),
    ("an unused macro", "#define UNUSED_TILE 64\n" + SRC, True),
    ("one more global", SRC + "\n__device__ int gpuf_another_binary;\n", False),
    ("another body", SRC.replace("y[i] = x[i]", "y[i] = 2.0f * x[i]"), False),
]


def spec(name, source):
    return {"format": "gpuf-kernel/1", "name": name, "source": source,
            "launches": [{"entry": "copy", "grid": ["ceil_div(n, 256)", "1", "1"], "block": ["256", "1", "1"],
                          "shared_bytes": "0",
                          "args": [{"buffer": "x"}, {"buffer": "y"}, {"scalar": "n", "dtype": "i32"}]}],
            "buffers": [{"name": "x", "dtype": "f32", "count": "n", "role": "input",
                         "init": {"kind": "uniform", "low": -1.0, "high": 1.0, "seed": 1}},
                        {"name": "y", "dtype": "f32", "count": "n", "role": "output"}],
            "cases": [{"name": "64M", "vars": {"n": 64 * 1024 * 1024}}],
            "tolerance": {"rtol": 1e-5, "atol": 1e-6}}


def main():
    worker = Worker(sys.argv[1] if len(sys.argv) > 1 else default_binary(), extra_args=["--no-cache"])
    hello, _ = worker.request({"type": "hello"})
    if not hello or not hello.get("gpu_available"):
        print("no GPU:", hello and hello.get("gpu_unavailable_reason"))
        return 1
    print("device:", hello["devices"][0]["name"])
    failed = 0
    hashes = {}
    for name, source, same in VARIANTS:
        r, wall = worker.request({"type": "compile", "spec": spec(name, source)})
        h = r["compile"].get("binary_sha256", "") if r else ""
        hashes[name] = h
        ok = r is not None and r["status"] == "ok" and len(h) == 64 and ((h == hashes["original"]) == same)
        failed += not ok
        print(f"compile {name:16s} {r and r['status']:8s} {h[:16]}  same as original: {h == hashes['original']}"
              f" (expected {same}) {wall * 1e3:7.1f} ms  {'ok' if ok else 'FAILED'}")
    times = []
    for name in ("original", "a comment", "original", "a comment"):
        source = next(s for n, s, _ in VARIANTS if n == name)
        r, _ = worker.request({"type": "measure", "candidate": spec(name, source)}, timeout_s=300)
        t = r["cases"][0]["timing"]
        times.append(t["median_us"])
        print(f"measure {name:16s} {r['status']:8s} binary {r['compile']['candidate']['binary_sha256'][:16]}"
              f"  median {t['median_us']:.2f} us (rse {t['rel_std_error']:.4f}, n {t['n']})")
    spread = (max(times) - min(times)) / min(times)
    ok = spread < 0.03
    failed += not ok
    print(f"same binary measured 4 times: medians within {spread * 100:.2f} % (< 3 %)  {'ok' if ok else 'FAILED'}")
    worker.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
