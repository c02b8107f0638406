#!/usr/bin/env python3
"""Device investigation: which time is right for the corpus kernels where gpuf-measure and an independent timing
disagreed (row_softmax v4_online and v6_online_float4), with v3_warp_per_row as a control that agreed.

Methods, all with the same source and launches: gpuf-measure (CUDA events; CUPTI records; events without flush),
CuPy with events batched like gpuf-measure, CuPy with a host synchronisation around every sample (the usual
hand-written loop), PyTorch's profiler (CUPTI kernel records, a third clock) around the CuPy launches, and Nsight
Compute's gpu__time_duration with its clocks left alone and with its default base-clock locking. NVML clocks are read
around each method. Prints one table; writes $OUT/timing_trust.jsonl.
"""
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from crosscheck_corpus import evaluate, make_buffer, scalar  # noqa: E402
from gpuf_worker import Worker, default_binary  # noqa: E402
from measure_corpus import build_spec, corpus_variants  # noqa: E402

OUT = os.environ.get("OUT", "/tmp")
VARIANTS = ("v3_warp_per_row", "v4_online", "v6_online_float4")
CASES = ("2000x5003", "32768x256")


def clocks():
    try:
        return subprocess.run(["nvidia-smi", "--query-gpu=clocks.sm,clocks.mem", "--format=csv,noheader"],
                              capture_output=True, text=True, timeout=20).stdout.strip()
    except Exception as e:  # nvidia-smi missing: say so in the table
        return f"n/a ({e})"


def prepare(cp, np, spec, case, rng, sorted_rows=False):
    variables = case["vars"]
    module = cp.RawModule(code=spec["source"], options=("-std=c++17",))
    buffers = {b["name"]: make_buffer(cp, np, b, evaluate(b["count"], variables), rng) for b in spec["buffers"]}
    launches = []
    for launch in spec["launches"]:
        fn = module.get_function(launch["entry"])
        args = tuple(buffers[a["buffer"]] if "buffer" in a else scalar(np, a, variables) for a in launch["args"])
        launches.append((fn, tuple(evaluate(g, variables) for g in launch["grid"]),
                         tuple(evaluate(b, variables) for b in launch["block"]), args,
                         evaluate(launch.get("shared_bytes", "0"), variables)))
    return launches, buffers


def run(launches):
    for fn, grid, block, args, shared in launches:
        fn(grid, block, args, shared_mem=shared)


def cupy_methods(cp, launches, l2, samples=200):
    flush = cp.empty(max(64 << 20, 2 * l2) // 4, dtype=cp.int32)
    for _ in range(5):
        run(launches)
    cp.cuda.Device().synchronize()
    ev = [(cp.cuda.Event(), cp.cuda.Event()) for _ in range(samples)]
    for i, (s, e) in enumerate(ev):
        flush.fill(i)
        s.record()
        run(launches)
        e.record()
    ev[-1][1].synchronize()
    batched = statistics.median(cp.cuda.get_elapsed_time(s, e) * 1e3 for s, e in ev)
    synced = []
    for i in range(samples):
        cp.cuda.Device().synchronize()
        flush.fill(i)
        s, e = ev[i]
        s.record()
        run(launches)
        e.record()
        e.synchronize()
        synced.append(cp.cuda.get_elapsed_time(s, e) * 1e3)
    return batched, statistics.median(synced), flush


def profiler_method(cp, launches, flush, samples=100):
    import torch
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for i in range(samples):
            flush.fill(i)
            run(launches)
        cp.cuda.Device().synchronize()
        torch.cuda.synchronize()
    durations = [e.device_time if hasattr(e, "device_time") else e.cuda_time for e in prof.events()
                 if "softmax" in e.name]
    per_sample = len(launches)
    spans = [sum(durations[i:i + per_sample]) for i in range(0, len(durations) - per_sample + 1, per_sample)]
    return statistics.median(spans) if spans else None, len(durations)


LAUNCHER = r'''
import sys, json, numpy as np, cupy as cp
sys.path.insert(0, "tests/gpu")
from timing_trust import prepare, run
from measure_corpus import build_spec, corpus_variants
spec_name, case_name, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
for op, problem, variant, folder in corpus_variants("resources/corpus", {"row_softmax"}):
    if variant["name"] == spec_name:
        spec = build_spec(op, problem, variant, folder)
        case = next(c for c in problem["cases"] if c["name"] == case_name)
launches, _ = prepare(cp, np, spec, case, np.random.default_rng(5))
for _ in range(n):
    run(launches)
cp.cuda.Device().synchronize()
'''


def ncu_method(variant, case, clock_control):
    path = os.path.join("/tmp", "gpuf_ncu_launcher.py")
    with open(path, "w") as f:
        f.write(LAUNCHER)
    cmd = ["ncu", "--csv", "--clock-control", clock_control, "--cache-control", "all", "--launch-skip", "2",
           "--launch-count", "5", "--metrics", "gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second",
           sys.executable, path, variant, case, "7"]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except Exception as e:
        return None, None, f"{type(e).__name__}: {e}"
    times, clocks_hz = [], []
    for line in p.stdout.splitlines():
        cells = [c.strip('"') for c in line.split('","')]
        if len(cells) > 3 and "gpu__time_duration.sum" in line:
            times.append((cells[-2], float(cells[-1].replace(",", ""))))
        if len(cells) > 3 and "sm__cycles_elapsed.avg.per_second" in line:
            clocks_hz.append((cells[-2], float(cells[-1].replace(",", ""))))
    if not times:
        return None, None, (p.stderr or p.stdout)[-400:]
    unit, _ = times[0]
    per_us = {"ns": 1e3, "nsecond": 1e3, "us": 1.0, "usecond": 1.0, "ms": 1e-3, "msecond": 1e-3}
    if unit not in per_us:
        return None, None, f"ncu reported gpu__time_duration in an unknown unit {unit!r}"
    us = statistics.median(v for _, v in times) / per_us[unit]
    clk = statistics.median(v for _, v in clocks_hz) if clocks_hz else None
    cu = clocks_hz[0][0] if clocks_hz else ""
    return us, (clk, cu), None


def main():
    import cupy as cp
    import numpy as np
    worker = Worker(default_binary(), "/tmp/gpuf-cubins")
    info, _ = worker.request({"type": "device_info"}, timeout_s=120)
    l2 = info["device"]["l2_bytes"]
    rng = np.random.default_rng(21)
    table = []
    log = open(os.path.join(OUT, "timing_trust.jsonl"), "w")
    for op, problem, variant, folder in corpus_variants("resources/corpus", {"row_softmax"}):
        if variant["name"] not in VARIANTS:
            continue
        spec = build_spec(op, problem, variant, folder)
        for case_name in CASES:
            case = next(c for c in problem["cases"] if c["name"] == case_name)
            row = {"variant": variant["name"], "case": case_name, "clocks_start": clocks()}
            for label, options in (("gpuf_events", {}), ("gpuf_cupti", {"timing": "cupti"}),
                                   ("gpuf_events_noflush", {"flush_l2": False})):
                options = dict(options, check_correctness=False, cases=[case_name])
                r, _ = worker.request({"type": "measure", "candidate": spec, "options": options}, timeout_s=300)
                t = r["cases"][0]["timing"]
                row[label] = t["median_us"]
                row[label + "_method"] = t["method"]
            launches, _ = prepare(cp, np, spec, case, rng)
            row["cupy_events_batched"], row["cupy_events_synced"], flush = cupy_methods(cp, launches, l2)
            try:
                row["torch_profiler_cupti"], row["torch_profiler_records"] = profiler_method(cp, launches, flush)
            except Exception as e:
                row["torch_profiler_error"] = f"{type(e).__name__}: {e}"
            for cc in ("none", "base"):
                us, clk, err = ncu_method(variant["name"], case_name, cc)
                row[f"ncu_clock_{cc}"] = us
                row[f"ncu_clock_{cc}_sm_clock"] = clk
                if err:
                    row[f"ncu_clock_{cc}_error"] = err
            row["clocks_end"] = clocks()
            table.append(row)
            log.write(json.dumps(row) + "\n")
            log.flush()
    worker.close()
    keys = ["gpuf_events", "gpuf_cupti", "gpuf_events_noflush", "cupy_events_batched", "cupy_events_synced",
            "torch_profiler_cupti", "ncu_clock_none", "ncu_clock_base"]
    print("timing trust (median us):", " | ".join(keys))
    for r in table:
        cells = " ".join(f"{r.get(k):9.2f}" if isinstance(r.get(k), (int, float)) else f"{'-':>9s}" for k in keys)
        print(f"{r['variant']:18s} {r['case']:10s} {cells}  ncu sm clocks {r.get('ncu_clock_none_sm_clock')} / "
              f"{r.get('ncu_clock_base_sm_clock')}  nvml {r['clocks_start']} -> {r['clocks_end']}")
        for k in ("torch_profiler_error", "ncu_clock_none_error"):
            if k in r:
                print(f"   {k}: {r[k][:300]}")


if __name__ == "__main__":
    main()
