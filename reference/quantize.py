"""Quantization between gradients and the switch's int32 values (spec section 3)."""

from __future__ import annotations

import numpy as np

from reference.wire import INT32_MAX

DEFAULT_SCALE = 1e6


class QuantizationError(ValueError):
    """A gradient value that cannot be sent at all (NaN or infinite)."""


def default_threshold(fan_in: int) -> float:
    """``(2^31 - 1) / N``: N worst-case values cannot overflow an int32."""
    if fan_in < 1:
        raise ValueError(f"fan_in must be at least 1, got {fan_in}")
    return INT32_MAX / fan_in


def check_finite(values: np.ndarray) -> None:
    """Reject NaN and infinities: neither integer nor float mode can carry them."""
    bad = ~np.isfinite(values)
    if bad.any():
        index = int(np.flatnonzero(bad)[0])
        raise QuantizationError(
            f"gradient element {index} is {values[index]!r}; ATP carries only finite "
            f"values")


def needs_float_mode(values: np.ndarray, scale: float, threshold: float) -> bool:
    """True when any ``|x| * scale`` exceeds the threshold: the packet goes as floats."""
    check_finite(values)
    return bool((np.abs(values.astype(np.float64)) * scale > threshold).any())


def quantize(values: np.ndarray, scale: float) -> np.ndarray:
    """``round_half_even(x * scale)`` as int32; callers check the threshold first."""
    check_finite(values)
    scaled = np.rint(values.astype(np.float64) * scale)
    if (np.abs(scaled) > INT32_MAX).any():
        raise QuantizationError(
            "a scaled value does not fit int32; send this packet in float mode")
    return scaled.astype(np.int32)


def dequantize(values: np.ndarray, scale: float) -> np.ndarray:
    """``q / scale`` as float64 (the worker's view of an integer aggregate)."""
    return values.astype(np.float64) / scale


def float_bits(values: np.ndarray) -> np.ndarray:
    """float32 values as their int32 bit patterns (float-mode packet payload)."""
    check_finite(values)
    return np.ascontiguousarray(values, dtype=np.float32).view(np.int32).copy()


def bits_float(bits: np.ndarray) -> np.ndarray:
    """int32 bit patterns back to float32 values."""
    return np.ascontiguousarray(bits, dtype=np.int32).view(np.float32).copy()
