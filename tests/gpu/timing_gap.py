#!/usr/bin/env python3
"""Why the harness and triton.testing.do_bench disagree on some candidates (device script, one process).

Two questions, each answered by timing the same candidate on the same inputs in several ways, side by side:
  gap    matmul_triton (and controls): the harness's figure against do_bench's, with the SM clock, power and the
         driver's clock-event reasons sampled through NVML while each method runs; do_bench's own loop re-run keeping
         every repetition (does the time drift while it runs?), the same loop paced by a host pause after each
         repetition, and the harness after a second of back-to-back load.
  noise  short kernels (fp8_group_quant, layer_norm_triton): the harness as shipped, with the garbage collector off,
         with a launch guard (a GPU spin before the start event), and both; every sample kept, with the host time
         each call took, so a slow launch shows up next to a slow sample.
The harness timing is the shipped code (gpuf_harness.runner.Harness.time), imported here rather than started through
gpuf-measure, so every variant runs within seconds of the others. Writes $OUT/timing_gap.jsonl; prints a table.
Usage: timing_gap.py --harness-dir DIR --problems resources/problems [--only gap|noise]"""
import argparse
import importlib.util
import json
import os
import statistics
import sys
import threading
import time

OUT = os.environ.get("OUT", "/tmp")

GAP_CASES = [("matmul_triton", "v6_triton_tiles_128x256", "4096x4096x4096"),
             ("matmul_triton", "v0_torch_matmul", "4096x4096x4096"),
             ("matmul_triton", "v6_triton_tiles_128x256", "8192x1024x8192"),
             ("matmul_triton", "v6_triton_tiles_128x256", "2048x2048x2048"),
             ("cross_entropy", "v4_triton_fused_row", "4096x128256")]
NOISE_CASES = [("fp8_group_quant", "v5_triton_groups_2d_wide", "1024x4096"),
               ("fp8_group_quant", "v5_triton_groups_2d_wide", "4096x7168"),
               ("fp8_group_quant", "v4_triton_groups_2d", "1024x4096"),
               ("layer_norm_triton", "v3_triton_row_block_warps", "8192x4096"),
               ("row_softmax_triton", "v3_triton_row_block_warps", "32768x256")]


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Clocks:
    """NVML readings every few milliseconds in a thread; window(t0, t1) summarises those inside an interval."""

    def __init__(self, period_s=0.004):
        self.readings, self.period, self.stop = [], period_s, threading.Event()
        try:
            import pynvml
            pynvml.nvmlInit()
            self.nvml, self.handle = pynvml, pynvml.nvmlDeviceGetHandleByIndex(0)
        except Exception as e:  # noqa: BLE001 - the timings still mean something without clocks
            self.nvml, self.error = None, f"{type(e).__name__}: {e}"
            return
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def reasons(self):
        n = self.nvml
        for name in ("nvmlDeviceGetCurrentClocksEventReasons", "nvmlDeviceGetCurrentClocksThrottleReasons"):
            if hasattr(n, name):
                return int(getattr(n, name)(self.handle))
        return 0

    def run(self):
        n, h = self.nvml, self.handle
        while not self.stop.is_set():
            try:
                self.readings.append((time.monotonic(), n.nvmlDeviceGetClockInfo(h, n.NVML_CLOCK_SM),
                                      n.nvmlDeviceGetPowerUsage(h) / 1000.0, self.reasons(),
                                      n.nvmlDeviceGetTemperature(h, n.NVML_TEMPERATURE_GPU)))
            except Exception:  # noqa: BLE001
                pass
            time.sleep(self.period)

    def window(self, t0, t1):
        inside = [r for r in self.readings if t0 <= r[0] <= t1]
        if not inside:
            return {"readings": 0}
        reasons = 0
        for r in inside:
            reasons |= r[3]
        # Bits of nvmlClocksEventReasons: 0x1 idle, 0x4 SW power cap, 0x8 HW slowdown, 0x20 SW thermal,
        # 0x40 HW thermal, 0x80 HW power brake.
        names = {0x1: "idle", 0x4: "sw_power_cap", 0x8: "hw_slowdown", 0x20: "sw_thermal", 0x40: "hw_thermal",
                 0x80: "hw_power_brake"}
        return {"readings": len(inside), "sm_mhz_mean": statistics.fmean(r[1] for r in inside),
                "sm_mhz_min": min(r[1] for r in inside), "sm_mhz_max": max(r[1] for r in inside),
                "power_w_mean": statistics.fmean(r[2] for r in inside), "power_w_max": max(r[2] for r in inside),
                "temp_c_max": max(r[4] for r in inside),
                "power_cap_share": sum(1 for r in inside if r[3] & 0x4) / len(inside),
                "reasons": sorted(v for k, v in names.items() if reasons & k)}

    def close(self):
        self.stop.set()


def summary(times_us):
    n = len(times_us)
    tenth = max(1, n // 10)
    return {"n": n, "mean_us": statistics.fmean(times_us), "median_us": statistics.median(times_us),
            "min_us": min(times_us), "first10pct_mean_us": statistics.fmean(times_us[:tenth]),
            "last10pct_mean_us": statistics.fmean(times_us[-tenth:])}


def dobench_series(torch, fn, cache, rep_ms=100.0, warmup_ms=25.0, pause_s=0.0):
    """triton.testing.do_bench's loop (estimate from 5 calls, warm-up, then repetitions each after zeroing the 256 MB
    buffer, events queued back to back), keeping each repetition's time; pause_s > 0 syncs and sleeps after each."""
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize()
    start.record()
    for _ in range(5):
        cache.zero_()
        fn()
    end.record()
    torch.cuda.synchronize()
    estimate = start.elapsed_time(end) / 5
    n_warmup, n_repeat = max(1, int(warmup_ms / estimate)), max(1, int(rep_ms / estimate))
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(n_repeat)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(n_repeat)]
    for _ in range(n_warmup):
        fn()
    for i in range(n_repeat):
        cache.zero_()
        starts[i].record()
        fn()
        ends[i].record()
        if pause_s:
            torch.cuda.synchronize()
            time.sleep(pause_s)
    torch.cuda.synchronize()
    return [s.elapsed_time(e) * 1e3 for s, e in zip(starts, ends)]


class Setup:
    def __init__(self, problems, harness_dir):
        sys.path.insert(0, harness_dir)
        import torch
        from gpuf_harness import runner
        from gpuf_harness.backends import TorchBackend
        self.torch, self.runner, self.problems = torch, runner, problems
        props = torch.cuda.get_device_properties(0)
        # The worker hands the harness the device's nominal SM clock; 1980 MHz is every Hopper card's here.
        self.device = {"ordinal": 0, "l2_bytes": getattr(props, "L2_cache_size", 0), "sm_clock_khz": 1980000}
        self.backend = TorchBackend(self.device)
        self.gpu = props.name

    def case(self, problem, variant, case_name):
        folder = os.path.join(self.problems, problem)
        mod = load(os.path.join(folder, "problem.py"), f"p_{problem}")
        with open(os.path.join(folder, "variants.json"), encoding="utf-8") as f:
            files = {v["name"]: v["file"] for v in json.load(f)["variants"]}
        cand = load(os.path.join(folder, files[variant]), f"c_{problem}_{variant}")
        case = next(c for c in mod.CASES if c["name"] == case_name)
        data = mod.generate_input(seed=int(case.get("seed", 42)) + 7919, **case["args"])
        return cand.custom_kernel, data

    def harness(self, fn, data, **options):
        opts = {"max_samples": 100, "target_rse": 0.001, "time_budget_ms": 1500, "wall_budget_ms": 20000,
                "keep_samples": True}
        opts.update(options)
        h = self.runner.Harness({"options": opts, "device": self.device})
        h.backend = self.backend
        timing, _ = h.time(fn, data, "candidate")
        return timing


def gap(setup, clocks, out):
    import triton
    torch = setup.torch
    cache = torch.empty(256 * 2**20 // 4, dtype=torch.int32, device="cuda")
    print("gap: method                      mean_us  median  first10% last10%   SM MHz (min)  W mean  power-cap share")
    for problem, variant, case_name in GAP_CASES:
        fn, data = setup.case(problem, variant, case_name)
        call = lambda: fn(data)  # noqa: E731 - do_bench takes a no-argument callable
        for _ in range(3):
            call()
        torch.cuda.synchronize()
        time.sleep(0.3)  # every case starts from the same short idle
        rows = []

        def record(method, times_or_timing, t0, t1, extra=None):
            if isinstance(times_or_timing, dict):
                s = {k: times_or_timing[k] for k in ("n", "mean_us", "median_us", "min_us")}
                samples = times_or_timing.get("samples_us") or []
                tenth = max(1, len(samples) // 10)
                if samples:
                    s["first10pct_mean_us"] = statistics.fmean(samples[:tenth])
                    s["last10pct_mean_us"] = statistics.fmean(samples[-tenth:])
                s["stop_reason"] = times_or_timing.get("stop_reason")
            else:
                s = summary(times_or_timing)
            row = dict(section="gap", operation=problem, variant=variant, case=case_name, method=method,
                       gpu=setup.gpu, clocks=clocks.window(t0, t1), wall_s=t1 - t0, **s, **(extra or {}))
            rows.append(row)
            out.write(json.dumps(row) + "\n")
            c = row["clocks"]
            print(f"  {variant[:18]:18s} {case_name:15s} {method:24s} {s['mean_us']:9.1f} {s['median_us']:8.1f} "
                  f"{s.get('first10pct_mean_us', float('nan')):8.1f} {s.get('last10pct_mean_us', float('nan')):8.1f} "
                  f"{c.get('sm_mhz_mean', 0):6.0f} ({c.get('sm_mhz_min', 0):4d}) {c.get('power_w_mean', 0):6.0f} "
                  f"{c.get('power_cap_share', 0):5.2f} {','.join(c.get('reasons', []))}", flush=True)

        def timed(method, thunk, pause=0.3):
            time.sleep(pause)
            t0 = time.monotonic()
            result = thunk()
            record(method, result, t0, time.monotonic())

        timed("harness (stop rule)", lambda: setup.harness(fn, data))
        timed("harness 100 samples", lambda: setup.harness(fn, data, target_rse=0.0))
        timed("do_bench loop", lambda: dobench_series(torch, call, cache))
        timed("do_bench loop paced 1ms", lambda: dobench_series(torch, call, cache, pause_s=0.001))
        t0 = time.monotonic()
        ms_mean = triton.testing.do_bench(call, return_mode="mean")
        ms_median = triton.testing.do_bench(call, return_mode="median")
        t1 = time.monotonic()
        row = dict(section="gap", operation=problem, variant=variant, case=case_name, method="triton do_bench",
                   gpu=setup.gpu, clocks=clocks.window(t0, t1), mean_us=ms_mean * 1e3, median_us=ms_median * 1e3)
        out.write(json.dumps(row) + "\n")
        print(f"  {variant[:18]:18s} {case_name:15s} {'triton do_bench':24s} {ms_mean * 1e3:9.1f} "
              f"{ms_median * 1e3:8.1f}", flush=True)
        # The harness right after a second of back-to-back repetitions: does it read do_bench's figure then?
        time.sleep(0.3)
        dobench_series(torch, call, cache, rep_ms=1000.0)
        t0 = time.monotonic()
        record("harness after 1 s load", setup.harness(fn, data, target_rse=0.0), t0, time.monotonic())
        out.flush()
        del data
        torch.cuda.empty_cache()


def noise(setup, out):
    torch = setup.torch
    modes = [("gc on, no guard (1.0.0)", {"disable_gc": False, "launch_guard_us": 0}),
             ("gc off, no guard", {"disable_gc": True, "launch_guard_us": 0}),
             ("gc on, guard 300us", {"disable_gc": False, "launch_guard_us": 300}),
             ("gc off, guard 300us (1.1.0)", {"disable_gc": True, "launch_guard_us": 300})]
    print("noise: mode                      n  mean_us  median  min     rse    >1.5x median  host call us (median/max)")
    for problem, variant, case_name in NOISE_CASES:
        fn, data = setup.case(problem, variant, case_name)
        host = []

        def timed_fn(d):
            t = time.perf_counter()
            r = fn(d)
            host.append((time.perf_counter() - t) * 1e6)
            return r

        for _ in range(3):
            fn(data)
        torch.cuda.synchronize()
        for repeat in range(2):  # each mode twice, interleaved, so drift over time shows as a repeat difference
            for mode, options in modes:
                host.clear()
                t = setup.harness(timed_fn, data, target_rse=0.0, **options)
                samples = t["samples_us"]
                timed_host = host[-len(samples):]
                outliers = sum(1 for x in samples if x > 1.5 * t["median_us"])
                slow_pairs = sorted(zip(samples, timed_host), reverse=True)[:5]
                row = dict(section="noise", operation=problem, variant=variant, case=case_name, mode=mode,
                           repeat=repeat, gpu=setup.gpu, n=t["n"], mean_us=t["mean_us"], median_us=t["median_us"],
                           min_us=t["min_us"], rse=t["rel_std_error"], outliers_over_1_5x_median=outliers,
                           host_call_us_median=statistics.median(timed_host), host_call_us_max=max(timed_host),
                           slowest_samples_with_host_us=slow_pairs, samples_us=samples)
                out.write(json.dumps(row) + "\n")
                print(f"  {variant[:16]:16s} {case_name:10s} {mode:28s} {t['n']:3d} {t['mean_us']:8.2f} "
                      f"{t['median_us']:7.2f} {t['min_us']:7.2f} {t['rel_std_error']:.4f} {outliers:3d}  "
                      f"{statistics.median(timed_host):6.1f}/{max(timed_host):7.1f}", flush=True)
        out.flush()
        del data
        torch.cuda.empty_cache()


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--problems", default="resources/problems")
    parser.add_argument("--harness-dir", default="resources/python")
    parser.add_argument("--only", default="", help="gap or noise (default: both)")
    args = parser.parse_args()
    os.environ.setdefault("TRITON_CACHE_DIR", "/tmp/gpuf-triton-shared")
    setup = Setup(os.path.abspath(args.problems), os.path.abspath(args.harness_dir))
    with open(os.path.join(OUT, "timing_gap.jsonl"), "a", encoding="utf-8") as out:
        if args.only in ("", "noise"):
            noise(setup, out)  # before the NVML thread starts: its polling must not add host jitter here
        if args.only in ("", "gap"):
            clocks = Clocks()
            try:
                gap(setup, clocks, out)
            finally:
                clocks.close()


if __name__ == "__main__":
    main()
