"""Entry point: `python3 -m gpuf_harness --job JOB.json --result RESULT.json [--progress FILE]`.

Writes exactly one JSON object to RESULT (never to stdout, which belongs to the candidate's prints). Exit code 0
whenever a result was written, whatever its status.
"""
import argparse
import json
import os
import sys
import traceback


def finite(value):
    """JSON has no NaN or infinity: such figures become null."""
    if isinstance(value, float):
        return value if value == value and value not in (float("inf"), float("-inf")) else None
    if isinstance(value, dict):
        return {str(k): finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(v) for v in value]
    return value


def main():
    parser = argparse.ArgumentParser(prog="gpuf_harness")
    parser.add_argument("--job", required=True)
    parser.add_argument("--result", required=True)
    parser.add_argument("--progress")
    args = parser.parse_args()
    try:
        with open(args.job, encoding="utf-8") as f:
            job = json.load(f)
        memory_mb = float(job.get("host_memory_limit_mb") or 0)
        if memory_mb > 0 and job.get("limit_address_space"):
            # Only without CUDA: the driver reserves far more address space than it ever touches.
            import resource
            limit = int(memory_mb * 2**20)
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        from .runner import Harness
        result = Harness(job, args.progress).run()
    except BaseException as e:  # noqa: B902 - whatever happens, the worker gets an answer
        result = {"status": "infrastructure_failure", "message": f"harness failed: {type(e).__name__}: {e}",
                  "error": {"phase": "harness", "type": type(e).__name__, "message": str(e),
                            "traceback": traceback.format_exc()[-8000:]}}
    tmp = args.result + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(finite(result), f, allow_nan=False, default=str)
    os.replace(tmp, args.result)
    sys.stdout.flush()
    # Skip interpreter teardown: a candidate's threads or CUDA state must not turn a written result into a hang.
    os._exit(0)


if __name__ == "__main__":
    main()
