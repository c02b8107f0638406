#!/usr/bin/env python3
"""Device check for the row_softmax disagreement: is it the timer or the binary? Times the same kernel source built
three ways (gpuf-measure's own cached cubin, CuPy's NVRTC, nvcc) inside one CuPy process, on two inputs (numpy
uniform, and gpuf-measure's own counter-based uniform values re-created bit for bit), with the same flush-and-events
loop; counts the SASS instructions of each binary that cuobjdump can read. Prints a table; writes
$OUT/binary_check.jsonl."""
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpuf_worker import Worker, default_binary  # noqa: E402
from measure_corpus import build_spec, corpus_variants  # noqa: E402

OUT = os.environ.get("OUT", "/tmp")
CACHE = "/tmp/gpuf-cubins-binary-check"


def splitmix(np, x):
    x = x + np.uint64(0x9E3779B97F4A7C15)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def gpuf_uniform(np, seed, count, lo, hi, salt=0):
    """core/gpu/host_data.cpp's uniform initialiser, element for element."""
    with np.errstate(over="ignore"):
        key = splitmix(np, np.uint64(seed) * np.uint64(0x100000001B3) ^ splitmix(np, np.uint64(salt))) << np.uint64(1)
        u = ((splitmix(np, key + np.arange(count, dtype=np.uint64)) >> np.uint64(11)).astype(np.float64) + 0.5) \
            * (1.0 / 9007199254740992.0)
    return (lo + u * (hi - lo)).astype(np.float32)


def sass_summary(cubin):
    try:
        text = subprocess.run(["cuobjdump", "-sass", cubin], capture_output=True, text=True, timeout=60).stdout
    except Exception as e:
        return {"error": str(e)}
    ops = re.findall(r"/\*[0-9a-f]{4}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_]*)", text)
    return {"instructions": len(ops), "MUFU": sum(o == "MUFU" for o in ops), "BRA": sum(o == "BRA" for o in ops),
            "BSSY": sum(o == "BSSY" for o in ops), "FSEL": sum(o == "FSEL" for o in ops)}


def time_fn(cp, fn, grid, block, args, l2, samples=200):
    flush = cp.empty(max(64 << 20, 2 * l2) // 4, dtype=cp.int32)
    for _ in range(5):
        fn(grid, block, args)
    cp.cuda.Device().synchronize()
    ev = [(cp.cuda.Event(), cp.cuda.Event()) for _ in range(samples)]
    for i, (s, e) in enumerate(ev):
        flush.fill(i)
        s.record()
        fn(grid, block, args)
        e.record()
    ev[-1][1].synchronize()
    return statistics.median(cp.cuda.get_elapsed_time(s, e) * 1e3 for s, e in ev)


def main():
    import cupy as cp
    import numpy as np
    worker = Worker(default_binary(), CACHE)
    info, _ = worker.request({"type": "device_info"}, timeout_s=120)
    l2 = info["device"]["l2_bytes"]
    print("NVRTC used by CuPy:", cp.cuda.nvrtc.getVersion(), " gpuf-measure:", info.get("device", {}).get("name"))
    log = open(os.path.join(OUT, "binary_check.jsonl"), "w")
    tmp = tempfile.mkdtemp()
    for op, problem, variant, folder in corpus_variants("resources/corpus", {"row_softmax"}):
        if variant["name"] not in ("v3_warp_per_row", "v4_online", "v6_online_float4"):
            continue
        spec = build_spec(op, problem, variant, folder)
        compiled, _ = worker.request({"type": "compile", "spec": spec}, timeout_s=120)
        gpuf_cubin = os.path.join(CACHE, compiled["compile"]["cache_key"] + ".cubin")
        src = os.path.join(tmp, variant["name"] + ".cu")
        with open(src, "w") as f:
            f.write(spec["source"])
        nvcc_cubin = os.path.join(tmp, variant["name"] + ".nvcc.cubin")
        nvcc = subprocess.run(["nvcc", "-cubin", "-arch=sm_90", "-std=c++17", "-o", nvcc_cubin, src],
                              capture_output=True, text=True)
        entry = variant["launches"][0]["entry"]
        binaries = {"gpuf_cubin": cp.RawModule(path=gpuf_cubin).get_function(entry),
                    "cupy_nvrtc": cp.RawModule(code=spec["source"], options=("-std=c++17",)).get_function(entry)}
        if nvcc.returncode == 0:
            binaries["nvcc_cubin"] = cp.RawModule(path=nvcc_cubin).get_function(entry)
        sass = {"gpuf_cubin": sass_summary(gpuf_cubin), "nvcc_cubin": sass_summary(nvcc_cubin)}
        for case_name in ("2000x5003", "32768x256"):
            case = next(c for c in problem["cases"] if c["name"] == case_name)
            rows, cols = case["vars"]["rows"], case["vars"]["cols"]
            inputs = {"numpy_uniform": np.random.default_rng(3).uniform(-4, 4, rows * cols).astype(np.float32),
                      "gpuf_values": gpuf_uniform(np, 21, rows * cols, -4.0, 4.0)}
            y = cp.empty(rows * cols, dtype=cp.float32)
            grid = (-(-rows // 8),) if variant["name"] != "v0_block_tree" else (rows,)
            for data_name, host in inputs.items():
                x = cp.asarray(host)
                for bin_name, fn in binaries.items():
                    us = time_fn(cp, fn, grid, (256,), (x, y, np.int32(rows), np.int32(cols)), l2)
                    row = {"variant": variant["name"], "case": case_name, "binary": bin_name, "data": data_name,
                           "median_us": us}
                    log.write(json.dumps(row) + "\n")
                    print(f"{variant['name']:18s} {case_name:10s} {bin_name:11s} {data_name:14s} {us:9.2f} us")
        r, _ = worker.request({"type": "measure", "candidate": spec,
                               "options": {"check_correctness": False, "cases": ["2000x5003"]}}, timeout_s=120)
        print(f"{variant['name']:18s} gpuf-measure itself on 2000x5003: {r['cases'][0]['timing']['median_us']:.2f} us;"
              f" SASS {sass}")
        log.write(json.dumps({"variant": variant["name"], "sass": sass,
                              "gpuf_measure_us": r["cases"][0]["timing"]["median_us"]}) + "\n")
    worker.close()


if __name__ == "__main__":
    main()
