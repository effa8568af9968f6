"""The softswitch: a p4sim program as a switch process — ports on network interfaces
(AF_PACKET) and BfRuntime over gRPC, the stand-in for bf_switchd + tofino-model.
Run it with ``python -m p4sim.switchd --help``."""
