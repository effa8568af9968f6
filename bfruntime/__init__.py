"""BfRuntime over gRPC: our ``bfruntime.proto`` (upstream field numbers and names), the
stubs generated from it (``make bfruntime-stubs``), the bfrt.json name resolver
(``info``) and a client (``client``) for bf_switchd, the Tofino model or the softswitch."""
