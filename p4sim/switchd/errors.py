"""The one exception a BfRuntime entity's handler raises: its gRPC status and why, and
how p4sim's control-plane errors map to it (so every table answers the same failure with
the same status)."""

from __future__ import annotations

import grpc

from p4sim.errors import ControlPlaneError


class DeviceError(Exception):
    """One entity could not be applied; ``code`` is the gRPC status it maps to."""

    def __init__(self, code: grpc.StatusCode, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def bad_request(msg: str) -> DeviceError:
    return DeviceError(grpc.StatusCode.INVALID_ARGUMENT, msg)


def from_control_plane(e: ControlPlaneError) -> DeviceError:
    """The status bf_switchd gives the driver error behind ``e``'s message."""
    text = str(e)
    if "already exists" in text or "in use by" in text:
        # a member/group still named: the driver's BF_ENTRY_REFERENCES_EXIST
        return DeviceError(grpc.StatusCode.ALREADY_EXISTS, text)
    if "no entry" in text or text.startswith("no multicast"):
        return DeviceError(grpc.StatusCode.NOT_FOUND, text)
    if "is full" in text:
        return DeviceError(grpc.StatusCode.RESOURCE_EXHAUSTED, text)
    return bad_request(text)
