"""The executable ATP specification (docs/protocol.md).

Pure Python + numpy: no pytest, no I/O. ``run_scenario(Scenario) -> Run`` is the entry
point; the modules below it are one concern each (wire, quantize, placement,
aggregator, switch, ps, worker, topology, control_plane, faults, network, scenario).
"""

from reference.run import Run, run_scenario
from reference.scenario import Scenario, ScenarioError

__all__ = ["Run", "Scenario", "ScenarioError", "run_scenario"]
