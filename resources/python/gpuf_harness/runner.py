"""One candidate against one problem: load, check, time, check again; the result is plain JSON-ready data."""
import gc
import importlib.util
import math
import os
import statistics
import sys
import time
import traceback

from . import HARNESS_VERSION, RESULT_FORMAT
from .backends import make_backend

DEFAULTS = {
    "cases": [],                # empty: every case of the problem
    "correctness_runs": 2,      # fresh inputs per run (seed mixed with the run number)
    "check_correctness": True,
    "flush_l2": True,
    "warmup": 3,
    # The GPU MODE stop rule (paper-facts §9): at least 3 samples; stop when the standard error of the mean falls
    # below 0.1% of the mean, or after 10 s of summed kernel time, or 120 s of wall time, or at 100 samples.
    "min_samples": 3,
    "max_samples": 100,
    "target_rse": 0.001,
    "time_budget_ms": 10000.0,
    "wall_budget_ms": 120000.0,
    "time_reference": True,
    "recheck_after_timing": True,
    "seed": 42,
    "gpu_memory_limit_mb": 0,
    # Python's cyclic garbage collector paused while sampling (collected once before the warm-up), as timeit does:
    # a collection that lands between a sample's start event and its kernel launch would be timed as the candidate's.
    "disable_gc": True,
    # A GPU-side spin of this many microseconds queued after the L2 flush, before the start event: the host then
    # has that long to queue the candidate's launches before the GPU reaches the start event. Without it a launch
    # slower than the flush (a Triton launch takes 40-60 us of host time, some 200) is timed as the candidate's:
    # on an H100 that made short kernels' samples noisy and their medians up to 4% slow. 0 = off.
    "launch_guard_us": 300,
    # Every sample in the result (timing.samples_us), for examining noisy cases.
    "keep_samples": False,
    # Call time beside device time, for the candidate and the reference, timed as triton.testing.do_bench times:
    # 5 calls estimate one, warm-up calls for call_warmup_ms, then repetitions for call_rep_ms queued without a
    # synchronise, each an L2 flush, a start event, the call and an end event (do_bench's defaults: 25 and 100 ms).
    "call_time": True,
    "call_warmup_ms": 25.0,
    "call_rep_ms": 100.0,
    # Beside the call time, single calls after a synchronise (the GPU idle at the start event: all of the host's
    # launch work in the figure), at most 20 of them: call_timing.after_sync.
    "after_sync": True,
    # Device time from CUPTI's kernel records (torch.profiler) where there are any: after every case's other timings
    # (so that the profiler cannot slow their launches), as many calls as the events' stop rule took, at most
    # cupti_max_samples. Without records the events' figure stays, its method saying so.
    "cupti": True,
    "cupti_max_samples": 50,
    # Launch-bound: the call time's median exceeds the device time's by more than this fraction of the device time
    # and by more than launch_bound_min_us (the events' own overhead, a microsecond or two, is no launch work).
    "launch_bound_margin": 0.10,
    "launch_bound_min_us": 5.0,
    # Noise: a timing whose relative standard error after the stop rule is above max(target_rse, noise_rse) is
    # measured once more after a cool-down of cooldown_ms (the GPU idle), and marked noisy if it still is.
    "noise_rse": 0.005,
    "cooldown_ms": 500.0,
}

SPEEDUP_TIMES = ("device", "call")

SEVERITY = ["ok", "incorrect", "runtime_error", "timeout", "compile_failed", "infrastructure_failure"]


def worse(a, b):
    return a if SEVERITY.index(a) >= SEVERITY.index(b) else b


class CandidateError(Exception):
    """A failure of the candidate's code, classified into a protocol status."""

    def __init__(self, status, phase, exc):
        super().__init__(str(exc))
        self.status, self.phase, self.exc = status, phase, exc

    def describe(self):
        e = self.exc
        tb = "".join(traceback.format_exception(type(e), e, e.__traceback__))
        return {"phase": self.phase, "type": f"{type(e).__module__}.{type(e).__qualname__}"
                if type(e).__module__ not in ("builtins", "__main__") else type(e).__qualname__,
                "message": str(e)[:4000], "traceback": tb[-8000:]}


def is_triton_compile_error(exc):
    """Triton reports source and lowering errors with CompilationError subclasses from triton.compiler."""
    for cls in type(exc).__mro__:
        module = getattr(cls, "__module__", "") or ""
        if module.startswith("triton.compiler") or (module.startswith("triton") and "Compil" in cls.__name__):
            return True
    return False


def classify_call_error(exc, phase):
    if is_triton_compile_error(exc):
        return CandidateError("compile_failed", "triton_compile", exc)
    return CandidateError("runtime_error", phase, exc)


def load_module(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load_candidate(path):
    """Parses and imports the candidate; syntax and import errors are compile_failed, as a build error would be."""
    try:
        with open(path, encoding="utf-8") as f:
            source = f.read()
        compile(source, path, "exec")
    except SyntaxError as e:  # IndentationError and TabError are SyntaxErrors
        raise CandidateError("compile_failed", "parse", e)
    try:
        module = load_module(path, "gpuf_candidate")
    except ImportError as e:
        raise CandidateError("compile_failed", "import", e)
    except BaseException as e:  # noqa: B902 - SystemExit from a module body is the candidate's failure too
        raise classify_call_error(e, "import")
    fn = getattr(module, "custom_kernel", None)
    if not callable(fn):
        raise CandidateError("compile_failed", "import",
                             AttributeError("the candidate defines no callable custom_kernel(data)"))
    return fn


def stats(samples):
    n = len(samples)
    mean = statistics.fmean(samples)
    std = statistics.stdev(samples) if n > 1 else 0.0
    return {"n": n, "mean_us": mean, "median_us": statistics.median(samples), "min_us": min(samples),
            "max_us": max(samples), "std_us": std,
            "rel_std_error": (std / math.sqrt(n)) / mean if n > 1 and mean > 0 else None}


class Harness:
    def __init__(self, job, progress_path=None):
        self.job = job
        self.opts = dict(DEFAULTS)
        self.opts.update(job.get("options") or {})
        self.device = job.get("device") or {}
        self.progress_path = progress_path
        self.earlier_outputs = []  # kept alive so no later output can legitimately reuse their storage
        self.earlier_expected = []

    def progress(self, text):
        if self.progress_path:
            with open(self.progress_path, "w", encoding="utf-8") as f:
                f.write(text + "\n")

    # ----- correctness -------------------------------------------------------------------------------------
    def compare(self, output, expected, data_storages):
        """Leaf-by-leaf comparison plus the two shortcuts a candidate may take: returning (a view of) its input,
        and returning a result from an earlier call (the same storage again, or an earlier call's values)."""
        b, tol = self.backend, self.tolerance
        exp_leaves = b.leaves(expected)
        out_leaves = b.leaves(output)
        report = {"outputs": [], "mismatches": 0, "elements": 0}
        if len(out_leaves) != len(exp_leaves):
            report["outputs"].append({"output": "out", "structure_mismatch": True,
                                      "expected_leaves": len(exp_leaves), "actual_leaves": len(out_leaves)})
            report["mismatches"] = 1
            return report
        for (path, r), (_, c) in zip(exp_leaves, out_leaves):
            rtol, atol = self.leaf_tolerance(path)
            leaf = self.problem_compare(path, c, r, rtol, atol)
            report["outputs"].append(leaf)
            report["mismatches"] += leaf.get("mismatches", 0)
            report["elements"] += leaf.get("elements", 0)
        out_storages = b.storages(output)
        if out_storages & data_storages:
            report["shortcut"] = "returned_input"
            report["shortcut_note"] = "the output shares storage with the input the candidate was given"
        for earlier in self.earlier_outputs:
            if out_storages & b.storages(earlier):
                report["shortcut"] = "reused_output"
                report["shortcut_note"] = ("the output is the storage of an earlier call's output (still held by "
                                           "the caller): a cached or overwritten result")
                break
        if report["mismatches"] and "shortcut" not in report:
            for earlier in self.earlier_expected:
                if self.matches(output, earlier):
                    report["shortcut"] = "cached_result"
                    report["shortcut_note"] = "the output equals the correct answer of an earlier call's inputs"
                    break
        return report

    def matches(self, output, expected):
        try:
            exp, out = self.backend.leaves(expected), self.backend.leaves(output)
            if len(exp) != len(out):
                return False
            for (path, r), (_, c) in zip(exp, out):
                rtol, atol = self.leaf_tolerance(path)
                leaf = self.problem_compare(path, c, r, rtol, atol)
                if leaf.get("mismatches", 1) or leaf.get("shape_mismatch"):
                    return False
            return True
        except Exception:
            return False

    def leaf_tolerance(self, path):
        tol = self.tolerance
        per = tol.get("outputs", {}).get(path, {})
        return per.get("rtol", tol.get("rtol", 0.0)), per.get("atol", tol.get("atol", 0.0))

    def problem_compare(self, path, c, r, rtol, atol):
        custom = getattr(self.problem, "compare", None)
        if custom is not None:
            return custom(path, c, r, rtol, atol, self.backend)
        return self.backend.compare(path, c, r, rtol, atol)

    def call(self, fn, data, phase):
        try:
            return fn(data)
        except BaseException as e:  # noqa: B902 - SystemExit / KeyboardInterrupt from a candidate are failures
            raise classify_call_error(e, phase)

    def check_once(self, case, seed, phase):
        b = self.backend
        data = self.problem.generate_input(seed=seed, **case["args"])
        expected = self.problem.ref_kernel(b.clone(data))
        given = b.clone(data)
        storages = b.storages(given)
        output = self.call(self.candidate, given, phase)
        try:
            b.sync()
        except BaseException as e:  # noqa: B902 - an asynchronous CUDA fault surfaces here
            raise classify_call_error(e, phase)
        report = self.compare(output, expected, storages)
        self.earlier_outputs.append(output)
        self.earlier_expected.append(expected)
        return report

    # ----- timing ------------------------------------------------------------------------------------------
    def time(self, fn, data, who, kind="device"):
        """kind "device": the GPU MODE stop rule, inputs cloned outside the timed region, one call per sample, the
        host's launch work hidden behind the launch guard; "call": do_bench's loop (call_loop), with single calls
        after a synchronise beside it (after_sync). A noisy result is measured once more after a cool-down
        (noise_rse, cooldown_ms)."""
        result, last = self.time_once(fn, data, who, kind)
        o = self.opts
        limit = max(float(o["target_rse"]), float(o["noise_rse"]))
        rse = result.get("rel_std_error")
        if rse is not None and rse > limit and result["stop_reason"] != "target_rse":
            first = {k: result[k] for k in ("n", "mean_us", "median_us", "rel_std_error", "stop_reason")}
            time.sleep(float(o["cooldown_ms"]) / 1e3)
            result, last = self.time_once(fn, data, who, kind)
            result["remeasured"] = {"after_cooldown_ms": float(o["cooldown_ms"]), "first": first}
            rse = result.get("rel_std_error")
            result["noisy"] = rse is not None and rse > limit
        else:
            result["noisy"] = False
        result["noise_rse"] = limit
        return result, last

    def time_once(self, fn, data, who, kind):
        o, b = self.opts, self.backend
        flusher = b.make_flusher() if o["flush_l2"] else None
        guard_us = float(o["launch_guard_us"]) if kind == "device" else 0.0
        if o["disable_gc"]:
            gc.collect()  # before the warm-up, which brings the caches a full collection flushes back
        for _ in range(int(o["warmup"])):
            self.call(fn, b.clone(data), f"{who}_warmup")
        b.sync()
        gc_was_enabled = gc.isenabled()
        if o["disable_gc"]:
            gc.disable()
        after_sync = None
        try:
            started = time.monotonic()
            if kind == "call":
                samples, last = self.call_loop(fn, data, flusher, who)
                reason = "call_rep_ms"
                wall_ms = (time.monotonic() - started) * 1e3
                if o["after_sync"]:
                    after_sync = self.after_sync(fn, data, flusher, who)
            else:
                samples, reason, last, started = self.sample(fn, data, flusher, guard_us, who, kind)
                wall_ms = (time.monotonic() - started) * 1e3
        finally:
            if gc_was_enabled:
                gc.enable()
        result = stats(samples)
        method, note = (b.timing_method, b.timing_note) if kind == "device" else (b.call_method, b.call_note)
        result.update({"kind": kind, "method": method, "method_note": note, "stop_reason": reason,
                       "flush_l2": flusher is not None, "warmup": int(o["warmup"]), "wall_ms": wall_ms,
                       "summed_ms": sum(samples) / 1e3, "statistic": "mean", "gc_disabled": bool(o["disable_gc"]),
                       "launch_guard_us": guard_us})
        if kind == "call":
            result.update({"call_warmup_ms": float(o["call_warmup_ms"]), "call_rep_ms": float(o["call_rep_ms"])})
        if after_sync is not None:
            result["after_sync"] = after_sync
        if o["keep_samples"]:
            result["samples_us"] = [round(x, 4) for x in samples]
        del flusher
        return result, last

    def call_loop(self, fn, data, flusher, who):
        """do_bench's loop on one clone of the inputs (as do_bench calls the same arguments again)."""
        o, b = self.opts, self.backend
        try:
            return b.call_loop(fn, b.clone(data), flusher, float(o["call_warmup_ms"]), float(o["call_rep_ms"]))
        except CandidateError:
            raise
        except BaseException as e:  # noqa: B902
            raise classify_call_error(e, f"{who}_call_timing")

    def after_sync(self, fn, data, flusher, who):
        """Single calls after a synchronise, under the stop rule but at most 20: what one call costs on an idle GPU."""
        b = self.backend
        samples, reason, _, _ = self.sample(fn, data, flusher, 0.0, who, "after_sync",
                                            min(20, int(self.opts["max_samples"])))
        s = stats(samples)
        return {"method": b.after_sync_method, "n": s["n"], "mean_us": s["mean_us"], "median_us": s["median_us"],
                "min_us": s["min_us"], "rel_std_error": s["rel_std_error"], "stop_reason": reason,
                "method_note": b.after_sync_note}

    def sample(self, fn, data, flusher, guard_us, who, kind="device", max_samples=None):
        """The sampling loop and its stop rule; returns the samples, the rule that ended it, the last output."""
        o, b = self.opts, self.backend
        samples, summed, started = [], 0.0, time.monotonic()
        reason, last = None, None
        most = o["max_samples"] if max_samples is None else max_samples
        while reason is None:
            args = b.clone(data)
            try:
                if kind == "device":
                    last, us = b.time_call(fn, args, flusher, guard_us)
                else:
                    last, us = b.time_call_sync(fn, args, flusher)
            except CandidateError:
                raise
            except BaseException as e:  # noqa: B902
                raise classify_call_error(e, f"{who}_timing")
            samples.append(us)
            summed += us / 1e3
            n = len(samples)
            s = stats(samples)
            if n >= most:
                reason = "max_samples"
            elif n >= o["min_samples"] and s["rel_std_error"] is not None and s["rel_std_error"] < o["target_rse"]:
                reason = "target_rse"
            elif n >= o["min_samples"] and summed >= o["time_budget_ms"]:
                reason = "time_budget"
            elif n >= o["min_samples"] and (time.monotonic() - started) * 1e3 >= o["wall_budget_ms"]:
                reason = "wall_budget"
        return samples, reason, last, started

    # ----- one case ----------------------------------------------------------------------------------------
    def run_case(self, case):
        o, b = self.opts, self.backend
        result = {"name": case["name"], "args": case["args"], "status": "ok"}
        base_seed = int(case.get("seed", o["seed"]))
        corr = {"checked": bool(o["check_correctness"]), "runs": 0}
        result["correctness"] = corr
        if o["check_correctness"]:
            for run in range(int(o["correctness_runs"])):
                self.progress(f"correctness case {case['name']} run {run}")
                report = self.check_once(case, base_seed + 1009 * run, "correctness")
                corr["runs"] = run + 1
                corr.update(report)
                if report["mismatches"] or "shortcut" in report:
                    result["status"] = "incorrect"
                    result["message"] = describe_mismatch(report, f"run {run}")
                    return result
        self.progress(f"timing case {case['name']}")
        data = self.problem.generate_input(seed=base_seed + 7919, **case["args"])
        result["timing"], last = self.time(self.candidate, data, "candidate")
        if o["call_time"]:
            self.progress(f"call timing case {case['name']}")
            result["call_timing"], last = self.time(self.candidate, data, "candidate", "call")
        # The figure the speedup (and the store's runtime) uses: SPEEDUP_TIME, where it was measured.
        result["speedup_time"] = self.speedup_time if "call_timing" in result else "device"
        if o["recheck_after_timing"] and o["check_correctness"]:
            self.progress(f"recheck case {case['name']}")
            # The last timed output against the reference on the timing inputs, then one more fresh input:
            # a candidate that is right only for its first calls, or caches across calls, fails here.
            expected = self.problem.ref_kernel(b.clone(data))
            last_report = self.compare(last, expected, set())
            fresh = self.check_once(case, base_seed + 104729, "recheck")
            recheck = {"last_timed_output": summarize(last_report), "fresh_inputs": summarize(fresh)}
            result["correctness"]["after_timing"] = recheck
            for label, rep in (("the last timed call", last_report), ("fresh inputs after timing", fresh)):
                if rep["mismatches"] or "shortcut" in rep:
                    result["status"] = "incorrect"
                    result["message"] = describe_mismatch(rep, label)
                    corr.update(rep)
                    result.pop("timing", None)  # a figure of a wrong candidate is no record
                    return result
        if o["time_reference"]:
            self.progress(f"reference timing case {case['name']}")
            try:
                result["reference_timing"], _ = self.time(self.problem.ref_kernel, data, "reference")
                if o["call_time"]:
                    result["reference_call_timing"], _ = self.time(self.problem.ref_kernel, data, "reference", "call")
            except CandidateError as e:  # the reference is the problem's code: its failure is not the candidate's
                result["reference_error"] = e.describe()
                result.pop("reference_timing", None)
        return result

    def finish_case(self, case, result):
        """What follows from a case's timings, once its device time is final: speedups, launch-bound, noise, floor."""
        if "reference_timing" in result and "timing" in result:
            self.add_speedups(result)
        self.add_launch_bound(result, "timing", "call_timing", "")
        self.add_launch_bound(result, "reference_timing", "reference_call_timing", "reference_")
        noisy = [k for k in ("timing", "call_timing", "reference_timing", "reference_call_timing")
                 if result.get(k, {}).get("noisy")]
        if noisy:
            result["noisy"] = noisy
        self.add_floor(case, result)

    # ----- device time from kernel records -----------------------------------------------------------------
    def kernel_pass(self, measured):
        """Device time from CUPTI's records for every timed case, candidate and reference, after all the other
        timings of the run: a profiler once started may stay attached to the process and slow later launches."""
        if not self.opts["cupti"]:
            return
        for case, result in measured:
            if result.get("status") != "ok" or "timing" not in result:
                continue
            self.progress(f"kernel records case {case['name']}")
            seed = int(case.get("seed", self.opts["seed"])) + 7919
            data = self.problem.generate_input(seed=seed, **case["args"])
            self.kernel_time(result, "timing", self.candidate, data)
            if "reference_timing" in result:
                self.kernel_time(result, "reference_timing", self.problem.ref_kernel, data)

    def kernel_time(self, result, key, fn, data):
        """Replaces result[key] (the events' device time) by the kernel records' where the backend has them; the
        events' figure stays inside it ("events"). Otherwise the events' figure stays, with the reason."""
        o, b, events = self.opts, self.backend, result[key]
        count = max(int(o["min_samples"]), min(int(o["cupti_max_samples"]), int(events["n"])))
        flusher = b.make_flusher() if o["flush_l2"] else None
        try:
            calls, why = b.kernel_samples(fn, data, flusher, float(o["launch_guard_us"]), count)
        except BaseException as e:  # noqa: B902 - the events' figure stands; why it is the one used is said
            calls, why = None, f"kernel records failed: {type(e).__name__}: {str(e)[:300]}"
        del flusher
        if calls is None:
            events["kernel_records"] = why
            return
        sums = [c["sum_us"] for c in calls]
        figure = stats(sums)
        figure.update({"kind": "device", "method": b.kernel_method, "method_note": b.kernel_note,
                       "stop_reason": "events_sample_count", "flush_l2": o["flush_l2"], "statistic": "mean",
                       "launch_guard_us": float(o["launch_guard_us"]), "noisy": events.get("noisy", False),
                       "noise_rse": events.get("noise_rse"), "gc_disabled": False,
                       "span": {"mean_us": statistics.fmean(c["span_us"] for c in calls),
                                "median_us": statistics.median(c["span_us"] for c in calls)},
                       "records_per_call": statistics.median(c["records"] for c in calls),
                       "events": {k: events[k] for k in ("method", "n", "mean_us", "median_us", "min_us",
                                                         "rel_std_error", "stop_reason") if k in events}})
        if "remeasured" in events:
            figure["remeasured"] = events["remeasured"]
        if o["keep_samples"]:
            figure["samples_us"] = [round(x, 4) for x in sums]
        result[key] = figure

    def add_speedups(self, result):
        """Both figures' speedups (mean and median); `speedup` is the one SPEEDUP_TIME names."""
        pairs = {"device": ("reference_timing", "timing"), "call": ("reference_call_timing", "call_timing")}
        result["speedups"] = {}
        for kind, (ref, cand) in pairs.items():
            if ref in result and cand in result:
                result["speedups"][kind] = {"mean": result[ref]["mean_us"] / result[cand]["mean_us"],
                                            "median": result[ref]["median_us"] / result[cand]["median_us"]}
        chosen = result["speedups"][result["speedup_time"]]
        result["speedup"] = chosen["mean"]
        # The median's speedup beside the mean's (the store ranks by medians): an outlier-inflated mean shows as a
        # gap between the two.
        result["speedup_median"] = chosen["median"]

    def add_launch_bound(self, result, device_key, call_key, prefix):
        """Launch-bound: the call's median over the device time's median by more than launch_bound_margin of the
        device time and more than launch_bound_min_us."""
        if device_key not in result or call_key not in result:
            return
        device, call = result[device_key]["median_us"], result[call_key]["median_us"]
        margin, least = float(self.opts["launch_bound_margin"]), float(self.opts["launch_bound_min_us"])
        result[prefix + "host_overhead_us"] = call - device
        result[prefix + "launch_bound"] = call > device * (1.0 + margin) and call - device > least
        result["launch_bound_margin"] = margin
        result["launch_bound_min_us"] = least

    def add_floor(self, case, result):
        bytes_fn = getattr(self.problem, "bytes_moved", None)
        if bytes_fn is not None:
            result["bytes_moved"] = float(bytes_fn(**case["args"]))
        flops_fn = getattr(self.problem, "flops", None)
        if flops_fn is not None:
            result["flops"] = float(flops_fn(**case["args"]))
        peak = self.device.get("peak_bandwidth_gbs")
        if "bytes_moved" in result and peak:
            result["floor_us"] = result["bytes_moved"] / (float(peak) * 1e3)
            t = result.get("timing")
            if t:
                result["achieved_bandwidth_gbs"] = result["bytes_moved"] / (t["mean_us"] * 1e3)
                result["implausible"] = t["mean_us"] < result["floor_us"]

    # ----- whole run ---------------------------------------------------------------------------------------
    def run(self):
        job = self.job
        out = {"format": RESULT_FORMAT, "harness_version": HARNESS_VERSION, "status": "ok",
               "python": sys.version.split()[0], "candidate": job.get("candidate_name"), "cases": []}
        try:
            self.problem = load_module(os.path.join(job["problem_dir"], "problem.py"), "gpuf_problem")
            backend_name = getattr(self.problem, "BACKEND", "torch")
            self.backend = make_backend(backend_name, self.device)
            self.tolerance, cases = problem_contract(self.problem)
            self.speedup_time = speedup_time_of(self.problem)
        except BaseException as e:  # noqa: B902 - the problem or the environment, not the candidate
            out["status"] = "infrastructure_failure"
            out["message"] = f"could not load the problem or its backend: {type(e).__name__}: {e}"
            out["error"] = CandidateError("infrastructure_failure", "problem", e).describe()
            return out
        out["problem"] = getattr(self.problem, "NAME", os.path.basename(job["problem_dir"].rstrip("/")))
        out["mode"] = self.backend.name
        out["provenance"] = self.backend.provenance()
        out["speedup_time"] = self.speedup_time if self.opts["call_time"] else "device"
        if self.speedup_time == "call" and not self.opts["call_time"]:
            out["speedup_time_note"] = "SPEEDUP_TIME is call, but call time was not measured (options.call_time false)"
        out["launch_bound_margin"] = float(self.opts["launch_bound_margin"])
        out["provenance"].update({"timing_method": self.backend.timing_method, "flush_l2": bool(self.opts["flush_l2"]),
                                  "kernel_method": getattr(self.backend, "kernel_method", None)
                                  if self.opts["cupti"] else None,
                                  "call_method": self.backend.call_method if self.opts["call_time"] else None,
                                  "stop_rule": {k: self.opts[k] for k in ("min_samples", "max_samples", "target_rse",
                                                                           "time_budget_ms", "wall_budget_ms")}})
        if self.opts["gpu_memory_limit_mb"]:
            out["gpu_memory_limit"] = self.backend.set_memory_limit(float(self.opts["gpu_memory_limit_mb"]))
        wanted = self.opts["cases"]
        unknown = [c for c in wanted if c not in {x["name"] for x in cases}]
        if unknown:
            out["status"] = "bad_request"
            out["message"] = f"options.cases: no case named {unknown[0]!r}"
            return out
        measured = []
        try:
            self.progress("loading the candidate")
            self.candidate = load_candidate(job["candidate_file"])
            for case in cases:
                if wanted and case["name"] not in wanted:
                    continue
                r = self.run_case(case)
                measured.append((case, r))
                out["cases"].append(r)
                out["status"] = worse(out["status"], r["status"])
                if r["status"] != "ok" and "message" not in out:
                    out["message"] = f"case {r['name']}: {r['message']}"
        except CandidateError as e:
            out["status"] = worse(out["status"], e.status)
            out["error"] = e.describe()
            out["message"] = f"{e.status} during {e.phase}: {out['error']['type']}: {out['error']['message']}"[:2000]
        self.kernel_pass(measured)
        for case, r in measured:
            self.finish_case(case, r)
        speedups = [c["speedup"] for c in out["cases"] if c.get("speedup")]
        if speedups and len(speedups) == len(out["cases"]) and out["status"] == "ok":
            out["geomean_speedup"] = geomean(speedups)
            out["geomean_speedup_median"] = geomean([c["speedup_median"] for c in out["cases"]])
            for kind in SPEEDUP_TIMES:
                if all(kind in c.get("speedups", {}) for c in out["cases"]):
                    out.setdefault("geomean_speedups", {})[kind] = {
                        "mean": geomean([c["speedups"][kind]["mean"] for c in out["cases"]]),
                        "median": geomean([c["speedups"][kind]["median"] for c in out["cases"]])}
        launch_bound = [c["name"] for c in out["cases"] if c.get("launch_bound")]
        if launch_bound:
            out["launch_bound_cases"] = launch_bound
        noisy = [c["name"] for c in out["cases"] if c.get("noisy")]
        if noisy:
            out["noisy_cases"] = noisy
        implausible = [c["name"] for c in out["cases"] if c.get("implausible")]
        if implausible:
            out["implausible_cases"] = implausible
            out["implausible_note"] = ("measured faster than the case's memory-bandwidth floor (bytes it must move "
                                       "/ peak bandwidth): not a record")
        return out


def problem_contract(problem):
    """TOLERANCE and CASES as problem.py must give them: a tolerance of finite, non-negative rtol and atol (a problem
    without one would pass anything, or nothing, without saying so) and at least one case, each with a name. Raises
    ValueError naming what is wrong."""
    if not hasattr(problem, "TOLERANCE"):
        raise ValueError('problem.py has no TOLERANCE; give TOLERANCE = {"rtol": ..., "atol": ...}')
    tolerance = problem.TOLERANCE
    if not isinstance(tolerance, dict) or not {"rtol", "atol"} <= set(tolerance):
        raise ValueError('problem.py: TOLERANCE must be a dict with "rtol" and "atol"')
    for key in ("rtol", "atol"):
        value = tolerance[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
            raise ValueError(f"problem.py: TOLERANCE[{key!r}] must be a finite number of zero or more, not {value!r}")
    cases = getattr(problem, "CASES", None)
    if not isinstance(cases, (list, tuple)) or not cases:
        raise ValueError("problem.py: CASES must be a non-empty list of cases (dicts with a 'name')")
    for i, case in enumerate(cases):
        if not isinstance(case, dict) or not isinstance(case.get("name"), str) or not case["name"]:
            raise ValueError(f"problem.py: CASES[{i}] must be a dict with a non-empty 'name'")
    return dict(tolerance), list(cases)


def speedup_time_of(problem):
    """SPEEDUP_TIME in problem.py; without it the paper's convention for its tasks (GPU MODE timed single calls after
    a synchronise: call time) and device time for the others."""
    default = "call" if getattr(problem, "PAPER_TASK", None) else "device"
    value = getattr(problem, "SPEEDUP_TIME", default)
    if value not in SPEEDUP_TIMES:
        raise ValueError(f"problem.py: SPEEDUP_TIME must be 'device' or 'call', not {value!r}")
    return value


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def summarize(report):
    keep = {k: report[k] for k in ("mismatches", "elements", "shortcut") if k in report}
    return keep


def describe_mismatch(report, when):
    if "shortcut" in report:
        return f"{report['shortcut']} ({when}): {report['shortcut_note']}"
    for leaf in report["outputs"]:
        if leaf.get("structure_mismatch"):
            return (f"incorrect ({when}): the output has {leaf['actual_leaves']} tensors/arrays, "
                    f"the reference {leaf['expected_leaves']}")
        if leaf.get("shape_mismatch"):
            return f"incorrect ({when}): {leaf['output']} has shape {leaf['actual']}, expected {leaf['expected_shape']}"
        if leaf.get("mismatches"):
            return (f"incorrect ({when}): {leaf['output']}: {leaf['mismatches']} of {leaf['elements']} elements "
                    f"outside tolerance, max abs error {leaf.get('max_abs_error')}, max rel error "
                    f"{leaf.get('max_rel_error')} at {leaf.get('where')}")
    return f"incorrect ({when})"
