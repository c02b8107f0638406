#!/usr/bin/env python3
"""Issue 29 on a device: can the harness's two figures be trusted, and does the sandbox hold with CUDA inside it?

1. Every shipped Python problem and variant through the real gpuf-measure (measure_python.py's sweep): device time
   (CUPTI's kernel records, events as the fallback) and call time (do_bench's loop, single calls after a synchronise
   beside it), candidate and reference alike.
2. The same candidates and references in this process, on the harness's timing inputs:
   - call time (the harness's do_bench loop) against triton.testing.do_bench itself, all of them first, before this
     process starts a profiler;
   - device time (the harness's CUPTI kernel sum, or its events where it had no records) against this process's own
     CUPTI records (torch.profiler) of the same call under the same conditions (an L2 flush, a GPU spin of
     launch_guard_us, the call): summed durations, and the span from the first kernel's start to the last's end.
   Worst ratios per problem, the launch-bound cases with their host overhead, and matmul_triton's 4096^3 case with
   every figure side by side.
   With --agreement, each call also gets, before any profiler: do_bench again (its own reproducibility), do_bench
   with Python's garbage collector paused as the harness pauses it, the harness's own call loop run in this process
   (the same code without the sandbox and the worker), and an independent device time: CUDA events around the call
   behind a GPU spin longer than twice the call's host time, checked to have held (the start event still pending
   once the whole call was queued); NVML's SM clock and temperature after each. --earlier adds an earlier run's
   sweep rows to compare again (the cases outside 3 % in --earlier-compare first).
3. --escapes: tests/gpu_worker/tst_python_sandbox's escape candidates, made to compute on the GPU with PyTorch, through
   gpuf-measure in its bubblewrap sandbox (tests/gpu/data/scale_torch).
Writes $OUT/methods_results.jsonl (the sweep), $OUT/methods_bench.jsonl (the agreement pass, line by line),
$OUT/methods_compare.jsonl and $OUT/escapes.jsonl; tables last."""
import argparse
import gc
import importlib.util
import json
import math
import os
import socket
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import measure_python as mp  # noqa: E402
from gpuf_worker import Worker, default_binary  # noqa: E402

OUT = os.environ.get("OUT", "/tmp")
ROOT = os.path.dirname(os.path.dirname(HERE))
# Short budgets: four timings per case (device and call, candidate and reference) of 189 cases in a few minutes.
SWEEP = {"max_samples": 40, "target_rse": 0.001, "time_budget_ms": 250, "wall_budget_ms": 4000, "cooldown_ms": 200}
RUNS = 15  # profiled calls per case


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def make_flush():
    """An L2 flush with a name of its own, so that its kernel records are told apart from the call's."""
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def gpuf_l2_flush(ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(ptr + offs, tl.zeros([BLOCK], dtype=tl.int32), mask=offs < n)

    buf = torch.empty(64 * 2**20, dtype=torch.int32, device="cuda")  # 256 MB, as the harness and do_bench
    n = buf.numel()

    def flush():
        gpuf_l2_flush[(triton.cdiv(n, 4096),)](buf, n, BLOCK=4096)
    return flush


def cupti_spans(fn, data, flush, spin_cycles):
    """Per call: CUPTI's span (first start to last end) and summed duration of the call's GPU activities, each call
    after an L2 flush and a spin, as the harness's device-time samples."""
    import torch
    from torch.profiler import ProfilerActivity, profile
    for _ in range(2):
        flush()
        fn(data)
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(RUNS):
            flush()
            torch.cuda._sleep(spin_cycles)
            fn(data)
            torch.cuda.synchronize()
    records = []
    try:
        for e in prof.profiler.kineto_results.events():
            if "CUDA" in str(e.device_type()):
                records.append((e.start_ns(), e.start_ns() + e.duration_ns(), e.name()))
    except AttributeError:  # an older PyTorch: its function events, in microseconds
        for e in prof.events():
            if "CUDA" in str(e.device_type):
                records.append((e.time_range.start * 1e3, e.time_range.end * 1e3, e.name))
    records.sort()
    calls, current, state = [], [], "idle"
    for start, end, name in records:
        if "gpuf_l2_flush" in name:
            if current:
                calls.append(current)
            current, state = [], "flush"
        elif "spin" in name.lower() and state == "flush":
            state = "call"
        elif state == "call":
            current.append((start, end))
    if current:
        calls.append(current)
    spans = [(max(e for _, e in c) - min(s for s, _ in c)) / 1e3 for c in calls if c]
    sums = [sum(e - s for s, e in c) / 1e3 for c in calls if c]
    return spans, sums, [len(c) for c in calls]


def summary(values):
    return {"n": len(values), "mean_us": statistics.fmean(values), "median_us": statistics.median(values)} \
        if values else None


def do_bench_of(fn, data):
    import torch
    import triton
    ms = triton.testing.do_bench(lambda: fn(data), return_mode="all")
    torch.cuda.synchronize()
    return {"do_bench": summary([x * 1e3 for x in ms])}


def nvml_reader():
    """NVML's SM clock, temperature and power (or None where NVML cannot be read): the state the GPU was left in."""
    try:
        import pynvml
        pynvml.nvmlInit()
        handle = pynvml.nvmlDeviceGetHandleByIndex(0)
    except Exception:  # noqa: B902 - no NVML: the figures go without the clocks
        return lambda: None

    def read():
        try:
            return {"sm_mhz": pynvml.nvmlDeviceGetClockInfo(handle, pynvml.NVML_CLOCK_SM),
                    "temp_c": pynvml.nvmlDeviceGetTemperature(handle, pynvml.NVML_TEMPERATURE_GPU),
                    "power_w": pynvml.nvmlDeviceGetPowerUsage(handle) / 1e3,
                    "throttle": pynvml.nvmlDeviceGetCurrentClocksThrottleReasons(handle)}
        except Exception as e:  # noqa: B902
            return {"error": f"{type(e).__name__}: {e}"}
    return read


class Agreement:
    """The agreement pass's tools: the harness's own backend (its call loop, in this process), the named L2 flush, the
    device's nominal clock for the spin, NVML."""

    def __init__(self, harness_dir, device, flush):
        sys.path.insert(0, harness_dir)
        from gpuf_harness.backends import TorchBackend  # the harness's code, as the worker runs it
        self.backend = TorchBackend(device)
        self.flusher = self.backend.make_flusher()
        self.flush = flush
        self.khz = float(device.get("sm_clock_khz") or 1980000)
        self.clocks = nvml_reader()


def guarded_events(fn, data, tools):
    """Device time by a method independent of CUPTI: CUDA events around one call, after an L2 flush and a GPU spin of
    twice the call's host time (at least 300 us), so the whole call is queued before the GPU reaches the start event.
    guard_held counts the samples where that was seen (the start event still pending once the call was queued); where
    it did not hold, the figure has host time in it."""
    import torch
    hosts = []
    for _ in range(3):
        torch.cuda.synchronize()
        began = time.perf_counter_ns()
        fn(data)
        hosts.append((time.perf_counter_ns() - began) / 1e3)
    torch.cuda.synchronize()
    guard_us = max(300.0, 2.0 * max(hosts) + 100.0)
    runs = max(3, min(20, int(1.5e6 / (3 * guard_us))))
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    samples, held = [], 0
    for _ in range(runs):
        torch.cuda.synchronize()
        tools.flush()
        torch.cuda._sleep(int(guard_us * tools.khz / 1e3))
        start.record()
        fn(data)
        end.record()
        held += not start.query()
        torch.cuda.synchronize()
        samples.append(start.elapsed_time(end) * 1e3)
    return dict(summary(samples), guard_us=guard_us, guard_held=held, host_us=statistics.median(hosts))


def agreement_of(fn, data, tools):
    """Interleaved on the same inputs: do_bench (the collector on, as a user runs it), the harness's call loop here
    (collector paused, as in the harness), do_bench with the collector paused, do_bench again; then the guarded
    events. Each with NVML's clocks read just after."""
    import torch
    import triton
    out = {}

    def bench(key, timed):
        out[key] = summary(timed())
        out[key + "_clocks"] = tools.clocks()

    def db():
        return [x * 1e3 for x in triton.testing.do_bench(lambda: fn(data), return_mode="all")]

    def paused(timed):
        def run():
            gc.collect()
            gc.disable()
            try:
                return timed()
            finally:
                gc.enable()
        return run

    b = tools.backend
    bench("do_bench", db)
    bench("loop_here", paused(lambda: b.call_loop(fn, b.clone(data), tools.flusher, 25.0, 100.0)[0]))
    bench("do_bench_nogc", paused(db))
    bench("do_bench_again", db)
    out["events_guarded"] = guarded_events(fn, data, tools)
    torch.cuda.synchronize()
    return out


def cupti_of(fn, data, flush, spin_cycles):
    import torch
    spans, sums, kernels = cupti_spans(fn, data, flush, spin_cycles)
    torch.cuda.synchronize()
    return {"cupti_span": summary(spans), "cupti_sum": summary(sums),
            "cupti_activities_per_call": statistics.median(kernels) if kernels else 0}


def ratios(harness_device, harness_call, measured):
    """harness / independent method. The harness's call time is do_bench's loop (compared with do_bench itself), its
    device time CUPTI's summed kernel records where it had them (compared with this process's own CUPTI records of the
    same calls: summed, and the span), the events' figure kept inside it. With the agreement pass: do_bench's own
    reproducibility (again/first), the harness against do_bench with the collector paused as the harness pauses it,
    the harness's loop here against the harness in its sandbox (what the process adds) and against do_bench in the
    same process (what the method adds), and device time against guarded events."""
    out = {}
    db, call = measured.get("do_bench"), harness_call or {}
    if db and call:
        out["call/do_bench"] = call["median_us"] / db["median_us"]
        out["call/do_bench_mean"] = call["mean_us"] / db["mean_us"]
        if call.get("after_sync"):
            out["after_sync/do_bench"] = call["after_sync"]["median_us"] / db["median_us"]
    if db and measured.get("do_bench_again"):
        out["do_bench_again/do_bench"] = measured["do_bench_again"]["median_us"] / db["median_us"]
    nogc, here = measured.get("do_bench_nogc"), measured.get("loop_here")
    if nogc and call:
        out["call/do_bench_nogc"] = call["median_us"] / nogc["median_us"]
    if here and call:
        out["call/loop_here"] = call["median_us"] / here["median_us"]
    if here and nogc:
        out["loop_here/do_bench_nogc"] = here["median_us"] / nogc["median_us"]
    guarded = measured.get("events_guarded")
    if guarded and harness_device:
        out["device/events_guarded"] = harness_device["median_us"] / guarded["median_us"]
    if measured.get("cupti_sum") and harness_device:
        out["device/cupti"] = harness_device["median_us"] / measured["cupti_sum"]["median_us"]
        out["device/cupti_mean"] = harness_device["mean_us"] / measured["cupti_sum"]["mean_us"]
        out["device/cupti_span"] = harness_device["median_us"] / measured["cupti_span"]["median_us"]
        events = harness_device.get("events")
        if events:
            out["events/cupti"] = events["median_us"] / measured["cupti_sum"]["median_us"]
        if guarded:
            out["events_guarded/cupti_span"] = guarded["median_us"] / measured["cupti_span"]["median_us"]
    return out


def outside(compare_files, limit=0.03):
    """(problem, variant, case) of an earlier comparison whose call or device ratio was outside the limit."""
    keys = set()
    for path in compare_files:
        with open(path, encoding="utf-8") as f:
            for line in f:
                r = json.loads(line)
                q = r.get("ratios") or {}
                if any(abs(q[k] - 1) > limit for k in ("call/do_bench", "device/cupti") if q.get(k)):
                    keys.add((r["operation"], r["variant"], r["case"]))
    return keys


def compare(rows, problems_root, device, deadline, tools=None, earlier_first=frozenset()):
    """Two passes over the same calls: do_bench (and with tools, the agreement pass) for all of them first, in a
    process no profiler has touched yet (a profiler once started can stay attached and slow later launches), then
    CUPTI's records of each. Rows marked "earlier" (an earlier run's sweep) come after this run's, those in
    earlier_first before the rest; the CUPTI pass covers this run's rows first and an earlier row only where time is
    left."""
    import torch
    os.environ["TRITON_CACHE_DIR"] = mp.TRITON_CACHE
    spin_cycles = int(300 * float(device.get("sm_clock_khz") or 1980000) / 1e3)
    loaded, modules, refs_done, jobs = {}, {}, set(), []
    fresh = [r for r in rows if not r.get("earlier")]
    old = [r for r in rows if r.get("earlier")]
    old_first = [r for r in old if (r["operation"], r["variant"], r["case"]) in earlier_first]
    old_rest = [r for r in old if (r["operation"], r["variant"], r["case"]) not in earlier_first]
    for r in round_robin(fresh) + round_robin(old_first) + round_robin(old_rest):
        if r.get("status") != "ok" or not r.get("timing"):
            continue
        problem = r["operation"]
        folder = os.path.join(problems_root, problem)
        if problem not in loaded:
            with open(os.path.join(folder, "variants.json"), encoding="utf-8") as f:
                files = {v["name"]: v["file"] for v in json.load(f)["variants"]}
            loaded[problem] = (load(os.path.join(folder, "problem.py"), f"p_{problem}"), files)
        jobs.append(("candidate", r["variant"], r["timing"], r.get("call_timing"), r))
        if (problem, r["case"]) not in refs_done and r.get("reference_timing"):
            refs_done.add((problem, r["case"]))
            jobs.append(("reference", "reference", r["reference_timing"], r.get("reference_call_timing"), r))

    def run_pass(method, until, order, log=None):
        done = {}
        for n, i in enumerate(order):
            who, name, _, _, r = jobs[i]
            if time.monotonic() > until:
                print(f"compare: {getattr(method, '__name__', 'pass')} stopped at the deadline after {n} of "
                      f"{len(order)} calls", flush=True)
                break
            problem = r["operation"]
            mod, files = loaded[problem]
            case = next(c for c in mod.CASES if c["name"] == r["case"])
            try:
                data = mod.generate_input(seed=int(case.get("seed", 42)) + 7919, **case["args"])
                if who == "reference":
                    fn = mod.ref_kernel
                else:
                    if (problem, name) not in modules:
                        modules[(problem, name)] = load(os.path.join(problems_root, problem, files[name]),
                                                        f"c_{problem}_{name}")
                    fn = modules[(problem, name)].custom_kernel
                done[i] = method(fn, data)
            except Exception as e:  # a method's failure is a finding, not the end of the run
                done[i] = {"error": f"{getattr(method, '__name__', 'pass')}: {type(e).__name__}: {e}"}
            if log is not None:
                log.write(json.dumps({"operation": problem, "variant": name, "who": who, "case": r["case"],
                                      "earlier": bool(r.get("earlier")), **done[i]}) + "\n")
                log.flush()
            data = None
            torch.cuda.empty_cache()
        return done

    now = time.monotonic()
    every = list(range(len(jobs)))
    new_jobs = [i for i in every if not jobs[i][4].get("earlier")]
    flush = make_flush()
    if tools is None:
        benched = run_pass(do_bench_of, now + 0.55 * (deadline - now), every)
    else:
        tools.flush = flush
        # what the CUPTI pass of this run's calls needs, about half a second each, is kept for it
        until = deadline - max(45.0, 0.6 * len(new_jobs))
        with open(os.path.join(OUT, "methods_bench.jsonl"), "w", encoding="utf-8") as log:
            benched = run_pass(lambda fn, data: agreement_of(fn, data, tools), until, every, log)
    profiled = run_pass(lambda fn, data: cupti_of(fn, data, flush, spin_cycles), deadline,
                        new_jobs + [i for i in every if i not in set(new_jobs) and i in benched])
    results = []
    with open(os.path.join(OUT, "methods_compare.jsonl"), "w", encoding="utf-8") as out:
        for i, (who, name, dev, call, r) in enumerate(jobs):
            if i not in benched and i not in profiled:
                continue
            measured = {**benched.get(i, {}), **profiled.get(i, {})}
            line = {"operation": r["operation"], "variant": name, "who": who, "case": r["case"],
                    "earlier": bool(r.get("earlier")), "measured_at": r.get("measured_at"),
                    "harness_device": {k: dev.get(k) for k in ("method", "median_us", "mean_us", "rel_std_error",
                                                               "n", "noisy", "events", "span", "kernel_records")},
                    "harness_call": None if not call else {
                        "method": call.get("method"), "median_us": call["median_us"], "mean_us": call["mean_us"],
                        "n": call.get("n"), "after_sync": call.get("after_sync"), "noisy": call.get("noisy")},
                    "launch_bound": r.get("reference_launch_bound" if who == "reference" else "launch_bound"),
                    "host_overhead_us": r.get("reference_host_overhead_us" if who == "reference"
                                              else "host_overhead_us"),
                    **measured, "ratios": ratios(dev, call, measured)}
            results.append(line)
            out.write(json.dumps(line) + "\n")
    return results


def round_robin(items, key=lambda r: r["operation"]):
    """One of each problem in turn, so that a time limit cuts every problem's tail, not whole problems."""
    queues = {}
    for item in items:
        queues.setdefault(key(item), []).append(item)
    out = []
    while any(queues.values()):
        for name in sorted(queues):
            if queues[name]:
                out.append(queues[name].pop(0))
    return out


def report(results):
    keys = ["call/do_bench", "call/do_bench_mean", "device/cupti", "events/cupti", "after_sync/do_bench"]
    if any("do_bench_again" in r for r in results):
        keys += ["do_bench_again/do_bench", "call/do_bench_nogc", "call/loop_here", "loop_here/do_bench_nogc",
                 "device/events_guarded", "events_guarded/cupti_span"]
    methods = {}
    for r in results:
        m = (r["harness_device"].get("method"), (r["harness_call"] or {}).get("method"))
        methods[m] = methods.get(m, 0) + 1
    print("\n=== harness methods (device, call): " + ", ".join(f"{a}/{b} x{n}" for (a, b), n in methods.items()))
    no_records = [r for r in results if r["harness_device"].get("kernel_records")]
    if no_records:
        print(f"  {len(no_records)} without kernel records, first: {no_records[0]['harness_device']['kernel_records']}")

    def cell(rs, k):
        xs = [(r["ratios"][k], r) for r in rs if k in r.get("ratios", {})]
        if not xs:
            return f"{'-':>22s}", []
        worst = max(xs, key=lambda x: abs(math.log(x[0])))
        within = sum(abs(x - 1) <= 0.03 for x, _ in xs)
        return f"{worst[0]:6.3f} {within:3d}/{len(xs):3d} in 3%".rjust(22), xs

    print("\n=== harness / independent method per problem (worst ratio, how many within 3 %)")
    print(f"  {'problem':20s} " + " ".join(f"{k:>22s}" for k in keys))
    by_problem, by_variant = {}, {}
    for r in results:
        by_problem.setdefault(r["operation"], []).append(r)
        by_variant.setdefault((r["operation"], r["variant"]), []).append(r)
    overall = {k: [] for k in keys}
    for problem, rs in sorted(by_problem.items()):
        cells = []
        for k in keys:
            text, xs = cell(rs, k)
            overall[k] += xs
            cells.append(text)
        print(f"  {problem:20s} " + " ".join(cells))
    text = [cell(overall[k] and [r for _, r in overall[k]] or [], k)[0] for k in keys]
    print(f"  {'ALL':20s} " + " ".join(text))
    print("\n=== per variant (worst of its cases)")
    for (problem, variant), rs in sorted(by_variant.items()):
        print(f"  {problem[:18]:18s} {variant[:30]:30s} " + " ".join(cell(rs, k)[0] for k in keys[:3]))
    for k in keys[:3]:
        xs = sorted(overall[k], key=lambda x: -abs(math.log(x[0])))[:6]
        print(f"  worst {k}: " + ", ".join(f"{x:.3f} ({r['operation'][:10]}/{r['variant'][:22]}@{r['case']})"
                                          for x, r in xs))
    errors = [r for r in results if r.get("error")]
    if errors:
        print(f"  {len(errors)} comparisons failed, first: {errors[0]['operation']}/{errors[0]['variant']}: "
              f"{errors[0]['error'][:200]}")
    bound = [r for r in results if r.get("launch_bound")]
    print(f"\n=== launch-bound (call time over device time by the margin and 5 us): {len(bound)} of {len(results)}")
    for r in sorted(bound, key=lambda r: -(r.get("host_overhead_us") or 0))[:12]:
        d, c = r["harness_device"], r["harness_call"] or {}
        print(f"  {r['operation'][:18]:18s} {r['variant'][:28]:28s} {r['case'][:16]:16s} device {d['median_us']:8.1f} "
              f"call {c.get('median_us', 0):8.1f}  host +{r['host_overhead_us']:6.1f} us")
    for label, subset in (("this run's sweep", [r for r in results if not r.get("earlier")]),
                          ("earlier sweeps", [r for r in results if r.get("earlier")])):
        if subset and len(subset) != len(results):
            print(f"\n=== {label} only ({len(subset)} calls)")
            for k in keys:
                text, _ = cell(subset, k)
                print(f"  {k:28s} {text}")
    agreement_table([r for r in results if "do_bench_again" in r])
    print("\n=== matmul_triton 4096x4096x4096: every figure (medians, us)")
    print(f"  {'variant':28s} {'device':>8s} {'events':>8s} {'cuptisum':>8s} {'span':>8s} {'call':>8s} "
          f"{'do_bench':>8s} {'sync1':>8s}")
    for r in results:
        if r["operation"] != "matmul_triton" or not r["case"].startswith("4096x4096x4096") or "cupti_sum" not in r \
                or "do_bench" not in r:
            continue
        d, c = r["harness_device"], r["harness_call"] or {}
        print(f"  {r['variant'][:28]:28s} {d['median_us']:8.1f} {(d.get('events') or {}).get('median_us', 0):8.1f} "
              f"{r['cupti_sum']['median_us']:8.1f} {r['cupti_span']['median_us']:8.1f} {c.get('median_us', 0):8.1f} "
              f"{r['do_bench']['median_us']:8.1f} {(c.get('after_sync') or {}).get('median_us', 0):8.1f}")


def agreement_table(results):
    """Every call whose harness figure is outside 3 % of do_bench or of CUPTI, with what the agreement pass saw."""
    if not results:
        return
    held = [r for r in results if r["events_guarded"].get("guard_held") == r["events_guarded"].get("n")]
    print(f"\n=== guarded events: the guard held on every sample for {len(held)} of {len(results)} calls")
    off = [r for r in results if any(abs(r["ratios"].get(k, 1) - 1) > 0.03 for k in ("call/do_bench", "device/cupti"))]
    print(f"=== outside 3 % (call/do_bench or device/cupti): {len(off)} of {len(results)}; medians in us, "
          f"n = do_bench's repetitions")
    print(f"  {'call':34s} {'device':>8s} {'call':>9s} {'db':>9s} {'db2':>9s} {'db_nogc':>9s} {'loop_here':>9s} "
          f"{'n':>5s} {'ev_guard':>8s} held {'MHz':>5s}")
    for r in sorted(off, key=lambda r: -abs(math.log(r["ratios"].get("call/do_bench", 1))))[:40]:
        c, g = r["harness_call"] or {}, r["events_guarded"]
        clocks = r.get("do_bench_clocks") or {}
        print(f"  {(r['operation'][:10] + '/' + r['variant'][:12] + '@' + r['case'][:10]):34s} "
              f"{r['harness_device']['median_us']:8.1f} {c.get('median_us', 0):9.1f} {r['do_bench']['median_us']:9.1f} "
              f"{r['do_bench_again']['median_us']:9.1f} {r['do_bench_nogc']['median_us']:9.1f} "
              f"{r['loop_here']['median_us']:9.1f} {r['do_bench']['n']:5d} {g['median_us']:8.1f} "
              f"{g['guard_held']:2d}/{g['n']:<2d} {clocks.get('sm_mhz', 0):5d}")


# ----- the sandbox's escapes with PyTorch on the GPU ---------------------------------------------------------------
def escape_source(name, values):
    with open(os.path.join(ROOT, "tests/gpu_worker/data/python/escapes", name + ".py"), encoding="utf-8") as f:
        source = f.read()
    for key, value in values.items():
        source = source.replace(key, value)
    # The stdlib problem's answer becomes the GPU's; the memory escape's children grow past CUDA's own footprint.
    source = source.replace('[data["a"] * v for v in data["x"]]', 'data["a"] * data["x"]')
    return source.replace("120 * 2**20", "1500 * 2**20")


def escapes(binary, python, bwrap):
    planted = {"OPENAI_API_KEY": "sk-planted-openai-7f3a", "GPUF_TEST_TOKEN": "planted-token-91c2",
               "TRITON_PLANTED_SECRET": "planted-secret-5d0e"}
    os.environ.update(planted)
    args = ["--python", python, "--problems-dir", os.path.join(HERE, "data")] + (["--bwrap", bwrap] if bwrap else [])
    worker = Worker(binary, "/tmp/gpuf-cubins", args)
    for k in planted:
        os.environ.pop(k)
    hello, _ = worker.request({"type": "hello"}, timeout_s=120)
    print("\n=== sandbox escapes with PyTorch on the GPU; worker says:", json.dumps(hello.get("python")), flush=True)
    marker = f"gpuf-escape-{os.getpid()}"
    target = tempfile.mkdtemp(prefix="gpuf-target-")
    sock_dir = tempfile.mkdtemp(prefix="gpuf-sock-")
    sock_path = os.path.join(sock_dir, "host.sock")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(sock_path)
    server.listen(4)
    server.setblocking(False)

    def run(source, **options):
        opts = {"max_samples": 5, "time_budget_ms": 50, "timeout_ms": 120000, "cooldown_ms": 0}
        opts.update(options)
        r, _ = worker.request({"type": "measure", "candidate": {"format": "gpuf-python/1", "source": source},
                               "problem": {"name": "scale_torch"}, "options": opts}, timeout_s=200)
        return r or {"status": "no answer"}

    def processes_with(text):
        n = 0
        for pid in os.listdir("/proc"):
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    n += text.encode() in f.read()
            except OSError:
                pass
        return n

    checks = []

    def check(name, ok, r, note=""):
        checks.append((name, ok))
        print(f"  {name:34s} {'PASS' if ok else 'FAIL'}  {r.get('status')}  {note}  "
              f"{(r.get('message') or '')[:160]}", flush=True)
        with open(os.path.join(OUT, "escapes.jsonl"), "a", encoding="utf-8") as log:
            log.write(json.dumps({"escape": name, "pass": ok, "note": note, "response": r}) + "\n")

    plain = 'def custom_kernel(data):\n    return data["a"] * data["x"]\n'
    r = run(plain)
    sandbox = (r.get("isolation") or {}).get("sandbox", "")
    check("gpu_inside_sandbox", r.get("status") == "ok" and r.get("mode") == "torch" and sandbox.startswith("bubblewrap"),
          r, f"sandbox: {sandbox[:60]}; gpu {((r.get('provenance') or {}).get('gpu_name'))}")
    r = run(escape_source("read_secret", {}))
    everything = json.dumps(r)
    check("secrets_stay_with_the_worker", r.get("status") == "runtime_error" and "secrets seen: []" in
          (r.get("message") or "") and "planted-" not in everything, r)
    r = run(escape_source("write_outside", {"@TARGET@": target, "@MARKER@": marker}))
    home = os.path.join(os.path.expanduser("~"), "gpuf-escaped-" + marker)
    wrote = os.path.exists(os.path.join(target, "gpuf-escaped-" + marker)) or os.path.exists(home)
    check("writes_stay_in_temp_dir", r.get("status") == "ok" and not wrote, r)
    r = run(escape_source("unix_socket", {"@SOCKET@": sock_path}))
    try:
        conn, _ = server.accept()
        conn.close()
        connected = True
    except BlockingIOError:
        connected = False
    check("host_unix_socket_out_of_reach", r.get("status") == "ok" and not connected, r)
    r = run(escape_source("leave_process", {"@MARKER@": marker}))
    left = 0
    for _ in range(50):
        left = processes_with(marker)
        if not left:
            break
        time.sleep(0.1)
    check("no_process_outlives_the_answer", r.get("status") == "ok" and left == 0, r, f"left: {left}")
    r = run(escape_source("memory_children", {}), memory_limit_mb=5000, timeout_ms=60000)
    err = (r.get("error") or {}).get("type")
    check("memory_limit_covers_every_process", r.get("status") == "runtime_error" and err == "MemoryLimitExceeded",
          r, f"peak rss {(r.get('isolation') or {}).get('peak_rss_mb')} MiB")
    r = run(escape_source("kill_parent", {}))
    alive = worker.alive()
    after = run(plain)
    check("worker_survives_kill_parent", alive and after.get("status") == "ok", r, f"worker alive: {alive}")
    worker.close()
    server.close()
    print(f"  escapes contained: {sum(ok for _, ok in checks)}/{len(checks)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--problems", default="resources/problems")
    parser.add_argument("--worker", default=default_binary())
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--bwrap", default="")
    parser.add_argument("--only", default="", help="comma-separated problem names")
    parser.add_argument("--sweep-s", type=float, default=230, help="stop starting new variants after this long")
    parser.add_argument("--compare-s", type=float, default=120)
    parser.add_argument("--total-s", type=float, default=0,
                        help="with it, the comparison ends this long after the start instead of --compare-s after the "
                        "sweep")
    parser.add_argument("--variants", default="", help="comma-separated problem/variant names to sweep (default: all)")
    parser.add_argument("--earlier", action="append", default=[], help="an earlier run's sweep rows (JSONL), compared "
                        "again after this run's")
    parser.add_argument("--earlier-compare", action="append", default=[], help="that run's comparison (JSONL): its "
                        "cases outside 3 %% are compared first")
    parser.add_argument("--agreement", action="store_true", help="the agreement pass (module docstring)")
    parser.add_argument("--harness-dir", default="", help="the harness beside the worker (default: WORKER_DIR/python)")
    parser.add_argument("--escapes", action="store_true")
    parser.add_argument("--skip-sweep", action="store_true")
    args = parser.parse_args()
    args.began = time.monotonic()
    if not args.skip_sweep:
        methods(args)
    if args.escapes:
        escapes(args.worker, args.python, args.bwrap)


def methods(args):
    mp.SWEEP_OPTIONS.update(SWEEP)
    chosen = round_robin(mp.selected(args.problems, {p for p in args.only.split(",") if p},
                                     {v for v in args.variants.split(",") if v}), key=lambda c: c[0])
    worker_args = ["--python", args.python, "--problems-dir", args.problems] + (["--bwrap", args.bwrap] if args.bwrap
                                                                                 else [])
    worker = Worker(args.worker, "/tmp/gpuf-cubins", worker_args)
    hello, _ = worker.request({"type": "hello"}, timeout_s=120)
    sandbox = ((hello or {}).get("python") or {}).get("sandbox") or {}
    print("sweep worker's sandbox:", json.dumps(sandbox), flush=True)
    if not sandbox.get("available"):  # the timings are what this half is for: without a sandbox, say so and go on
        worker.close()
        worker = Worker(args.worker, "/tmp/gpuf-cubins", worker_args + ["--unsandboxed"])
        print("sweep: no sandbox on this machine, candidates run with --unsandboxed", flush=True)
    info, _ = worker.request({"type": "device_info"}, timeout_s=120)
    device = info.get("device") or {}
    started = time.monotonic()
    rows = []
    with open(os.path.join(OUT, "methods_results.jsonl"), "w", encoding="utf-8") as out:
        for item in chosen:
            if time.monotonic() - started > args.sweep_s:
                print(f"sweep: stopped after {args.sweep_s:.0f} s, before {item[0]}/{item[2]['name']}", flush=True)
                break
            rows += mp.sweep(worker, [item], device, out)
    worker.close()
    statuses = {}
    for r in rows:
        statuses[r.get("status")] = statuses.get(r.get("status"), 0) + 1
    print(f"sweep: {len(rows)} case lines in {time.monotonic() - started:.0f} s, statuses {statuses}", flush=True)
    for path in args.earlier:
        with open(path, encoding="utf-8") as f:
            rows += [dict(json.loads(line), earlier=True) for line in f if line.strip()]
    deadline = args.began + args.total_s if args.total_s else time.monotonic() + args.compare_s
    tools = None
    if args.agreement:
        harness_dir = args.harness_dir or os.path.join(os.path.dirname(os.path.abspath(args.worker)), "python")
        tools = Agreement(harness_dir, device, None)
    results = compare(rows, args.problems, device, deadline, tools, outside(args.earlier_compare))
    report(results)


if __name__ == "__main__":
    main()
