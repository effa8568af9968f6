"""The one exception a BfRuntime entity's handler raises: its gRPC status and why."""

from __future__ import annotations

import grpc


class DeviceError(Exception):
    """One entity could not be applied; ``code`` is the gRPC status it maps to."""

    def __init__(self, code: grpc.StatusCode, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def bad_request(msg: str) -> DeviceError:
    return DeviceError(grpc.StatusCode.INVALID_ARGUMENT, msg)
