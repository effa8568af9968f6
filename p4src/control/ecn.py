"""``Egress.ecn_marking``: the queue-depth threshold of congestion marking."""

from __future__ import annotations

from reference.control_plane import SwitchConfig

from p4src.control.facade import SwitchFacade

ECN_CONFIG = "pipe.Egress.ecn_marking.ecn_config"
SET_THRESHOLD = "Egress.ecn_marking.set_threshold"
QUEUE_DEPTH_MAX = (1 << 19) - 1   # deq_qdepth is 19 bits on Tofino


class EcnMarking:
    def __init__(self, facade: SwitchFacade):
        self.facade = facade

    def configure(self, config: SwitchConfig) -> None:
        # a threshold the 19-bit queue depth cannot reach never marks, as in the model
        threshold = min(config.ecn_threshold, QUEUE_DEPTH_MAX + 1)
        self.facade.default_entry_set(ECN_CONFIG, SET_THRESHOLD, {"threshold": threshold})

    def clear(self) -> None:
        self.facade.default_entry_reset(ECN_CONFIG)
