#!/usr/bin/env python3
"""Device check: every corpus kernel timed by gpuf-measure and by a second, independent method, ratio per
(variant, case); prints the worst ratios last.

The second method shares nothing with gpuf-measure's timing but the binary and the launch description: CuPy loads the
very cubin gpuf-measure compiled (from its cubin cache), numpy draws inputs of the same distributions (not the same
values), and each sample is an L2 flush (a memset of max(2 x L2, 64 MiB), as gpuf-measure does) followed by CUDA
events around the launches, batched like gpuf-measure's samples; the median of --samples samples. Both flush L2.
The binary must be the same one: CuPy's own NVRTC build of row_softmax v4_online ran 1.45x slower than the cubin that
gpuf-measure and nvcc both produce (binary_check.py, H200, 2026-11-26), so comparing separately compiled binaries
measures the compilers, not the timers. --compile-with-cupy restores the old, separately compiled comparison.
Writes $OUT/crosscheck.jsonl. Needs CuPy and numpy (both on the device image).
"""
import argparse
import json
import math
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpuf_worker import Worker, default_binary  # noqa: E402
from measure_corpus import build_spec, corpus_variants  # noqa: E402


def evaluate(expr, variables):
    names = dict(variables)
    names.update({"ceil_div": lambda a, b: -(-int(a) // int(b)), "min": min, "max": max, "__builtins__": {}})
    return int(eval(str(expr).replace("/", "//"), names))  # the spec's integer arithmetic


NP_TYPES = {"f32": "float32", "f16": "float16", "bf16": "uint16", "i32": "int32", "i64": "int64", "u8": "uint8"}


def make_buffer(cp, np, buf, count, rng):
    dtype = NP_TYPES[buf["dtype"]]
    init = buf.get("init")
    if not init:
        return cp.full(count, 0xFF, dtype=np.uint8).view(dtype) if dtype == "uint8" else cp.empty(count, dtype=dtype)
    kind = init["kind"]
    if kind == "uniform":
        host = rng.uniform(init["low"], init["high"], count)
    elif kind == "normal":
        host = rng.normal(init["mean"], init["std"], count)
    elif kind == "constant":
        host = np.full(count, init["value"])
    else:
        host = init.get("start", 0) + init.get("step", 1) * np.arange(count)
    if buf["dtype"] == "bf16":
        bits = np.asarray(host, dtype=np.float32).view(np.uint32)
        return cp.asarray((bits >> 16).astype(np.uint16))
    if buf["dtype"] in ("i32", "i64", "u8"):
        host = np.floor(host)
    return cp.asarray(np.asarray(host).astype(dtype))


def scalar(np, arg, variables):
    value = eval(str(arg["scalar"]).replace("/", "//"),
                 dict(variables, ceil_div=lambda a, b: -(-int(a) // int(b)), min=min, max=max, __builtins__={}))
    return {"i32": np.int32, "i64": np.int64, "f32": np.float32, "f64": np.float64}[arg.get("dtype", "i32")](value)


def cupy_time(cp, np, spec, case, l2_bytes, samples, rng, cubin=None):
    variables = case["vars"]
    if cubin and os.path.isfile(cubin):
        module = cp.RawModule(path=cubin)
    else:
        module = cp.RawModule(code=spec["source"], options=tuple(["-std=c++17"] + list(spec.get("options", []))))
    buffers = {b["name"]: make_buffer(cp, np, b, evaluate(b["count"], variables), rng) for b in spec["buffers"]}
    launches = []
    for launch in spec["launches"]:
        fn = module.get_function(launch["entry"])
        shared = evaluate(launch.get("shared_bytes", "0"), variables)
        if shared > 48 * 1024:
            fn.max_dynamic_shared_size_bytes = shared
        args = tuple(buffers[a["buffer"]] if "buffer" in a else scalar(np, a, variables) for a in launch["args"])
        launches.append((fn, tuple(evaluate(g, variables) for g in launch["grid"]),
                         tuple(evaluate(b, variables) for b in launch["block"]), args, shared))
    flush = cp.empty(max(64 << 20, 2 * l2_bytes) // 4, dtype=cp.int32)
    events = [(cp.cuda.Event(), cp.cuda.Event()) for _ in range(samples)]
    for fn, grid, block, args, shared in launches * 3:  # warm-up
        fn(grid, block, args, shared_mem=shared)
    cp.cuda.Device().synchronize()
    for i, (start, end) in enumerate(events):
        flush.fill(i)
        start.record()
        for fn, grid, block, args, shared in launches:
            fn(grid, block, args, shared_mem=shared)
        end.record()
    events[-1][1].synchronize()
    return statistics.median(cp.cuda.get_elapsed_time(s, e) * 1e3 for s, e in events)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", default="resources/corpus")
    parser.add_argument("--worker", default=default_binary())
    parser.add_argument("--operations", default="")
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--compile-with-cupy", action="store_true",
                        help="let CuPy compile the source instead of loading gpuf-measure's cubin")
    parser.add_argument("--out", default=os.path.join(os.environ.get("OUT", "."), "crosscheck.jsonl"))
    args = parser.parse_args()
    import cupy as cp
    import numpy as np
    rng = np.random.default_rng(21)
    cache = "/tmp/gpuf-cubins-crosscheck"
    worker = Worker(args.worker, cache)
    info, _ = worker.request({"type": "device_info"}, timeout_s=120)
    device = info["device"]
    rows = []
    started = time.perf_counter()
    wanted = {o for o in args.operations.split(",") if o}
    with open(args.out, "w", encoding="utf-8") as out:
        for operation, problem, variant, folder in corpus_variants(args.corpus, wanted):
            spec = build_spec(operation, problem, variant, folder)
            response, _ = worker.request({"type": "measure", "candidate": spec,
                                          "options": {"check_correctness": False}}, timeout_s=300)
            if response is None or response.get("restart_required"):
                worker.restart()
            key = ((response or {}).get("compile") or {}).get("candidate", {}).get("cache_key")
            cubin = None if args.compile_with_cupy or not key else os.path.join(cache, key + ".cubin")
            for case in (response or {}).get("cases", []):
                ours = (case.get("timing") or {}).get("median_us")
                try:
                    theirs = cupy_time(cp, np, spec, next(c for c in problem["cases"] if c["name"] == case["name"]),
                                       device["l2_bytes"], args.samples, rng, cubin)
                except Exception as e:  # a launch CuPy cannot make is reported, not fatal
                    theirs, error = None, f"{type(e).__name__}: {e}"
                else:
                    error = None
                ratio = ours / theirs if ours and theirs else None
                row = {"operation": operation, "variant": variant["name"], "case": case["name"],
                       "gpuf_median_us": ours, "second_method_median_us": theirs, "ratio": ratio,
                       "gpuf_status": case.get("status"), "error": error, "device": device["name"],
                       "binary": "gpuf_cubin" if cubin and os.path.isfile(cubin) else "cupy_nvrtc"}
                rows.append(row)
                out.write(json.dumps(row) + "\n")
                out.flush()
    worker.close()
    good = [r for r in rows if r["ratio"]]
    good.sort(key=lambda r: abs(math.log(r["ratio"])), reverse=True)
    within3 = sum(abs(r["ratio"] - 1) <= 0.03 for r in good)
    within5 = sum(abs(r["ratio"] - 1) <= 0.05 for r in good)
    print(f"crosscheck on {device['name']}: {len(good)} pairs in {time.perf_counter() - started:.0f} s; "
          f"within 3%: {within3}, within 5%: {within5}; median ratio "
          f"{statistics.median(r['ratio'] for r in good):.3f}")
    for r in good[:12]:
        print(f"  {r['operation']:18s} {r['variant']:28s} {r['case']:14s} gpuf {r['gpuf_median_us']:9.2f} us  "
              f"second {r['second_method_median_us']:9.2f} us  ratio {r['ratio']:.3f}")
    failed = [r for r in rows if not r["ratio"]]
    for r in failed[:5]:
        print(f"  not compared: {r['operation']} {r['variant']} {r['case']}: {r['error'] or r['gpuf_status']}")


if __name__ == "__main__":
    main()
