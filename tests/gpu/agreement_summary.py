#!/usr/bin/env python3
"""Summarises timing_methods.py comparisons (methods_compare.jsonl, .gz too) for issue 29: per file, the calls whose
harness figures are this run's (not --earlier rows) and the earlier rows apart, how many are within 3 % of do_bench
(call time) and of CUPTI's kernel records (device time), the worst ratios, and every call outside 3 % with what the
agreement pass saw beside it: do_bench's own runs (first, again, collector paused), the harness's loop in the comparing
process, the events behind a guard, the single calls after a synchronise, NVML's SM clock after do_bench, and the
harness's launch-bound and noisy marks.
Usage: agreement_summary.py COMPARE.jsonl[.gz] ..."""
import gzip
import json
import math
import sys


def rows_of(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def median(r, key):
    return (r.get(key) or {}).get("median_us")


def counts(rows):
    for key in ("call/do_bench", "device/cupti"):
        xs = [r["ratios"][key] for r in rows if key in r.get("ratios", {})]
        if xs:
            worst = max(xs, key=lambda x: abs(math.log(x)))
            print(f"  {key:14s} {sum(abs(x - 1) <= 0.03 for x in xs):3d}/{len(xs):3d} within 3 %, range "
                  f"{min(xs):.3f}-{max(xs):.3f}, worst {worst:.3f}")


def outside(rows):
    def fmt(x):
        return f"{x:9.1f}" if x is not None else f"{'-':>9s}"
    print(f"  {'problem/variant@case':52s} {'device':>9s} {'cupti':>9s} {'guarded':>9s} {'call':>9s} {'sync1':>9s} "
          f"{'db':>9s} {'db2':>9s} {'db_nogc':>9s} {'here':>9s} {'MHz':>5s}  marks")
    for r in rows:
        q = r.get("ratios", {})
        if not any(abs(q.get(k, 1) - 1) > 0.03 for k in ("call/do_bench", "device/cupti")):
            continue
        call = r.get("harness_call") or {}
        marks = [m for m, on in (("launch-bound", r.get("launch_bound")), ("noisy", call.get("noisy"))) if on]
        name = f"{r['operation']}/{r['variant']}@{r['case']}"
        print(f"  {name[:52]:52s} {fmt(r['harness_device'].get('median_us'))} {fmt(median(r, 'cupti_sum'))} "
              f"{fmt(median(r, 'events_guarded'))} {fmt(call.get('median_us'))} "
              f"{fmt((call.get('after_sync') or {}).get('median_us'))} {fmt(median(r, 'do_bench'))} "
              f"{fmt(median(r, 'do_bench_again'))} {fmt(median(r, 'do_bench_nogc'))} {fmt(median(r, 'loop_here'))} "
              f"{(r.get('do_bench_clocks') or {}).get('sm_mhz') or '-':>5}  {' '.join(marks)}")


def main():
    for path in sys.argv[1:]:
        rows = rows_of(path)
        for label, subset in (("this run's harness figures", [r for r in rows if not r.get("earlier")]),
                              ("earlier runs' harness figures", [r for r in rows if r.get("earlier")])):
            if subset:
                print(f"{path}: {label}, {len(subset)} calls")
                counts(subset)
                outside(subset)


if __name__ == "__main__":
    main()
