"""The two ways the harness touches data: PyTorch on a CUDA GPU, or plain Python lists (the GPU-free test mode).

A backend clones inputs, synchronises, times calls, flushes L2, walks an output's leaves and compares them.
Each backend gives two figures of a call (docs/python-problems.md, "Device time and call time"):
- device time: the work itself, with the host's launch work left out. On a GPU, CUPTI's kernel records (through
  torch.profiler) of one call, its kernels' and copies' durations summed; where CUPTI gives no records, CUDA events
  around the call with a spin queued before the start event so that the host's launch work is hidden. The method
  used is stored with the figure.
- call time: what a caller of the function in a loop waits for per call, timed as triton.testing.do_bench times it
  (a warm-up, then repetitions queued without a synchronise, each an L2 flush, a start event, the call and an end
  event): the host's launch work shows where it is slower than the GPU's flush before the call.
The standard-library backend exists so the protocol, isolation and every failure kind can be tested on machines
without a GPU; its timings are CPU times of Python code and are labelled so, never as GPU figures: its "device" time
is the thread's CPU time (a sleep on the host is not in it) and its call time the wall-clock time.
"""
import copy
import math
import time


def _leaves(value, path, out, is_leaf):
    if is_leaf(value):
        out.append((path, value))
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            _leaves(item, f"{path}[{i}]", out, is_leaf)
    elif isinstance(value, dict):
        for key in sorted(value, key=str):
            _leaves(value[key], f"{path}[{key!r}]", out, is_leaf)
    else:
        out.append((path, value))
    return out


def _close(c, r, rtol, atol):
    if isinstance(r, float) and math.isnan(r):
        return False
    if isinstance(c, float) and math.isnan(c):
        return False
    return abs(c - r) <= atol + rtol * abs(r)


class StdlibBackend:
    """Outputs are numbers or (nested) lists of numbers; device time is the thread's CPU time of the call
    (time.thread_time_ns), call time its wall-clock time (time.perf_counter_ns)."""

    name = "stdlib"
    timing_method = "cpu_thread_time"
    timing_note = ("standard-library test mode: CPU time of the calling thread (what the code computed; time slept "
                   "or waited is not in it), not a GPU measurement")
    call_method = "cpu_perf_counter_loop"
    call_note = ("standard-library test mode: wall-clock time of each call of a do_bench-like loop (a warm-up, then "
                 "repetitions for call_rep_ms on one copy of the inputs), sleeps and waits included")
    after_sync_method = "cpu_perf_counter"
    after_sync_note = "standard-library test mode: wall-clock time of one call, sleeps and waits included"

    def __init__(self, device):
        self.device = device

    def provenance(self):
        return {"backend": self.name}

    def clone(self, data):
        return copy.deepcopy(data)

    def sync(self):
        pass

    def set_memory_limit(self, megabytes):
        return "not applicable (no GPU in the standard-library mode)"

    def make_flusher(self):
        return None

    def time_call(self, fn, args, flusher, guard_us=0.0):
        start = time.thread_time_ns()
        out = fn(args)
        return out, (time.thread_time_ns() - start) / 1e3

    def time_call_sync(self, fn, args, flusher):
        start = time.perf_counter_ns()
        out = fn(args)
        return out, (time.perf_counter_ns() - start) / 1e3

    def call_loop(self, fn, args, flusher, warmup_ms, rep_ms):
        """do_bench's loop on the host clock: 5 calls estimate one, warm-up calls for warmup_ms, then repetitions for
        rep_ms. Returns each repetition's wall-clock time (us) and the last output."""
        start = time.perf_counter_ns()
        for _ in range(5):
            out = fn(args)
        estimate_ms = max((time.perf_counter_ns() - start) / 5e6, 1e-6)
        for _ in range(_count(warmup_ms, estimate_ms)):
            out = fn(args)
        times = []
        for _ in range(_count(rep_ms, estimate_ms)):
            start = time.perf_counter_ns()
            out = fn(args)
            times.append((time.perf_counter_ns() - start) / 1e3)
        return times, out

    def kernel_samples(self, fn, data, flusher, guard_us, count):
        """No kernel records without a GPU: device time stays the thread's CPU time."""
        return None, "no GPU in the standard-library mode"

    def leaves(self, value):
        def is_leaf(v):
            return isinstance(v, list) and all(isinstance(x, (int, float)) for x in v)
        return _leaves(value, "out", [], is_leaf)

    def storages(self, value):
        """Identities of every mutable container in value (lists and dicts), to catch a returned input."""
        ids = set()

        def walk(v):
            if isinstance(v, (list, dict)):
                ids.add(id(v))
            if isinstance(v, (list, tuple)):
                for item in v:
                    walk(item)
            elif isinstance(v, dict):
                for item in v.values():
                    walk(item)
        walk(value)
        return ids

    def compare(self, path, cand, ref, rtol, atol):
        """One leaf: mismatches, max abs/rel error and where the largest error is."""
        if isinstance(ref, (int, float)) and not isinstance(ref, bool):
            ref, cand = [ref], [cand] if isinstance(cand, (int, float)) else cand
        if not isinstance(cand, list) or len(cand) != len(ref):
            got = f"length {len(cand)}" if isinstance(cand, list) else type(cand).__name__
            return {"output": path, "shape_mismatch": True, "expected_shape": [len(ref)], "actual": got,
                    "elements": len(ref), "mismatches": len(ref)}
        mism, max_abs, max_rel, where = 0, 0.0, 0.0, None
        for i, (c, r) in enumerate(zip(cand, ref)):
            if not isinstance(c, (int, float)):
                mism += 1
                where = where if where is not None else [i]
                continue
            err = abs(c - r) if not (math.isnan(c) or math.isnan(r)) else math.inf
            rel = err / abs(r) if r else (0.0 if err == 0 else math.inf)
            if not _close(c, r, rtol, atol):
                mism += 1
            if err > max_abs or where is None:
                max_abs, where = max(max_abs, err), [i]
            max_rel = max(max_rel, rel)
        return {"output": path, "elements": len(ref), "mismatches": mism, "max_abs_error": _finite(max_abs),
                "max_rel_error": _finite(max_rel), "where": where}


def _finite(x):
    return x if math.isfinite(x) else None


class TorchBackend:
    """PyTorch tensors on the current CUDA device; CUDA events around each call, optional L2 flush."""

    name = "torch"
    timing_method = "cuda_events"
    timing_note = ("device time: CUDA events around one call per sample, synchronised before and after, the host's "
                   "launch work hidden behind a GPU spin queued before the start event (launch_guard_us)")
    kernel_method = "cupti_kernel_sum"
    kernel_note = ("device time: CUPTI's activity records (torch.profiler) of one call per sample, the durations of "
                   "the kernels, copies and fills it launched summed, after an L2 flush and a GPU spin; gaps between "
                   "the call's kernels are not in it")
    call_method = "do_bench_loop"
    call_note = ("call time: triton.testing.do_bench's loop: 5 calls estimate one, warm-up calls for call_warmup_ms, "
                 "then repetitions for call_rep_ms queued without a synchronise, each a 256 MB L2 flush, a start event, "
                 "the call and an end event, on one clone of the inputs; the host's launch work shows where it is "
                 "slower than the GPU's flush")
    after_sync_method = "cuda_events_after_sync"
    after_sync_note = ("CUDA events around one call per sample, the GPU idle at the start event (synchronised after "
                       "the L2 flush, no spin), so all of the host's launch work is in the figure")

    def __init__(self, device):
        import torch  # imported here: the standard-library mode must work without it
        self.torch = torch
        if not torch.cuda.is_available():
            raise RuntimeError("PyTorch sees no CUDA device (torch.cuda.is_available() is False)")
        torch.cuda.set_device(int(device.get("ordinal", 0)))  # the worker's --device
        self.device = device
        self.events = (torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))

    def provenance(self):
        torch = self.torch
        props = torch.cuda.get_device_properties(torch.cuda.current_device())
        info = {"backend": self.name, "torch_version": torch.__version__, "torch_cuda": torch.version.cuda,
                "gpu_name": props.name, "sm_count": props.multi_processor_count}
        try:
            import triton
            info["triton_version"] = triton.__version__
        except Exception as e:  # Triton is optional: PyTorch-only candidates run without it
            info["triton_version"] = None
            info["triton_missing"] = f"{type(e).__name__}: {e}"
        return info

    def clone(self, data):
        torch = self.torch
        if isinstance(data, torch.Tensor):
            return data.clone()
        if isinstance(data, tuple):
            return tuple(self.clone(x) for x in data)
        if isinstance(data, list):
            return [self.clone(x) for x in data]
        if isinstance(data, dict):
            return {k: self.clone(v) for k, v in data.items()}
        return copy.deepcopy(data)

    def sync(self):
        self.torch.cuda.synchronize()

    def set_memory_limit(self, megabytes):
        torch = self.torch
        total = torch.cuda.get_device_properties(torch.cuda.current_device()).total_memory
        fraction = min(1.0, megabytes * 2**20 / total)
        torch.cuda.set_per_process_memory_fraction(fraction)
        return f"PyTorch allocator capped at {megabytes} MiB ({fraction:.3f} of the device)"

    def make_flusher(self):
        # Larger than any Hopper L2 several times over, like triton.testing.do_bench's 256 MB buffer.
        l2 = int(self.device.get("l2_bytes") or 0)
        size = max(256 * 2**20, 4 * l2)
        return self.torch.empty(size // 4, dtype=self.torch.int32, device="cuda")

    def time_call(self, fn, args, flusher, guard_us=0.0):
        start, end = self.events
        self.torch.cuda.synchronize()
        if flusher is not None:
            flusher.zero_()
        if guard_us > 0:
            # Cycles at the device's nominal SM clock: at a lower clock the spin lasts longer, which only widens
            # the host's head start.
            mhz = float(self.device.get("sm_clock_khz") or 1980000) / 1e3
            self.torch.cuda._sleep(int(guard_us * mhz))
        start.record()
        out = fn(args)
        end.record()
        self.torch.cuda.synchronize()
        return out, start.elapsed_time(end) * 1e3

    def time_call_sync(self, fn, args, flusher):
        start, end = self.events
        self.torch.cuda.synchronize()
        if flusher is not None:
            flusher.zero_()
            self.torch.cuda.synchronize()  # else the flush, still running, would hide the host's launch work
        start.record()
        out = fn(args)
        end.record()
        self.torch.cuda.synchronize()
        return out, start.elapsed_time(end) * 1e3

    def call_loop(self, fn, args, flusher, warmup_ms, rep_ms):
        """triton.testing.do_bench's loop: 5 flushed calls estimate one, warm-up calls for warmup_ms, then per
        repetition an L2 flush, a start event, the call and an end event, queued without synchronising, for rep_ms.
        Returns each repetition's time (us) and the last output."""
        torch = self.torch
        out = fn(args)
        torch.cuda.synchronize()
        start, end = self.events
        start.record()
        for _ in range(5):
            if flusher is not None:
                flusher.zero_()
            out = fn(args)
        end.record()
        torch.cuda.synchronize()
        estimate_ms = max(start.elapsed_time(end) / 5, 1e-6)
        for _ in range(_count(warmup_ms, estimate_ms)):
            out = fn(args)
        count = _count(rep_ms, estimate_ms)
        starts = [torch.cuda.Event(enable_timing=True) for _ in range(count)]
        ends = [torch.cuda.Event(enable_timing=True) for _ in range(count)]
        for i in range(count):
            if flusher is not None:
                flusher.zero_()
            starts[i].record()
            out = fn(args)
            ends[i].record()
        torch.cuda.synchronize()
        return [s.elapsed_time(e) * 1e3 for s, e in zip(starts, ends)], out

    def kernel_samples(self, fn, data, flusher, guard_us, count):
        """count calls under torch.profiler (CUPTI), each on a fresh clone after an L2 flush, between two GPU spins
        that mark where the call's records begin and end. Returns ([{"sum_us", "span_us", "records"}] per call,
        None), or (None, why) where the records cannot be had or told apart."""
        torch = self.torch
        try:
            from torch.profiler import ProfilerActivity, profile
        except Exception as e:  # noqa: B902 - an old or trimmed PyTorch: device time by events
            return None, f"torch.profiler unavailable: {type(e).__name__}: {e}"
        cycles = max(1, int(guard_us * float(self.device.get("sm_clock_khz") or 1980000) / 1e3))
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(count):
                args = self.clone(data)
                torch.cuda.synchronize()
                if flusher is not None:
                    flusher.zero_()
                torch.cuda._sleep(cycles)  # the start mark, and the launch guard
                fn(args)
                torch.cuda._sleep(1)  # the end mark
                torch.cuda.synchronize()
        return calls_between_marks(device_records(prof), count)

    def leaves(self, value):
        return _leaves(value, "out", [], lambda v: isinstance(v, self.torch.Tensor))

    def storages(self, value):
        ptrs = set()
        for _, leaf in _leaves(value, "in", [], lambda v: isinstance(v, self.torch.Tensor)):
            if isinstance(leaf, self.torch.Tensor) and leaf.numel() > 0:
                ptrs.add(leaf.untyped_storage().data_ptr())
        return ptrs

    def compare(self, path, cand, ref, rtol, atol):
        torch = self.torch
        if not isinstance(ref, torch.Tensor):
            ref = torch.tensor(ref)
        if not isinstance(cand, torch.Tensor):
            return {"output": path, "shape_mismatch": True, "expected_shape": list(ref.shape),
                    "actual": type(cand).__name__, "elements": ref.numel(), "mismatches": ref.numel()}
        if tuple(cand.shape) != tuple(ref.shape):
            return {"output": path, "shape_mismatch": True, "expected_shape": list(ref.shape),
                    "actual": list(cand.shape), "elements": ref.numel(), "mismatches": ref.numel()}
        c = cand.detach().to(device=ref.device, dtype=torch.float64)
        r = ref.detach().to(dtype=torch.float64)
        err = (c - r).abs()
        bad = ~(err <= atol + rtol * r.abs())  # NaN on either side is a mismatch
        err_finite = torch.where(torch.isnan(err), torch.full_like(err, float("inf")), err)
        rel = err_finite / r.abs().clamp_min(1e-30)
        flat_index = int(err_finite.reshape(-1).argmax().item()) if err.numel() else 0
        where = [int(i) for i in torch.unravel_index(torch.tensor(flat_index), tuple(ref.shape))] \
            if ref.dim() else []
        out = {"output": path, "elements": ref.numel(), "mismatches": int(bad.sum().item()),
               "max_abs_error": _finite(float(err_finite.max().item())) if err.numel() else 0.0,
               "max_rel_error": _finite(float(rel.max().item())) if err.numel() else 0.0, "where": where}
        if err.numel():
            out["expected_at_where"] = _finite(float(r.reshape(-1)[flat_index].item()))
            out["actual_at_where"] = _finite(float(c.reshape(-1)[flat_index].item()))
        return out


def _count(budget_ms, estimate_ms):
    """do_bench's repetition count for a budget, at least 1; capped so that a sub-microsecond call stays bounded."""
    return max(1, min(100000, int(float(budget_ms) / estimate_ms)))


SPIN = "spin_kernel"  # the kernel of torch.cuda._sleep


def device_records(prof):
    """(start_ns, end_ns, name) of every GPU activity in a finished torch.profiler run, by start."""
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
    return records


def calls_between_marks(records, count):
    """The records between each pair of spin marks (start, end) are one call's. Returns (calls, None) or (None, why):
    no records at all (CUPTI unavailable), marks not paired, or a call with no GPU activity."""
    if not records:
        return None, "the profiler recorded no GPU activity (CUPTI unavailable)"
    marks = [i for i, r in enumerate(records) if SPIN in r[2]]
    if len(marks) != 2 * count:
        return None, f"{len(marks)} spin marks in the records for {count} calls (the call launches spins itself?)"
    calls = []
    for k in range(count):
        inside = records[marks[2 * k] + 1:marks[2 * k + 1]]
        if not inside:
            return None, "a call launched no GPU work that CUPTI recorded"
        calls.append({"sum_us": sum(e - s for s, e, _ in inside) / 1e3,
                      "span_us": (max(e for _, e, _ in inside) - min(s for s, _, _ in inside)) / 1e3,
                      "records": len(inside)})
    return calls, None


def make_backend(name, device):
    if name == "stdlib":
        return StdlibBackend(device)
    if name == "torch":
        return TorchBackend(device)
    raise ValueError(f"unknown backend {name!r} (expected 'torch' or 'stdlib')")
