"""BfRuntime over gRPC: our ``bfruntime.proto`` (upstream field numbers and names), the
messages generated from it (``make bfruntime-stubs``), the service's stub and server
handlers (``service``), the bfrt.json name resolver
(``info``) and a client (``client``) for bf_switchd, the Tofino model or the softswitch."""
