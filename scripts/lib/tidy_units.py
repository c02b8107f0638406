#!/usr/bin/env python3
"""Runs clang-tidy on translation units of a compile database, in parallel, skipping the units already found clean.

Used by scripts/check-tidy. A unit's result is cached under its key: the SHA-256 of the clang-tidy version, the
.clang-tidy file, the header filter, the unit's compile command and the unit preprocessed by that command (so a change
to any header it includes, or to a macro, makes a new key). Only clean results are kept; a unit with findings is
checked again next time. Prints each unit's findings as it finishes, then a summary; exits 1 when any unit had some.
"""

import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shlex
import subprocess
import sys
import time

FINDING = re.compile(r"^\S+:\d+:\d+: (warning|error): .*\[[\w.,-]+\]$", re.M)
GENERATED = re.compile(r"^\d+ warnings? (and \d+ errors? )?generated\.$")


def arguments_of(entry):
    if "arguments" in entry:
        return list(entry["arguments"])
    return shlex.split(entry["command"])


def preprocess_command(entry):
    """The unit's compile command with -E instead of -c and no output file: the preprocessed unit on stdout."""
    args = arguments_of(entry)
    out = []
    skip = False
    for arg in args:
        if skip:
            skip = False
            continue
        if arg == "-o":
            skip = True
            continue
        if arg.startswith("-o") and len(arg) > 2:
            continue
        out.append("-E" if arg == "-c" else arg)
    return out


def unit_key(entry, common):
    digest = hashlib.sha256(common)
    digest.update(json.dumps(arguments_of(entry)).encode())
    with subprocess.Popen(preprocess_command(entry), cwd=entry["directory"], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL) as process:
        for chunk in iter(lambda: process.stdout.read(1 << 20), b""):
            digest.update(chunk)
    if process.returncode != 0:
        return None  # does not preprocess: clang-tidy will say why, and nothing is cached
    return digest.hexdigest()


def check(entry, options, common):
    key = unit_key(entry, common) if options.cache else None
    stamp = os.path.join(options.cache, key) if key else None
    if stamp and os.path.exists(stamp):
        return entry["file"], "cached", ""
    command = [options.clang_tidy, "-p", options.database, "--quiet", "--header-filter=" + options.filter]
    if "/Unity/unity_" in entry["file"]:
        # A unity batch is CMake's file of #include "x.cpp" lines: exactly what this check is there to flag.
        command.append("--checks=-bugprone-suspicious-include")
    result = subprocess.run(command + [entry["file"]],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    # clang-tidy counts the warnings it suppressed in Qt's and the generated files ("N warnings generated."): noise.
    output = "\n".join(line for line in result.stdout.splitlines() if not GENERATED.match(line))
    if result.returncode == 0 and not FINDING.search(output):
        if stamp:
            with open(stamp, "w"):
                pass
        return entry["file"], "clean", output
    return entry["file"], "findings", output


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--database", required=True, help="the folder of the compile_commands.json to use")
    parser.add_argument("--filter", required=True, help="clang-tidy's --header-filter")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--cache", default="", help="the folder of the clean units' keys; empty: no cache")
    parser.add_argument("--clang-tidy", default="clang-tidy")
    parser.add_argument("--config", required=True, help="the .clang-tidy file (part of the key)")
    parser.add_argument("units", nargs="+", help="source files, as the database names them")
    options = parser.parse_args()

    entries = {}
    for entry in json.load(open(os.path.join(options.database, "compile_commands.json"))):
        entries.setdefault(entry["file"], entry)
    missing = [unit for unit in options.units if unit not in entries]
    if missing:
        sys.exit("not in the compile database: " + ", ".join(missing))
    if options.cache:
        os.makedirs(options.cache, exist_ok=True)
    version = subprocess.run([options.clang_tidy, "--version"], stdout=subprocess.PIPE, check=True).stdout
    common = version + open(options.config, "rb").read() + options.filter.encode()

    started = time.monotonic()
    counts = {"cached": 0, "clean": 0, "findings": 0}
    findings = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, options.jobs)) as pool:
        futures = [pool.submit(check, entries[unit], options, common) for unit in options.units]
        for future in concurrent.futures.as_completed(futures):
            unit, state, output = future.result()
            counts[state] += 1
            if state == "findings":
                findings += len(FINDING.findall(output)) or 1
                print(output or f"{unit}: clang-tidy failed without a message", flush=True)
    elapsed = time.monotonic() - started
    print(f"clang-tidy: {len(options.units)} unit(s) in {elapsed:.0f} s: {counts['clean']} checked clean, "
          f"{counts['cached']} unchanged since a clean check, {counts['findings']} with findings "
          f"({findings} finding(s))", file=sys.stderr)
    return 1 if counts["findings"] else 0


if __name__ == "__main__":
    sys.exit(main())
