#!/usr/bin/env python3
# A gpuf-measure stand-in for machines without a GPU: answers hello, device_info and measure (docs/measure-protocol.md)
# with one made-up GPU and timings derived from the candidate's source (the same source always gets the same time),
# so a `--gpu local` search runs end to end through the real measurement queue. It counts the measure requests it
# served in the file named by GPUF_FAKE_WORKER_LOG (one line per kernel source hash).
# `compile` answers a made-up cubin hash: the SHA-256 of the source without its comments and white space (so two
# sources differing only there "compile to the same binary"). A source holding `#error` fails to compile, in `compile`
# and in `measure`.
import hashlib
import json
import os
import re
import sys


def binary_hash(source):
    code = re.sub(r"//[^\n]*|/\*.*?\*/", "", source, flags=re.S)
    return hashlib.sha256(re.sub(r"\s+", "", code).encode()).hexdigest()


def compile_failure(source):
    return "#error" in source

DEVICE = {"ordinal": 0, "name": "Fake GPU 1", "uuid": "GPU-fake-1", "compute_capability": "9.0", "arch": "sm_90",
          "sm_count": 132, "total_memory_bytes": 85017493504, "l2_bytes": 52428800, "max_threads_per_sm": 2048,
          "max_shared_per_block_optin": 232448, "memory_bus_width_bits": 5120, "memory_clock_khz": 2619000,
          "sm_clock_khz": 1980000, "peak_bandwidth_gbs": 3352.3, "driver_version": "580.0",
          "clocks": {"available": False, "reason": "fake worker"}}


def reply(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    request = json.loads(line)
    rid = request.get("id")
    kind = request.get("type")
    if kind == "hello":
        reply({"id": rid, "type": "hello", "status": "ok", "protocol": "gpuf-measure/1", "worker_version": "fake",
               "nvrtc_version": "13.0", "gpu_available": True,
               "devices": [{k: DEVICE[k] for k in ("ordinal", "name", "uuid", "compute_capability", "arch")}]})
    elif kind == "device_info":
        reply({"id": rid, "type": "device_info", "status": "ok", "device": DEVICE})
    elif kind == "compile":
        source = request.get("spec", {}).get("source", "")
        if compile_failure(source):
            reply({"id": rid, "type": "compile", "status": "compile_failed",
                   "message": "NVRTC failed to compile: #error in the source",
                   "compile": {"ok": False, "log": "error: #error directive"}})
        else:
            reply({"id": rid, "type": "compile", "status": "ok",
                   "compile": {"ok": True, "arch": "sm_90", "binary_sha256": binary_hash(source)}})
    elif kind == "measure":
        spec = request.get("candidate", {})
        source = spec.get("source", "")
        digest = hashlib.sha256(source.encode()).hexdigest()
        log = os.environ.get("GPUF_FAKE_WORKER_LOG")
        if log:
            with open(log, "a") as f:
                f.write(digest + "\n")
        if compile_failure(source):
            reply({"id": rid, "type": "measure", "status": "compile_failed", "restart_required": False,
                   "message": "candidate failed to compile: #error in the source",
                   "provenance": {"gpu_name": DEVICE["name"]},
                   "compile": {"candidate": {"ok": False, "log": "error: #error directive"}}, "cases": []})
            continue
        median = 50.0 + int(digest[:6], 16) % 1000 / 10.0
        cases = []
        for case in spec.get("cases", []):
            cases.append({"name": case.get("name", ""), "status": "ok", "launches": [],
                          "timing": {"method": "cuda_events", "n": 10, "median_us": median, "mean_us": median,
                                     "min_us": median, "max_us": median, "std_us": 0.0, "rel_std_error": 0.0,
                                     "flush_l2": True}})
        reply({"id": rid, "type": "measure", "status": "ok", "restart_required": False,
               "provenance": {"gpu_name": DEVICE["name"], "timing_method": "cuda_events", "flush_l2": True},
               "compile": {"candidate": {"ok": True, "arch": "sm_90", "binary_sha256": binary_hash(source)}},
               "cases": cases})
    elif kind == "shutdown":
        reply({"id": rid, "type": "shutdown", "status": "ok"})
        break
    else:
        reply({"id": rid, "status": "bad_request", "message": "fake worker"})
