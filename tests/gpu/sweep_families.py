#!/usr/bin/env python3
"""Measures kernel-family sweep plans (`gpuf sweep --family F --plan FILE`) with gpuf-measure on a GPU machine.

Runs without Qt: it reads each plan (gpuf-sweep-plan/1: the complete gpuf-kernel/1 spec of every configuration and of
the problem's reference), and writes one recorded sweep per family (gpuf-sweep/1, docs/search.md) that `gpuf sweep
STORE --import FILE` and replay searches read.

Two phases, so that the GPU is timed by one process alone:
1. correctness, in parallel over --jobs workers: every configuration is compiled (the cubin cache is shared) and
   checked against the reference on every case (fresh seeded inputs, poisoned outputs), with a token timing;
2. timing, one worker: the reference and every configuration that passed, timed on every case with the L2 flushed
   between samples. A family's timing stops at its time budget; configurations not reached are left out of its file.
"""
import argparse
import concurrent.futures
import datetime
import json
import os
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpuf_worker import Worker, default_binary  # noqa: E402

CORRECTNESS_OPTIONS = {"flush_l2": False, "warmup": 1, "min_samples": 2, "max_samples": 2, "time_budget_ms": 1.0,
                       "correctness_runs": 2, "timeout_ms": 10000}
TIMING_OPTIONS = {"flush_l2": True, "warmup": 2, "min_samples": 10, "max_samples": 50, "target_rse": 0.01,
                  "time_budget_ms": 200.0, "check_correctness": False, "timeout_ms": 10000}
CASE_KEYS = ("name", "status", "message", "launches", "bytes_moved", "flops", "floor_us", "achieved_bandwidth_gbs",
             "implausible", "clocks_before", "clocks_after")
TIMING_KEYS = ("median_us", "mean_us", "min_us", "max_us", "std_us", "n", "rel_std_error", "method", "flush_l2",
               "reached_target", "warmup")


def now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def read_plan(path):
    with open(path, encoding="utf-8") as f:
        lines = [json.loads(line) for line in f if line.strip()]
    header = lines[0]
    if header.get("format") != "gpuf-sweep-plan/1":
        raise SystemExit(f"{path}: not a gpuf-sweep-plan/1 file")
    return header, lines[1:]


def trim_compile(compile_info):
    if not compile_info:
        return {}
    keep = {k: v for k, v in compile_info.items() if k not in ("options",)}
    if compile_info.get("ok"):
        keep.pop("log", None)
    elif isinstance(keep.get("log"), str):
        keep["log"] = keep["log"][:4000]
    return keep


def trim_case(case):
    out = {k: case[k] for k in CASE_KEYS if k in case}
    timing = case.get("timing")
    if timing:
        out["timing"] = {k: timing[k] for k in TIMING_KEYS if k in timing}
    correctness = case.get("correctness")
    if correctness:
        out["correctness"] = {k: correctness.get(k) for k in ("checked", "runs", "elements", "mismatches", "note")
                              if k in correctness}
        out["correctness"]["max_abs_error"] = max((b.get("max_abs_error", 0.0) for b in correctness.get("buffers", [])),
                                                  default=0.0)
    return out


class Pool:
    """One gpuf-measure per thread, restarted after a fault."""

    def __init__(self, binary, cache_dir):
        self.binary, self.cache_dir = binary, cache_dir
        self.local = threading.local()
        self.workers = []
        self.lock = threading.Lock()

    def request(self, body, timeout_s):
        worker = getattr(self.local, "worker", None)
        if worker is None:
            worker = Worker(self.binary, self.cache_dir)
            self.local.worker = worker
            with self.lock:
                self.workers.append(worker)
        response, wall = worker.request(body, timeout_s=timeout_s)
        if response is None or response.get("restart_required"):
            worker.restart()
        return response, wall

    def close(self):
        for w in self.workers:
            w.close()


def correctness_pass(pool, plans, jobs, timeout_s):
    """{(family, index): response} for every configuration of every plan."""
    tasks = []
    for header, configs in plans:
        reference = header["reference"]["spec"]
        for c in configs:
            tasks.append((header["family"], c["index"], c["spec"], reference))
    results = {}
    done = 0
    started = time.perf_counter()

    def run(task):
        family, index, spec, reference = task
        request = {"type": "measure", "candidate": spec, "reference": reference, "options": CORRECTNESS_OPTIONS}
        response, _ = pool.request(request, timeout_s)
        return family, index, response

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as executor:
        for family, index, response in executor.map(run, tasks):
            results[(family, index)] = response
            done += 1
            if done % 100 == 0 or done == len(tasks):
                print(f"correctness: {done}/{len(tasks)} in {time.perf_counter() - started:.1f} s", flush=True)
    return results


def entry_from(config, checked, timed):
    """The gpuf-sweep/1 config record: the correctness pass's verdict, the timing pass's cases."""
    entry = {"record": "config", "tunables": config["tunables"], "name": config["name"],
             "content_hash": config["content_hash"]}
    if checked is None:
        entry.update(status="timeout", message="gpuf-measure gave no answer in the correctness pass", cases=[])
        return entry
    entry["compile"] = trim_compile((checked.get("compile") or {}).get("candidate"))
    correctness = {c["name"]: c.get("correctness") for c in checked.get("cases", [])}
    if checked.get("status") != "ok":
        entry.update(status=checked.get("status"), message=checked.get("message", ""),
                     provenance=checked.get("provenance", {}),
                     cases=[trim_case(c) for c in checked.get("cases", [])])
        return entry
    if timed is None:
        entry.update(status="timeout", message="gpuf-measure gave no answer in the timing pass", cases=[])
        return entry
    cases = []
    for c in timed.get("cases", []):
        case = trim_case(c)
        if correctness.get(c["name"]):
            case["correctness"] = trim_case({"correctness": correctness[c["name"]]})["correctness"]
        cases.append(case)
    entry.update(status=timed.get("status"), provenance=timed.get("provenance", {}), cases=cases)
    if timed.get("message"):
        entry["message"] = timed["message"]
    return entry


def timing_pass(binary, cache_dir, plan, checked, device, out_dir, budget_s, timeout_s):
    header, configs = plan
    family = header["family"]
    worker = Worker(binary, cache_dir)
    started = time.perf_counter()
    path = os.path.join(out_dir, f"{family}.jsonl")
    counts = {"ok": 0, "failed": 0, "skipped": 0, "statuses": {}}
    with open(path, "w", encoding="utf-8") as out:
        out.write(json.dumps({"format": "gpuf-sweep/1", "record": "header", "family": family,
                              "family_hash": header["family_hash"], "problem": header["problem"], "device": device,
                              "options": TIMING_OPTIONS, "correctness_options": CORRECTNESS_OPTIONS,
                              "configs_valid": header["configs_valid"], "seed": header["seed"],
                              "started_at": now()}) + "\n")
        reference = header["reference"]
        response, _ = worker.request({"type": "measure", "candidate": reference["spec"], "options": TIMING_OPTIONS},
                                     timeout_s=timeout_s)
        ref_entry = {"record": "reference", "name": reference["name"], "content_hash": reference["content_hash"],
                     "status": (response or {}).get("status", "timeout"), "measured_at": now(),
                     "compile": trim_compile(((response or {}).get("compile") or {}).get("candidate")),
                     "provenance": (response or {}).get("provenance", {}),
                     "cases": [trim_case(c) for c in (response or {}).get("cases", [])]}
        out.write(json.dumps(ref_entry) + "\n")
        out.flush()
        for config in configs:
            check = checked.get((family, config["index"]))
            timed = None
            if check is not None and check.get("status") == "ok":
                if time.perf_counter() - started > budget_s:
                    counts["skipped"] += 1
                    continue
                timed, _ = worker.request({"type": "measure", "candidate": config["spec"], "options": TIMING_OPTIONS},
                                          timeout_s=timeout_s)
                if timed is None or timed.get("restart_required"):
                    worker.restart()
            entry = entry_from(config, check, timed)
            entry["measured_at"] = now()
            counts["ok" if entry["status"] == "ok" else "failed"] += 1
            if entry["status"] != "ok":
                counts["statuses"][entry["status"]] = counts["statuses"].get(entry["status"], 0) + 1
            out.write(json.dumps(entry) + "\n")
            out.flush()
        wall = time.perf_counter() - started
        out.write(json.dumps({"record": "summary", "configs_measured": counts["ok"] + counts["failed"],
                              "failures": counts["failed"], "skipped": counts["skipped"], "wall_s": round(wall, 3)})
                  + "\n")
    worker.close()
    return counts, wall


def compile_all(plans, args):
    """Compiles every configuration with NVRTC (no GPU needed with --arch); returns the number that failed."""
    pool = Pool(args.worker, args.cache_dir)
    tasks = [(h["family"], c) for h, configs in plans for c in configs]

    def run(task):
        family, config = task
        response, _ = pool.request({"type": "compile", "arch": args.arch, "spec": config["spec"]}, args.timeout)
        return family, config, response

    failures = 0
    spills = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as executor:
        for family, config, response in executor.map(run, tasks):
            result = (response or {}).get("compile") or {}
            if not result.get("ok"):
                failures += 1
                print(f"{family} {config['name']}: FAILED\n{(result.get('log') or str(response))[:3000]}", flush=True)
                continue
            for k in result.get("kernels", []):
                if k.get("spill_store_bytes", 0) > 0 or k.get("local_bytes", 0) > 0:
                    spills += 1
                    print(f"{family} {config['name']}: {k['entry']} {k.get('registers')} registers, "
                          f"{k.get('local_bytes')} B local, {k.get('spill_store_bytes')} B spilled", flush=True)
    pool.close()
    print(f"{len(tasks)} configurations compiled for {args.arch}: {failures} failed, {spills} with local memory")
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--plans", required=True, help="folder of *.plan.jsonl files")
    parser.add_argument("--worker", default=default_binary())
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    parser.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2) - 2))
    parser.add_argument("--cache-dir", default="/tmp/gpuf-cubins")
    parser.add_argument("--family-budget-s", type=float, default=120.0, help="timing time per family")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds to wait for one response")
    parser.add_argument("--compile-only", action="store_true", help="only compile (works without a GPU with --arch)")
    parser.add_argument("--arch", default="sm_90", help="architecture for --compile-only")
    args = parser.parse_args()

    plans = [read_plan(os.path.join(args.plans, f)) for f in sorted(os.listdir(args.plans)) if f.endswith(".jsonl")]
    if args.compile_only:
        raise SystemExit(compile_all(plans, args))
    probe = Worker(args.worker, args.cache_dir)
    info, _ = probe.request({"type": "device_info"}, timeout_s=120)
    probe.close()
    if not info or info.get("status") != "ok":
        raise SystemExit(f"gpuf-measure could not describe the device: {info}")
    device = info["device"]
    print(f"device: {device['name']} ({device['compute_capability']}), {len(plans)} families, "
          f"{sum(len(c) for _, c in plans)} configurations, {args.jobs} correctness workers", flush=True)

    started = time.perf_counter()
    pool = Pool(args.worker, args.cache_dir)
    checked = correctness_pass(pool, plans, args.jobs, args.timeout)
    pool.close()
    correctness_s = time.perf_counter() - started
    rows = []
    for plan in plans:
        counts, wall = timing_pass(args.worker, args.cache_dir, plan, checked, device, args.out,
                                   args.family_budget_s, args.timeout)
        rows.append((plan[0]["family"], len(plan[1]), counts, wall, counts["statuses"]))
    print(f"correctness pass: {correctness_s:.1f} s; total {time.perf_counter() - started:.1f} s")
    print(f"{'family':14s} {'planned':>7s} {'ok':>5s} {'failed':>6s} {'skipped':>7s} {'timing_s':>8s}  failures")
    for family, planned, counts, wall, failures in rows:
        print(f"{family:14s} {planned:7d} {counts['ok']:5d} {counts['failed']:6d} {counts['skipped']:7d} "
              f"{wall:8.1f}  {json.dumps(failures)}")


if __name__ == "__main__":
    main()
