#!/usr/bin/env python3
"""Measures every variant of every operation in a corpus (docs/kernel-spec.md layout) with gpuf-measure.

For each operation: builds the complete gpuf-kernel/1 spec of each variant (problem.json's shared part + the
variant's source and launches), sends one `measure` request per variant (candidate = the variant, reference =
the problem's reference variant, all cases), and writes one JSON line per (variant, case) to the output file.
Runs on the device machine; needs only Python's standard library and the gpuf-measure binary.
"""
import argparse
import datetime
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpuf_worker import Worker, default_binary  # noqa: E402

SHARED_KEYS = ("buffers", "cases", "tolerance", "bytes_moved", "flops")


def build_spec(operation, problem, variant, folder):
    with open(os.path.join(folder, variant["source_file"]), encoding="utf-8") as f:
        source = f.read()
    spec = {"format": "gpuf-kernel/1", "name": f"{operation}/{variant['name']}", "language": "cuda",
            "source": source, "launches": variant["launches"]}
    if variant.get("options"):
        spec["options"] = variant["options"]
    for key in SHARED_KEYS:
        if key in problem:
            spec[key] = problem[key]
    return spec


def case_lines(operation, variant, problem, response, wall_s, device, measured_at):
    """One record per case; a response without cases (compile failure, bad request) still yields one per case.
    Every record carries the device (device_info) and the time, so `gpuf corpus --results` can store each as a
    measurement with its hardware row and provenance."""
    base = {"operation": operation, "variant": variant["name"], "parent": variant.get("parent"),
            "reference": problem["reference"], "request_wall_s": round(wall_s, 3), "device": device,
            "measured_at": measured_at}
    if response is None:
        return [dict(base, case=c["name"], status="timeout",
                     message="gpuf-measure gave no answer (killed and restarted)") for c in problem["cases"]]
    compile_info = (response.get("compile") or {}).get("candidate")
    if compile_info:
        compile_info = {k: v for k, v in compile_info.items() if k != "log" or not compile_info.get("ok")}
    common = dict(base, request_status=response.get("status"), provenance=response.get("provenance"),
                  compile=compile_info)
    cases = response.get("cases") or []
    if not cases:
        return [dict(common, case=c["name"], status=response.get("status"), message=response.get("message"),
                     errors=response.get("errors")) for c in problem["cases"]]
    out = [dict(common, case=c["name"], **{k: v for k, v in c.items() if k != "name"}) for c in cases]
    measured = {c["name"] for c in cases}
    for c in problem["cases"]:  # cases the worker never reached (it stopped after a fault)
        if c["name"] not in measured:
            out.append(dict(common, case=c["name"], status="not_run", message=response.get("message")))
    return out


def corpus_variants(corpus, wanted):
    """(operation, problem, variant, folder) for every variant of the chosen operations, in name order."""
    for operation in sorted(os.listdir(corpus)):
        folder = os.path.join(corpus, operation)
        if (wanted and operation not in wanted) or not os.path.isfile(os.path.join(folder, "problem.json")):
            continue
        with open(os.path.join(folder, "problem.json"), encoding="utf-8") as f:
            problem = json.load(f)
        with open(os.path.join(folder, "variants.json"), encoding="utf-8") as f:
            for variant in json.load(f)["variants"]:
                yield operation, problem, variant, folder


def compile_all(args):
    """Compiles every variant with NVRTC through the worker; prints one line each; returns the failure count."""
    worker = Worker(args.worker, args.cache_dir)
    failures = 0
    for operation, problem, variant, folder in corpus_variants(args.corpus, {o for o in args.operations.split(",") if o}):
        request = {"type": "compile", "spec": build_spec(operation, problem, variant, folder)}
        if args.arch:
            request["arch"] = args.arch
        response, _ = worker.request(request, timeout_s=args.timeout)
        result = (response or {}).get("compile") or {}
        ok = response is not None and response.get("status") == "ok" and result.get("ok", False)
        kernels = ", ".join(f"{k.get('entry')}: {k.get('registers')} regs, {k.get('local_bytes', 0)} B local"
                            for k in result.get("kernels", []))
        print(f"{operation:24s} {variant['name']:28s} {'ok' if ok else 'FAILED'}  {kernels}", flush=True)
        if not ok:
            failures += 1
            print(json.dumps(response, indent=1)[:4000] if response else "no answer", flush=True)
    worker.close()
    print(f"{failures} variant(s) failed to compile")
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", default="resources/corpus", help="folder of <operation>/ folders")
    parser.add_argument("--worker", default=default_binary(), help="path of gpuf-measure")
    parser.add_argument("--out", default=os.path.join(os.environ.get("OUT", "."), "corpus_results.jsonl"))
    parser.add_argument("--operations", default="", help="comma-separated operation names (default: all)")
    parser.add_argument("--options", default="{}", help="measure options as JSON, e.g. '{\"flush_l2\": false}'")
    parser.add_argument("--cache-dir", default="/tmp/gpuf-cubins")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds to wait for one response")
    parser.add_argument("--compile-only", action="store_true",
                        help="only compile every variant (works without a GPU; needs --arch there)")
    parser.add_argument("--arch", default="", help="target architecture for --compile-only, e.g. sm_90")
    args = parser.parse_args()
    if args.compile_only:
        raise SystemExit(compile_all(args))

    options = json.loads(args.options)
    wanted = {o for o in args.operations.split(",") if o}
    worker = Worker(args.worker, args.cache_dir)
    info, _ = worker.request({"type": "device_info"}, timeout_s=120)
    if not info or info.get("status") != "ok":
        raise SystemExit(f"gpuf-measure could not describe the device: {info}")
    device = info["device"]
    written = 0
    started = time.perf_counter()
    with open(args.out, "w", encoding="utf-8") as out:
        for operation in sorted(os.listdir(args.corpus)):
            folder = os.path.join(args.corpus, operation)
            if wanted and operation not in wanted:
                continue
            if not os.path.isfile(os.path.join(folder, "problem.json")):
                continue
            with open(os.path.join(folder, "problem.json"), encoding="utf-8") as f:
                problem = json.load(f)
            with open(os.path.join(folder, "variants.json"), encoding="utf-8") as f:
                variants = json.load(f)["variants"]
            by_name = {v["name"]: v for v in variants}
            reference = build_spec(operation, problem, by_name[problem["reference"]], folder)
            for variant in variants:
                candidate = build_spec(operation, problem, variant, folder)
                request = {"type": "measure", "candidate": candidate, "reference": reference, "options": options}
                response, wall = worker.request(request, timeout_s=args.timeout)
                measured_at = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds")
                measured_at = measured_at.replace("+00:00", "Z")
                for line in case_lines(operation, variant, problem, response, wall, device, measured_at):
                    out.write(json.dumps(line) + "\n")
                    written += 1
                    timing = line.get("timing") or {}
                    print(f"{operation:24s} {variant['name']:28s} {line['case']:16s} {line.get('status')!s:14s} "
                          f"{timing.get('median_us', float('nan')):12.2f} us  {timing.get('method', '')}",
                          flush=True)
                out.flush()
                if response is None or response.get("restart_required"):
                    worker.restart()
    worker.close()
    print(f"wrote {written} lines to {args.out} in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
