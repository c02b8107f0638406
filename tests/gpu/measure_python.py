#!/usr/bin/env python3
"""Device sweep of the Python problems (resources/problems) through the real gpuf-measure: every variant of every
problem measured with the harness, then the same candidates timed in this process with triton.testing.do_bench
(ratio per problem; the goal is within +-3%), then the anti-cheat candidates of tests/gpu/python_cheats.
Writes $OUT/python_results.jsonl (one line per variant and case) and $OUT/python_dobench.jsonl; prints tables last."""
import argparse
import datetime
import importlib.util
import json
import math
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpuf_worker import Worker, default_binary  # noqa: E402

OUT = os.environ.get("OUT", "/tmp")
TRITON_CACHE = "/tmp/gpuf-triton-shared"
SWEEP_OPTIONS = {"flush_l2": True, "max_samples": 100, "target_rse": 0.001, "time_budget_ms": 1500,
                 "wall_budget_ms": 20000, "timeout_ms": 240000, "triton_cache_dir": TRITON_CACHE}


def problems(root, wanted):
    for name in sorted(os.listdir(root)):
        folder = os.path.join(root, name)
        if (wanted and name not in wanted) or not os.path.isfile(os.path.join(folder, "variants.json")):
            continue
        with open(os.path.join(folder, "variants.json"), encoding="utf-8") as f:
            yield name, folder, json.load(f)["variants"]


def measure(worker, folder, name, source, options):
    request = {"type": "measure", "candidate": {"format": "gpuf-python/1", "name": name, "source": source},
               "problem": {"dir": os.path.abspath(folder)}, "options": options}
    response, wall = worker.request(request, timeout_s=options.get("timeout_ms", 240000) / 1000 + 30)
    return response or {"status": "timeout", "message": "gpuf-measure gave no answer"}, wall


def selected(root, wanted, variants_wanted, order=()):
    """(problem, folder, variant) to measure. variants_wanted holds "name" (in every problem) or "problem/name";
    empty means all. order, a list of "problem/name", puts those first in its order (slow ones can go last)."""
    bare = {x for x in variants_wanted if "/" not in x}
    qualified = {x for x in variants_wanted if "/" in x}
    chosen = []
    for problem, folder, variants in problems(root, wanted):
        for v in variants:
            key = f"{problem}/{v['name']}"
            if variants_wanted and key not in qualified and v["name"] not in bare:
                continue
            chosen.append((problem, folder, v))
    rank = {name: i for i, name in enumerate(order)}
    return sorted(chosen, key=lambda c: rank.get(f"{c[0]}/{c[2]['name']}", len(rank)))


def sweep(worker, chosen, device, out):
    rows = []
    for problem, folder, v in chosen:
        with open(os.path.join(folder, v["file"]), encoding="utf-8") as f:
            source = f.read()
        r, wall = measure(worker, folder, f"{problem}/{v['name']}", source, SWEEP_OPTIONS)
        at = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        base = {"language": "python", "operation": problem, "variant": v["name"], "parent": v.get("parent"),
                "kind": v.get("kind"), "reference": "ref_kernel", "request_status": r.get("status"),
                "request_wall_s": round(wall, 2), "device": device, "measured_at": at,
                "provenance": r.get("provenance"), "isolation": r.get("isolation"),
                "geomean_speedup": r.get("geomean_speedup")}
        cases = r.get("cases") or []
        if not cases:
            line = dict(base, case=None, status=r.get("status"), message=r.get("message"), error=r.get("error"),
                        log_tail=(r.get("log_tail") or "")[-1500:])
            rows.append(line)
            out.write(json.dumps(line) + "\n")
        for c in cases:
            line = dict(base, case=c["name"], **{k: val for k, val in c.items() if k != "name"})
            if c.get("status") != "ok":
                line["request_message"] = r.get("message")
            rows.append(line)
            out.write(json.dumps(line) + "\n")
        out.flush()
        t = [f"{c['name']}={c['timing']['mean_us']:.1f}/{c['timing']['median_us']:.1f}us"
             f"(x{c.get('speedup', 0):.2f}/{c.get('speedup_median', 0):.2f} rse {c['timing']['rel_std_error']:.3f})"
             for c in cases if c.get("timing")]
        print(f"{problem:16s} {v['name']:30s} {r.get('status'):14s} {wall:6.1f}s {' '.join(t)} "
              f"{'' if r.get('status') == 'ok' else (r.get('message') or '')[:160]}", flush=True)
    return rows


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def dobench(rows, root, out, wanted=()):
    """triton.testing.do_bench (events, 256 MB L2 flush per repetition; its mean, then its median) on the harness's
    timing inputs, for the sweep's rows (those of the variants in wanted, "problem/variant", when given)."""
    import torch
    import triton
    os.environ["TRITON_CACHE_DIR"] = TRITON_CACHE
    by_problem = {}
    for r in rows:
        if wanted and f"{r['operation']}/{r['variant']}" not in wanted:
            continue
        if r.get("status") == "ok" and r.get("timing"):
            by_problem.setdefault(r["operation"], []).append(r)
    summary = []
    for problem, prow in sorted(by_problem.items()):
        folder = os.path.join(root, problem)
        mod = load(os.path.join(folder, "problem.py"), f"p_{problem}")
        with open(os.path.join(folder, "variants.json"), encoding="utf-8") as f:
            files = {v["name"]: v["file"] for v in json.load(f)["variants"]}
        ratios = []
        for r in prow:
            cand = load(os.path.join(folder, files[r["variant"]]), f"c_{problem}_{r['variant']}")
            case = next(c for c in mod.CASES if c["name"] == r["case"])
            data = mod.generate_input(seed=int(case.get("seed", 42)) + 7919, **case["args"])
            try:
                ms = triton.testing.do_bench(lambda: cand.custom_kernel(data), return_mode="mean")
                ms_median = triton.testing.do_bench(lambda: cand.custom_kernel(data), return_mode="median")
            except Exception as e:
                out.write(json.dumps({"operation": problem, "variant": r["variant"], "case": r["case"],
                                      "error": f"{type(e).__name__}: {e}"}) + "\n")
                continue
            t = r["timing"]
            ratio = t["mean_us"] / (ms * 1e3)
            ratio_median = t["median_us"] / (ms_median * 1e3)
            ratios.append((ratio, ratio_median))
            out.write(json.dumps({"operation": problem, "variant": r["variant"], "case": r["case"],
                                  "harness_mean_us": t["mean_us"], "do_bench_mean_us": ms * 1e3, "ratio": ratio,
                                  "harness_median_us": t["median_us"], "do_bench_median_us": ms_median * 1e3,
                                  "ratio_median": ratio_median, "harness_min_us": t["min_us"],
                                  "harness_samples": t["n"], "harness_rel_std_error": t["rel_std_error"],
                                  "harness_stop_reason": t["stop_reason"], "harness_gc_disabled": t.get("gc_disabled"),
                                  "harness_launch_guard_us": t.get("launch_guard_us"),
                                  "device": (r.get("device") or {}).get("name"),
                                  "measured_at": r.get("measured_at")}) + "\n")
            out.flush()  # a stage cut by its time limit keeps the comparisons made so far
            del data
            torch.cuda.empty_cache()
        if ratios:
            line = [problem, len(ratios)]
            for k in (0, 1):
                xs = [x[k] for x in ratios]
                line += [math.exp(sum(math.log(x) for x in xs) / len(xs)), max(xs, key=lambda x: abs(math.log(x))),
                         sum(abs(x - 1) <= 0.03 for x in xs)]
            summary.append(line)
    print("do_bench comparison (harness / do_bench, same candidate and inputs, both flushing L2): mean | median")
    for problem, n, gm, worst, within, gm2, worst2, within2 in summary:
        print(f"  {problem:18s} n={n:3d} mean: geomean {gm:.3f} worst {worst:.3f} within 3% {within}/{n} | "
              f"median: geomean {gm2:.3f} worst {worst2:.3f} within 3% {within2}/{n}")


def cheats(worker, root, only=()):
    folder = os.path.join(root, "row_softmax_triton")
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "python_cheats")
    expected = {"returns_input_inplace": "returned_input", "cache_by_shape": "reused_output",
                "late_cache": "the last timed call", "pointer_cache": "caught", "syntax_error": "compile_failed",
                "triton_compile_error": "compile_failed", "illegal_address": "runtime_error"}
    print("anti-cheat and failure candidates on row_softmax:")
    results = []
    for name, want in expected.items():
        if only and name not in only:
            continue
        with open(os.path.join(here, name + ".py"), encoding="utf-8") as f:
            source = f.read()
        r, wall = measure(worker, folder, f"cheat/{name}", source, dict(SWEEP_OPTIONS, time_budget_ms=300))
        implausible = r.get("implausible_cases") or []
        text = f"{r.get('status')} {r.get('message') or ''}"
        if want == "caught":
            ok = r.get("status") == "incorrect" or bool(implausible)
        elif want in ("compile_failed", "runtime_error"):
            ok = r.get("status") == want
        else:
            ok = r.get("status") == "incorrect" and want in (r.get("message") or "")
        results.append(ok)
        print(f"  {name:24s} {'CAUGHT' if ok else 'MISSED'}  {text[:200]}  implausible={implausible}", flush=True)
        with open(os.path.join(OUT, "python_cheats.jsonl"), "a", encoding="utf-8") as log:
            log.write(json.dumps({"cheat": name, "caught": ok, "response": r}) + "\n")
    return all(results)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--problems", default="resources/problems")
    parser.add_argument("--worker", default=default_binary())
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--only", default="", help="comma-separated problem names")
    parser.add_argument("--variants", default="", help="comma-separated variant names (or problem/variant)")
    parser.add_argument("--variants-file", default="", help="a file of problem/variant names, one a line")
    parser.add_argument("--dobench-variants", default="", help="comma-separated problem/variant names to compare "
                        "with do_bench (default: every variant swept)")
    parser.add_argument("--option", action="append", default=[], help="KEY=JSON, a harness option for the sweep")
    parser.add_argument("--results-name", default="python_results.jsonl")
    parser.add_argument("--skip-dobench", action="store_true")
    parser.add_argument("--skip-cheats", action="store_true")
    parser.add_argument("--cheats", default="", help="comma-separated cheat names (default: all)")
    args = parser.parse_args()
    for option in args.option:
        key, _, value = option.partition("=")
        SWEEP_OPTIONS[key] = json.loads(value)
    variants = [v for v in args.variants.split(",") if v]
    if args.variants_file:
        with open(args.variants_file, encoding="utf-8") as f:
            variants += [line.strip() for line in f if line.strip() and not line.startswith("#")]
    chosen = selected(args.problems, {p for p in args.only.split(",") if p}, set(variants), variants)
    worker = Worker(args.worker, "/tmp/gpuf-cubins", ["--python", args.python, "--problems-dir", args.problems])
    info, _ = worker.request({"type": "device_info"}, timeout_s=120)
    device = info.get("device") or {"unavailable": info.get("message")}
    hello, _ = worker.request({"type": "hello"}, timeout_s=60)
    print("worker python settings:", hello.get("python"))
    started = time.perf_counter()
    with open(os.path.join(OUT, args.results_name), "w", encoding="utf-8") as out:
        rows = sweep(worker, chosen, device, out)
    print(f"sweep: {len(rows)} lines in {time.perf_counter() - started:.0f} s")
    caught = True if args.skip_cheats else cheats(worker, args.problems, {c for c in args.cheats.split(",") if c})
    worker.close()
    if not args.skip_dobench:
        with open(os.path.join(OUT, "python_dobench.jsonl"), "a", encoding="utf-8") as out:
            dobench(rows, args.problems, out, {v for v in args.dobench_variants.split(",") if v})
    statuses = {}
    for r in rows:
        statuses[r.get("status")] = statuses.get(r.get("status"), 0) + 1
    print("case statuses:", statuses, "cheats all caught:", caught)


if __name__ == "__main__":
    main()
