"""Unit tests of the harness (resources/python/gpuf_harness) that need no GPU: error classification, comparison,
the GPU MODE stop rule; and, where PyTorch is installed, every shipped problem's reference against its PyTorch
variants on the CPU (skipped with the reason otherwise)."""
import importlib.util
import json
import os
import sys
import types
import unittest

from gpuf_harness import runner
from gpuf_harness.backends import StdlibBackend

PROBLEMS = os.environ.get("GPUF_PROBLEMS_DIR", os.path.join(os.path.dirname(__file__), "..", "..", "..", "resources",
                                                             "problems"))


class ProblemContract(unittest.TestCase):
    """problem.py must state its tolerance and at least one case; each way to get it wrong is named."""

    def problem(self, **fields):
        return types.SimpleNamespace(**fields)

    def refused(self, problem, words):
        with self.assertRaises(ValueError) as raised:
            runner.problem_contract(problem)
        self.assertIn(words, str(raised.exception))

    def test_accepts_a_complete_problem(self):
        tolerance, cases = runner.problem_contract(
            self.problem(TOLERANCE={"rtol": 1e-3, "atol": 0}, CASES=[{"name": "small"}]))
        self.assertEqual(tolerance, {"rtol": 1e-3, "atol": 0})
        self.assertEqual([c["name"] for c in cases], ["small"])

    def test_missing_tolerance(self):
        self.refused(self.problem(CASES=[{"name": "a"}]), "problem.py has no TOLERANCE")

    def test_negative_tolerance(self):
        self.refused(self.problem(TOLERANCE={"rtol": -1e-3, "atol": 0}, CASES=[{"name": "a"}]),
                     "TOLERANCE['rtol'] must be a finite number of zero or more, not -0.001")

    def test_infinite_tolerance(self):
        self.refused(self.problem(TOLERANCE={"rtol": 0, "atol": float("inf")}, CASES=[{"name": "a"}]),
                     "TOLERANCE['atol'] must be a finite number")

    def test_tolerance_without_atol(self):
        self.refused(self.problem(TOLERANCE={"rtol": 0.1}, CASES=[{"name": "a"}]), 'with "rtol" and "atol"')

    def test_no_cases(self):
        self.refused(self.problem(TOLERANCE={"rtol": 0, "atol": 0}, CASES=[]), "CASES must be a non-empty list")

    def test_case_without_name(self):
        self.refused(self.problem(TOLERANCE={"rtol": 0, "atol": 0}, CASES=[{"n": 1}]), "CASES[0] must be a dict")

    def test_every_shipped_problem_keeps_the_contract(self):
        names = sorted(n for n in os.listdir(PROBLEMS) if os.path.isfile(os.path.join(PROBLEMS, n, "problem.py")))
        self.assertTrue(names)
        checked, missing = [], []
        for name in names:
            with open(os.path.join(PROBLEMS, name, "problem.py"), encoding="utf-8") as f:
                source = f.read()
            namespace = {}
            try:
                exec(compile(source, name, "exec"), namespace)  # noqa: S102 - our own shipped problem files
            except ImportError as e:  # a backend this machine lacks (torch, triton)
                missing.append(f"{name}: {e}")
                continue
            runner.problem_contract(types.SimpleNamespace(**namespace))
            checked.append(name)
        if not checked:
            self.skipTest("; ".join(missing))


class Classification(unittest.TestCase):
    def test_triton_compile_errors_are_compile_failed(self):
        errors = types.ModuleType("triton.compiler.errors")
        cls = type("CompilationError", (Exception,), {"__module__": "triton.compiler.errors"})
        errors.CompilationError = cls
        e = runner.classify_call_error(cls("at 3:4: name 'x' is not defined"), "correctness")
        self.assertEqual(e.status, "compile_failed")
        self.assertEqual(e.phase, "triton_compile")

    def test_subclass_of_a_triton_compile_error(self):
        base = type("CompilationError", (Exception,), {"__module__": "triton.compiler.errors"})
        sub = type("UnsupportedLanguageConstruct", (base,), {"__module__": "triton.compiler.errors"})
        self.assertEqual(runner.classify_call_error(sub("no"), "warmup").status, "compile_failed")

    def test_other_exceptions_are_runtime_errors(self):
        for exc in (ValueError("v"), RuntimeError("CUDA error: an illegal memory access was encountered"),
                    MemoryError(), SystemExit(3)):
            e = runner.classify_call_error(exc, "correctness")
            self.assertEqual(e.status, "runtime_error")
            d = e.describe()
            self.assertIn("traceback", d)
            self.assertEqual(d["phase"], "correctness")

    def test_severity_order_matches_the_protocol(self):
        self.assertEqual(runner.worse("ok", "incorrect"), "incorrect")
        self.assertEqual(runner.worse("timeout", "runtime_error"), "timeout")
        self.assertEqual(runner.worse("compile_failed", "infrastructure_failure"), "infrastructure_failure")


class Comparison(unittest.TestCase):
    def test_where_and_errors(self):
        b = StdlibBackend({})
        r = b.compare("out", [1.0, 2.0, 3.5], [1.0, 2.0, 3.0], 0.0, 0.1)
        self.assertEqual(r["mismatches"], 1)
        self.assertEqual(r["where"], [2])
        self.assertAlmostEqual(r["max_abs_error"], 0.5)
        self.assertAlmostEqual(r["max_rel_error"], 0.5 / 3.0)

    def test_nan_never_passes(self):
        b = StdlibBackend({})
        self.assertEqual(b.compare("out", [float("nan")], [1.0], 1.0, 1.0)["mismatches"], 1)

    def test_shape_mismatch(self):
        r = StdlibBackend({}).compare("out", [1.0], [1.0, 2.0], 0, 0)
        self.assertTrue(r["shape_mismatch"])


class StopRule(unittest.TestCase):
    def harness(self, **options):
        options.setdefault("noise_rse", 1.0)  # the stop rule alone: no second try of a noisy timing
        h = runner.Harness({"options": options})
        h.backend = StdlibBackend({})
        return h

    def test_noisy_timing_measured_again_after_cooldown(self):
        h = self.harness(min_samples=4, max_samples=4, warmup=0, target_rse=0.0, noise_rse=0.0, cooldown_ms=0)
        calls = []
        timing, _ = h.time(lambda d: calls.append(1), [1.0], "candidate")
        self.assertEqual(len(calls), 8)  # four samples, then four again
        self.assertEqual(timing["remeasured"]["first"]["n"], 4)
        self.assertTrue(timing["noisy"])
        timing, _ = self.harness(min_samples=3, max_samples=3, warmup=0).time(lambda d: d, [1.0], "candidate")
        self.assertNotIn("remeasured", timing)
        self.assertFalse(timing["noisy"])

    def test_min_and_max_samples(self):
        h = self.harness(min_samples=4, max_samples=4, warmup=0, target_rse=0.0)
        timing, _ = h.time(lambda d: d, [1.0], "candidate")
        self.assertEqual(timing["n"], 4)
        self.assertEqual(timing["stop_reason"], "max_samples")
        self.assertEqual(timing["statistic"], "mean")

    def test_target_reached_after_min_samples(self):
        h = self.harness(min_samples=3, max_samples=100, warmup=0, target_rse=1.0)
        timing, _ = h.time(lambda d: d, [1.0], "candidate")
        self.assertEqual(timing["n"], 3)
        self.assertEqual(timing["stop_reason"], "target_rse")

    def test_samples_kept_and_collector_paused_while_sampling(self):
        import gc
        seen = []
        h = self.harness(min_samples=5, max_samples=5, warmup=0, target_rse=0.0, keep_samples=True)
        timing, _ = h.time(lambda d: seen.append(gc.isenabled()), [1.0], "candidate")
        self.assertEqual(len(timing["samples_us"]), 5)
        self.assertEqual(seen, [False] * 5)
        self.assertTrue(gc.isenabled())
        self.assertTrue(timing["gc_disabled"])
        h = self.harness(min_samples=3, max_samples=3, warmup=0, disable_gc=False)
        seen.clear()
        timing, _ = h.time(lambda d: seen.append(gc.isenabled()), [1.0], "candidate")
        self.assertEqual(seen, [True] * 3)
        self.assertNotIn("samples_us", timing)

    def test_time_budget(self):
        h = self.harness(min_samples=3, max_samples=1000000, warmup=0, target_rse=0.0, time_budget_ms=0.001)
        timing, _ = h.time(lambda d: sum(range(1000)), [1.0], "candidate")
        self.assertEqual(timing["n"], 3)
        self.assertEqual(timing["stop_reason"], "time_budget")


class CallTime(unittest.TestCase):
    """Call time is do_bench's loop: a warm-up and repetitions sized by the estimate of one call."""

    def harness(self, **options):
        options.setdefault("noise_rse", 1.0)
        h = runner.Harness({"options": options})
        h.backend = StdlibBackend({})
        return h

    def test_repetitions_follow_the_budget(self):
        import time as clock
        calls = []

        def sleepy(d):
            calls.append(1)
            clock.sleep(0.002)
        timing, _ = self.harness(warmup=0, call_warmup_ms=4, call_rep_ms=20, after_sync=False).time(
            sleepy, [1.0], "candidate", "call")
        self.assertEqual(timing["method"], "cpu_perf_counter_loop")
        self.assertEqual(timing["stop_reason"], "call_rep_ms")
        # About 2 ms a call: 20 ms of repetitions is 10 or fewer (sleeps overrun, never underrun); 2 or more unless a
        # loaded machine stretches the 2 ms sleeps past 10 ms
        self.assertGreaterEqual(timing["n"], 2)
        self.assertLessEqual(timing["n"], 10)
        self.assertGreaterEqual(timing["median_us"], 2000.0)
        self.assertGreaterEqual(len(calls), 5 + 1 + timing["n"])  # the estimate's 5, a warm-up of 1 or more, reps
        self.assertLessEqual(len(calls), 5 + 2 + timing["n"])  # 4 ms of warm-up at 2 ms a call
        self.assertNotIn("after_sync", timing)

    def test_single_calls_after_a_synchronise_beside_it(self):
        timing, _ = self.harness(warmup=0, call_rep_ms=1, min_samples=3, max_samples=50, target_rse=0.0).time(
            lambda d: d, [1.0], "candidate", "call")
        single = timing["after_sync"]
        self.assertEqual(single["method"], "cpu_perf_counter")
        self.assertEqual(single["n"], 20)  # at most 20 whatever max_samples says
        self.assertGreater(single["median_us"], 0.0)

    def test_launch_bound_needs_margin_and_microseconds(self):
        h = self.harness(launch_bound_margin=0.1, launch_bound_min_us=5.0)
        r = {"timing": {"median_us": 10.0}, "call_timing": {"median_us": 14.0}}
        h.add_launch_bound(r, "timing", "call_timing", "")
        self.assertFalse(r["launch_bound"])  # 40 % over, but 4 us: the events' own overhead
        self.assertAlmostEqual(r["host_overhead_us"], 4.0)
        r = {"timing": {"median_us": 100.0}, "call_timing": {"median_us": 108.0}}
        h.add_launch_bound(r, "timing", "call_timing", "")
        self.assertFalse(r["launch_bound"])  # 8 us, but under 10 %
        r = {"timing": {"median_us": 10.0}, "call_timing": {"median_us": 40.0}}
        h.add_launch_bound(r, "timing", "call_timing", "")
        self.assertTrue(r["launch_bound"])


class KernelRecords(unittest.TestCase):
    """Device time from CUPTI's records: one call's records lie between its two spin marks."""

    def rec(self, start, end, name):
        return (start * 1000, end * 1000, name)

    def test_records_between_marks_are_summed_per_call(self):
        from gpuf_harness.backends import calls_between_marks
        records = [self.rec(0, 50, "FillFunctor"), self.rec(50, 350, "spin_kernel(long)"),
                   self.rec(352, 362, "softmax_kernel"), self.rec(365, 370, "Memset"),
                   self.rec(371, 372, "at::cuda::spin_kernel(long)"),
                   self.rec(400, 450, "FillFunctor"), self.rec(450, 750, "spin_kernel(long)"),
                   self.rec(751, 760, "softmax_kernel"), self.rec(761, 762, "spin_kernel(long)")]
        calls, why = calls_between_marks(records, 2)
        self.assertIsNone(why)
        self.assertEqual([c["records"] for c in calls], [2, 1])
        self.assertAlmostEqual(calls[0]["sum_us"], 15.0)  # 10 + 5: the gap between them is not the call's work
        self.assertAlmostEqual(calls[0]["span_us"], 18.0)
        self.assertAlmostEqual(calls[1]["sum_us"], 9.0)

    def test_unusable_records_say_why(self):
        from gpuf_harness.backends import calls_between_marks
        self.assertIn("CUPTI unavailable", calls_between_marks([], 3)[1])
        odd = [self.rec(0, 1, "spin_kernel"), self.rec(1, 2, "k"), self.rec(2, 3, "spin_kernel"),
               self.rec(3, 4, "spin_kernel")]
        self.assertIn("3 spin marks", calls_between_marks(odd, 2)[1])
        empty = [self.rec(0, 1, "spin_kernel"), self.rec(1, 2, "spin_kernel")]
        self.assertIn("no GPU work", calls_between_marks(empty, 1)[1])

    def harness(self, backend):
        h = runner.Harness({"options": {"min_samples": 3, "cupti_max_samples": 4}})
        h.backend = backend
        return h

    def test_kernel_figure_replaces_the_events_and_keeps_them(self):
        class Recorded(StdlibBackend):
            kernel_method, kernel_note = "cupti_kernel_sum", "records"

            def kernel_samples(self, fn, data, flusher, guard_us, count):
                self.count = count
                return [{"sum_us": 10.0 + i, "span_us": 12.0 + i, "records": 2} for i in range(count)], None
        backend = Recorded({})
        h = self.harness(backend)
        events = {"method": "cuda_events", "n": 40, "mean_us": 13.0, "median_us": 12.5, "min_us": 12.0,
                  "rel_std_error": 0.001, "stop_reason": "target_rse", "noisy": False}
        result = {"timing": dict(events)}
        h.kernel_time(result, "timing", lambda d: d, [1.0])
        t = result["timing"]
        self.assertEqual(backend.count, 4)  # the events' 40, capped by cupti_max_samples
        self.assertEqual(t["method"], "cupti_kernel_sum")
        self.assertEqual(t["n"], 4)
        self.assertAlmostEqual(t["mean_us"], 11.5)
        self.assertAlmostEqual(t["median_us"], 11.5)
        self.assertAlmostEqual(t["span"]["median_us"], 13.5)
        self.assertEqual(t["events"]["median_us"], 12.5)
        self.assertEqual(t["events"]["method"], "cuda_events")

    def test_without_records_the_events_stay_and_say_why(self):
        h = self.harness(StdlibBackend({}))
        result = {"timing": {"method": "cpu_thread_time", "n": 5, "median_us": 3.0, "mean_us": 3.0}}
        h.kernel_time(result, "timing", lambda d: d, [1.0])
        self.assertEqual(result["timing"]["method"], "cpu_thread_time")
        self.assertEqual(result["timing"]["kernel_records"], "no GPU in the standard-library mode")

        class Broken(StdlibBackend):
            def kernel_samples(self, fn, data, flusher, guard_us, count):
                raise RuntimeError("CUPTI_ERROR_NOT_INITIALIZED")
        h = self.harness(Broken({}))
        result = {"timing": {"method": "cuda_events", "n": 5, "median_us": 3.0, "mean_us": 3.0}}
        h.kernel_time(result, "timing", lambda d: d, [1.0])
        self.assertEqual(result["timing"]["method"], "cuda_events")
        self.assertIn("CUPTI_ERROR_NOT_INITIALIZED", result["timing"]["kernel_records"])


class ShippedProblems(unittest.TestCase):
    """The shipped problems' folders are complete and their variants.json agrees with problem.py (no PyTorch needed:
    the literals are read with ast)."""

    def test_folders_agree(self):
        import ast
        names = [n for n in sorted(os.listdir(PROBLEMS)) if os.path.isfile(os.path.join(PROBLEMS, n, "problem.py"))]
        self.assertGreaterEqual(len(names), 7)
        for name in names:
            with self.subTest(problem=name):
                folder = os.path.join(PROBLEMS, name)
                literals = {}
                for node in ast.parse(open(os.path.join(folder, "problem.py"), encoding="utf-8").read()).body:
                    if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
                        try:
                            literals[node.targets[0].id] = ast.literal_eval(node.value)
                        except ValueError:
                            pass
                with open(os.path.join(folder, "variants.json"), encoding="utf-8") as f:
                    meta = json.load(f)
                self.assertEqual(meta["format"], "gpuf-python-variants/1")
                self.assertEqual(literals["NAME"], name)
                self.assertEqual(meta["problem"]["name"], name)
                self.assertEqual(meta["problem"]["cases"], literals["CASES"])
                self.assertEqual(meta["problem"]["tolerance"], literals["TOLERANCE"])
                self.assertGreaterEqual(len(meta["variants"]), 8)
                seen = set()
                for v in meta["variants"]:
                    self.assertTrue(os.path.isfile(os.path.join(folder, v["file"])), v["file"])
                    self.assertTrue(v["parent"] is None or v["parent"] in seen, v["name"])
                    self.assertGreater(len(v["note"]), 80, v["name"])
                    with open(os.path.join(folder, v["file"]), encoding="utf-8") as f:
                        self.assertIn("def custom_kernel(", f.read())
                    seen.add(v["name"])


def _load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


try:
    import torch  # noqa: F401
    HAVE_TORCH = True
except ImportError:
    HAVE_TORCH = False


# Installed for the full configuration only (Debian 13's python3-torch 2.6, with float8, in the root CI reuses): on
# Debian 12 the package is 1.13.1 without float8 types (fp8_group_quant would stay unchecked) and brings 151 packages,
# about 570 MB installed, to every developer's machine for this one CPU check.
@unittest.skipUnless(HAVE_TORCH, "PyTorch is not installed (the full configuration, Debian 13, installs "
                                 "python3-torch; Debian 12's 1.13 is not a test dependency)")
class ProblemsOnCpu(unittest.TestCase):
    """Each problem's PyTorch variants against its reference on the CPU, at the problem's CPU_CASE size."""

    def test_pytorch_variants_match_the_reference(self):
        import torch
        from gpuf_harness.backends import TorchBackend
        compare = TorchBackend.compare
        fake = types.SimpleNamespace(torch=torch)
        checked = 0
        for name in sorted(os.listdir(PROBLEMS)):
            folder = os.path.join(PROBLEMS, name)
            if not os.path.isfile(os.path.join(folder, "variants.json")):
                continue
            problem = _load(os.path.join(folder, "problem.py"), f"cpu_{name}")
            if name == "fp8_group_quant" and not hasattr(torch, "float8_e4m3fn"):
                continue
            with open(os.path.join(folder, "variants.json"), encoding="utf-8") as f:
                variants = [v for v in json.load(f)["variants"] if v["kind"] == "pytorch"]
            data = problem.generate_input(seed=42, device="cpu", **problem.CPU_CASE)
            expected = problem.ref_kernel(data)
            for v in variants:
                with self.subTest(problem=name, variant=v["name"]):
                    out = _load(os.path.join(folder, v["file"]), f"cpu_{name}_{v['name']}").custom_kernel(data)
                    outs = out if isinstance(out, tuple) else (out,)
                    exps = expected if isinstance(expected, tuple) else (expected,)
                    for i, (o, e) in enumerate(zip(outs, exps)):
                        rep = compare(fake, f"out[{i}]", o.float(), e.float(), problem.TOLERANCE["rtol"] * 5,
                                      problem.TOLERANCE["atol"] * 5)
                        self.assertEqual(rep["mismatches"], 0, rep)
                    checked += 1
        self.assertGreater(checked, 0)


if __name__ == "__main__":
    unittest.main()
