#!/usr/bin/env python3
"""Sets the live searches of tests/gpu/live-vs-replay.sh beside their replays: per family, mode and seed, the GPU
evaluations, the best speedup and configuration, and the evaluations it took to reach the best (the n-th
evaluation_completed whose speedup is the search's best); then per family and mode the replay seeds' spread (min-max)
and whether the live mean lies inside it. The replays' bests hardly spread (most seeds end at the space's optimum), so
the best is also compared with the measurement's own repeatability: live / replay within 1 %, the recorded sweeps'
stop rule (1 % relative standard error).
Usage: live_vs_replay.py LIVE REPLAY [--markdown]; each a folder with HOW-status.jsonl, HOW-events.tar.gz (or .tar.xz)
and HOW.log, or those files' common prefix (resources/searches/live-vs-replay-h200-2026-11-29.)."""
import argparse
import io
import json
import os
import re
import statistics
import tarfile


def load(where, how):
    """{search name: {"evaluations", "best", "to_best", "config"}} from a run's status lines, event logs and log.
    where: the script's $OUT folder, or the prefix its files were renamed with (resources/searches/NAME.)."""
    def path(suffix):
        return os.path.join(where, how + suffix) if os.path.isdir(where) else where + how + suffix

    runs = {}
    with open(path("-status.jsonl"), encoding="utf-8") as f:
        for line in f:
            if line.strip():
                s = json.loads(line)
                runs[s["name"]] = {"evaluations": s["gpu_evaluations"], "best": s["best_speedup"], "to_best": None,
                                   "hardware": s.get("hardware"), "status": s.get("status")}
    events = path("-events.tar.gz")
    with tarfile.open(events if os.path.exists(events) else path("-events.tar.xz")) as tar:
        for member in tar.getmembers():
            name = os.path.basename(member.name).removesuffix(".events.jsonl")
            if not member.isfile() or name not in runs:
                continue
            n = 0
            for line in io.TextIOWrapper(tar.extractfile(member), encoding="utf-8"):
                event = json.loads(line)
                if event.get("kind") != "evaluation_completed":
                    continue
                n += 1
                speedup = (event.get("feedback") or {}).get("aggregated_speedup")
                if speedup is not None and abs(speedup - runs[name]["best"]) <= 1e-9 * runs[name]["best"]:
                    runs[name]["to_best"] = n
                    break
    try:
        with open(path(".log"), encoding="utf-8") as f:
            text = f.read()
    except OSError:
        text = ""
    for name, config in re.findall(r"^search (\S+) .*\nbest [0-9.]+×(?: \(replay\))?: (.*?) \(kernel", text, re.M):
        if name in runs:
            runs[name]["config"] = config
    return runs


def split(name):
    family, mode, seed = name.rsplit("-", 2)
    return family, mode, int(seed.removeprefix("s"))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("live")
    parser.add_argument("replay")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    live, replay = load(args.live, "live"), load(args.replay, "replay")
    names = sorted(set(live) & set(replay), key=split)
    hardware = {r["hardware"] for r in live.values()} | {r["hardware"] for r in replay.values()}
    print(f"hardware: {', '.join(sorted(h or '?' for h in hardware))}; {len(names)} searches in both")
    rows = []
    for name in names:
        family, mode, seed = split(name)
        a, b = live[name], replay[name]
        rows.append((family, mode, seed, a, b))
    if args.markdown:
        print("| family | mode | seed | GPU evaluations live / replay | best live / replay | evaluations to the best "
              "live / replay | same best configuration |")
        print("|---|---|---|---|---|---|---|")
        for family, mode, seed, a, b in rows:
            same = "yes" if a.get("config") == b.get("config") else f"no: {a.get('config')} / {b.get('config')}"
            print(f"| {family} | {mode} | {seed} | {a['evaluations']} / {b['evaluations']} | {a['best']:.3f}× / "
                  f"{b['best']:.3f}× | {a['to_best']} / {b['to_best']} | {same} |")
    else:
        for family, mode, seed, a, b in rows:
            print(f"{family:12s} {mode:10s} seed {seed}: evaluations {a['evaluations']:4d} / {b['evaluations']:4d}  "
                  f"best {a['best']:.3f} / {b['best']:.3f}  to best {a['to_best']} / {b['to_best']}  "
                  f"{a.get('config')} / {b.get('config')}")
    print("\nper family and mode: live mean against the replay seeds' spread (min-max)")
    groups = {}
    for family, mode, seed, a, b in rows:
        groups.setdefault((family, mode), []).append((a, b))
    for (family, mode), pairs in sorted(groups.items()):
        parts = []
        for key in ("evaluations", "to_best"):
            lv = [a[key] for a, _ in pairs if a[key] is not None]
            rv = [b[key] for _, b in pairs if b[key] is not None]
            if not lv or not rv:
                continue
            mean = statistics.fmean(lv)
            inside = min(rv) <= mean <= max(rv)
            parts.append(f"{key} live {mean:.3g} replay {statistics.fmean(rv):.3g} [{min(rv):.3g}, {max(rv):.3g}] "
                         f"{'inside' if inside else 'OUTSIDE'}")
        ratios = [a["best"] / b["best"] for a, b in pairs]
        parts.append(f"best live/replay {min(ratios):.4f}-{max(ratios):.4f} "
                     f"{'within 1 %' if all(abs(r - 1) <= 0.01 for r in ratios) else 'NOT within 1 %'}")
        print(f"  {family:12s} {mode:10s} " + "; ".join(parts))


if __name__ == "__main__":
    main()
