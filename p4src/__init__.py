"""The ATP switch in P4-16/TNA (atp.p4 and its parts) and its control plane (control/)."""
