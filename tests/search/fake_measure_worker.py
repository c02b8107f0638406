#!/usr/bin/env python3
# A gpuf-measure stand-in for machines without a GPU: answers hello, device_info and measure (docs/measure-protocol.md)
# with one made-up GPU and timings derived from the candidate's source (the same source always gets the same time),
# so a `--gpu local` search runs end to end through the real measurement queue. It counts the measure requests it
# served in the file named by GPUF_FAKE_WORKER_LOG (one line per kernel source hash).
import hashlib
import json
import os
import sys

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
    elif kind == "measure":
        spec = request.get("candidate", {})
        source = spec.get("source", "")
        digest = hashlib.sha256(source.encode()).hexdigest()
        log = os.environ.get("GPUF_FAKE_WORKER_LOG")
        if log:
            with open(log, "a") as f:
                f.write(digest + "\n")
        median = 50.0 + int(digest[:6], 16) % 1000 / 10.0
        cases = []
        for case in spec.get("cases", []):
            cases.append({"name": case.get("name", ""), "status": "ok", "launches": [],
                          "timing": {"method": "cuda_events", "n": 10, "median_us": median, "mean_us": median,
                                     "min_us": median, "max_us": median, "std_us": 0.0, "rel_std_error": 0.0,
                                     "flush_l2": True}})
        reply({"id": rid, "type": "measure", "status": "ok", "restart_required": False,
               "provenance": {"gpu_name": DEVICE["name"], "timing_method": "cuda_events", "flush_l2": True},
               "compile": {}, "cases": cases})
    elif kind == "shutdown":
        reply({"id": rid, "type": "shutdown", "status": "ok"})
        break
    else:
        reply({"id": rid, "status": "bad_request", "message": "fake worker"})
