"""Spec section 3: quantization, the float-mode threshold and float32 bit patterns."""

from __future__ import annotations

import math
import struct

import numpy as np
import pytest

from reference.quantize import (
    QuantizationError, bits_float, default_threshold, dequantize, float_bits,
    needs_float_mode, quantize,
)


def f32(*xs):
    return np.array(xs, dtype=np.float32)


@pytest.mark.rule("3")
def test_default_threshold_is_int32_max_over_n():
    assert default_threshold(1) == 2147483647
    assert default_threshold(4) == 2147483647 / 4
    assert default_threshold(32) == 2147483647 / 32
    with pytest.raises(ValueError):
        default_threshold(0)


@pytest.mark.rule("3")
@pytest.mark.parametrize("sign", [1, -1])
def test_exactly_at_threshold_is_integer_mode_just_above_is_float(sign):
    # scale 1 and an exactly representable threshold: |x| * scale == threshold -> int
    threshold = 1000.0
    assert not needs_float_mode(f32(0, sign * 1000.0), 1.0, threshold)
    assert needs_float_mode(f32(0, sign * np.nextafter(np.float32(1000), np.float32(2000))),
                            1.0, threshold)
    assert needs_float_mode(f32(sign * 1001.0), 1.0, threshold)
    # with the default scale 1e6 and N = 2: threshold (2^31-1)/2 = 1073741823.5
    t2 = default_threshold(2)
    assert not needs_float_mode(f32(sign * 1073.0), 1e6, t2)      # 1.073e9 <= t
    assert needs_float_mode(f32(sign * 1074.0), 1e6, t2)          # 1.074e9 > t


@pytest.mark.rule("3")
def test_one_element_over_threshold_makes_whole_packet_float():
    x = np.zeros(62, np.float32)
    x[61] = 5.0
    assert needs_float_mode(x, 1.0, 4.0)
    x[61] = 4.0
    assert not needs_float_mode(x, 1.0, 4.0)


@pytest.mark.rule("3")
@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
@pytest.mark.parametrize("fn", ["needs_float_mode", "quantize", "float_bits"])
def test_nan_and_inf_rejected(bad, fn):
    x = f32(1.0, 2.0, bad)
    with pytest.raises(QuantizationError) as info:
        if fn == "needs_float_mode":
            needs_float_mode(x, 1e6, 1e9)
        elif fn == "quantize":
            quantize(x, 1e6)
        else:
            float_bits(x)
    assert "element 2" in str(info.value)


@pytest.mark.rule("3")
def test_round_half_even_ties_at_scale_1():
    got = quantize(f32(0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 3.5, -3.5), 1.0)
    assert got.dtype == np.int32
    assert got.tolist() == [0, 2, 2, 0, -2, -2, 4, -4]


@pytest.mark.rule("3")
def test_quantize_scales_and_rounds():
    # 0.25 * 2 = 0.5 -> 0 ; 0.75 * 2 = 1.5 -> 2 ; 1.2 * 10 = 12 (float32 1.2 ~ 1.2000000477)
    assert quantize(f32(0.25, 0.75, 1.2, -1.2), 2.0).tolist() == [0, 2, 2, -2]
    assert quantize(f32(1.2, -1.2), 10.0).tolist() == [12, -12]
    assert quantize(f32(0.000001), 1e6).tolist() == [1]


@pytest.mark.rule("3")
def test_quantize_refuses_values_outside_int32():
    with pytest.raises(QuantizationError):
        quantize(f32(3e9), 1.0)
    # the largest value under the N=1 threshold still fits
    assert quantize(np.array([2147483647.0, -2147483647.0]), 1.0).tolist() == [
        2147483647, -2147483647]
    assert needs_float_mode(f32(-2147483648.0), 1.0, default_threshold(1))


@pytest.mark.rule("3")
def test_dequantize_is_q_over_scale():
    assert dequantize(np.array([1, -3, 2000000], np.int32), 1e6).tolist() == [
        1e-6, -3e-6, 2.0]


@pytest.mark.rule("3")
def test_float32_bit_patterns():
    x = f32(1.0, -2.0, 0.5, 3.4028234663852886e38, 1e-45)
    bits = float_bits(x)
    assert bits.dtype == np.int32
    expected = [struct.unpack("<i", struct.pack("<f", float(v)))[0] for v in x]
    assert bits.tolist() == expected
    assert bits.tolist()[:3] == [0x3F800000, -0x40000000, 0x3F000000]  # -2.0 = 0xC0000000
    back = bits_float(bits)
    assert back.dtype == np.float32
    assert back.tobytes() == x.tobytes()
