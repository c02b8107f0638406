"""A small client for gpuf-measure (docs/measure-protocol.md), shared by the device scripts in tests/gpu."""
import json
import os
import select
import subprocess
import time


class Worker:
    """One gpuf-measure process; restart() after it exits (a CUDA fault or a watchdog timeout ends it)."""

    def __init__(self, binary, cache_dir=None, extra_args=()):
        self.binary = binary
        self.args = [binary] + (["--cache-dir", cache_dir] if cache_dir else []) + list(extra_args)
        self.proc = None
        self.next_id = 1
        self.start()

    def start(self):
        # stderr goes to a log (never a pipe nobody reads, which could fill and block the worker).
        log = os.path.join(os.environ.get("OUT", "/tmp"), "worker_stderr.log")
        with open(log, "a", encoding="utf-8") as err:
            self.proc = subprocess.Popen(self.args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=err, text=True, bufsize=1)

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def restart(self):
        self.close()
        self.start()

    def request(self, body, timeout_s=600.0):
        """Sends one request; returns (response or None, wall seconds). None: no answer (worker died or hung)."""
        if not self.alive():
            self.start()
        body = dict(body)
        body.setdefault("id", self.next_id)
        self.next_id += 1
        started = time.perf_counter()
        self.proc.stdin.write(json.dumps(body) + "\n")
        self.proc.stdin.flush()
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout_s)
        if not ready:
            self.proc.kill()
            self.proc.wait()
            return None, time.perf_counter() - started
        line = self.proc.stdout.readline()
        wall = time.perf_counter() - started
        if not line:
            return None, wall
        response = json.loads(line)
        if response.get("restart_required"):
            try:
                self.proc.wait(timeout=30)  # the worker exits by itself after a poisoned context
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return response, wall

    def close(self):
        if self.proc is None:
            return
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write('{"id":0,"type":"shutdown"}\n')
                self.proc.stdin.flush()
                self.proc.wait(timeout=10)
            except (BrokenPipeError, subprocess.TimeoutExpired, OSError):
                self.proc.kill()
                self.proc.wait()
        self.proc = None


def default_binary():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    for candidate in (os.path.join(root, ".device-build", "gpuf-measure"),
                      os.path.join(root, "build", "gpu", "app", "measure", "gpuf-measure")):
        if os.path.exists(candidate):
            return candidate
    return "gpuf-measure"
