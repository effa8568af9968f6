"""The benchmark script keeps working (a very short run; throughput is not asserted:
CI machines are shared)."""
import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.join(HERE, "..", "..", "benchmarks", "p4sim.py")


def test_benchmark_script_runs(capsys):
    spec = importlib.util.spec_from_file_location("p4sim_benchmark", BENCH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.main(["--seconds", "0.05"]) == 0
    out = capsys.readouterr().out
    assert "p4sim:" in out and "packets/s" in out
