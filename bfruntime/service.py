"""The BfRuntime gRPC service's shape: its five methods, their streaming kinds and
message types, in one table that the client's stub and the softswitch's server both
build from. (grpcio-tools would generate the same from bfruntime.proto, plus a servicer
base whose every method is a stub answering UNIMPLEMENTED; neither side needs that.)"""

from __future__ import annotations

from typing import Any, Callable

import grpc

from bfruntime import bfruntime_pb2 as pb

SERVICE = "bfrt_proto.BfRuntime"

# method: (request stream?, response stream?, request type, response type)
METHODS: dict[str, tuple[bool, bool, Any, Any]] = {
    "Write": (False, False, pb.WriteRequest, pb.WriteResponse),
    "Read": (False, True, pb.ReadRequest, pb.ReadResponse),
    "SetForwardingPipelineConfig": (False, False, pb.SetForwardingPipelineConfigRequest,
                                    pb.SetForwardingPipelineConfigResponse),
    "GetForwardingPipelineConfig": (False, False, pb.GetForwardingPipelineConfigRequest,
                                    pb.GetForwardingPipelineConfigResponse),
    "StreamChannel": (True, True, pb.StreamMessageRequest, pb.StreamMessageResponse),
}


class BfRuntimeStub:
    """Client side: one callable attribute per method, as ``channel`` invokes it."""

    def __init__(self, channel: grpc.Channel):
        for name, (streams_in, streams_out, request, response) in METHODS.items():
            invoke = getattr(channel, f"{'stream' if streams_in else 'unary'}_"
                                      f"{'stream' if streams_out else 'unary'}")
            setattr(self, name, invoke(f"/{SERVICE}/{name}",
                                       request_serializer=request.SerializeToString,
                                       response_deserializer=response.FromString))


def generic_handler(servicer: object,
                    parser: Callable[[Any], Callable[[bytes], Any]] | None = None
                    ) -> grpc.GenericRpcHandler:
    """Server side: ``servicer``'s methods of the same names, for
    ``server.add_generic_rpc_handlers``. A method the servicer lacks is not registered
    (gRPC answers UNIMPLEMENTED). ``parser(request type)`` gives the request
    deserializer (default: the type's ``FromString``)."""
    handlers = {}
    for name, (streams_in, streams_out, request, response) in METHODS.items():
        method = getattr(servicer, name, None)
        if method is None:
            continue
        make = getattr(grpc, f"{'stream' if streams_in else 'unary'}_"
                             f"{'stream' if streams_out else 'unary'}_rpc_method_handler")
        handlers[name] = make(method, request_deserializer=(parser or _from_string)(request),
                              response_serializer=response.SerializeToString)
    return grpc.method_handlers_generic_handler(SERVICE, handlers)


def _from_string(message_type) -> Callable[[bytes], Any]:
    return message_type.FromString
