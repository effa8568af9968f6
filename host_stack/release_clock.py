"""The ATP release's clock, slowed by libfaketime, so that its 200 µs resend timer is
no longer a small fraction of a round trip through the softswitch.

Why: the release's worker times a tensor's window with
``std::chrono::high_resolution_clock`` (``client/p4ml_manager.cc``: 50 ms before the
first answer, then ``timeout_value = 0.0002``), a constant of its source, which the suite
does not edit. Through the interpreted softswitch a round trip takes milliseconds to
seconds (``release_run.SOFTSWITCH_CLOCK_RATE`` has the measurements), so at full speed
the worker mostly resends what is still on its way (~1,150 frames/s, a ``-l 1`` job in
~50 min). libfaketime (Debian ``libfaketime``), preloaded with
``FAKETIME="+0 x<rate>"``, makes the process's clock advance ``rate`` seconds per real
second: its 200 µs are ``200 µs / rate`` of real time.

Facts this relies on (checked here, Debian 12): libstdc++'s ``system_clock::now`` (which
``high_resolution_clock`` is) calls ``clock_gettime`` through the PLT, so the preload
interposes it; the release also calls ``nanosleep`` (``sleep_for(1 µs)`` in its
quantization and push loops: scaled too, 20 µs at x0.05, which only polls less) and
``time`` (its ``srand`` seed). The verbs emulation keeps no time (its receive thread
blocks in ``recvfrom``; nothing in it reads a clock or sleeps), so the preload leaves it
as it is. The preload goes into the release's processes only (the env of the PS and the
workers); the softswitch and the capture keep the real clock, so the captures' times
are real time.
"""

from __future__ import annotations

import os
from pathlib import Path

LIBRARY_VARIABLE = "ATP_FAKETIME_LIB"
# Debian/Ubuntu's libfaketime (multiarch), then the upstream `make install` default.
# Not libfaketimeMT: it serialises every clock read behind one lock (measured here: 7x
# slower per call on one thread), and the release's 24 polling threads read it nonstop
_CANDIDATES = ("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1",
               "/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1",
               "/usr/local/lib/faketime/libfaketime.so.1")


def faketime_library() -> Path | None:
    """libfaketime's preload library: ``$ATP_FAKETIME_LIB``, or Debian's, or None."""
    named = os.environ.get(LIBRARY_VARIABLE)
    for candidate in ([named] if named else _CANDIDATES):
        if Path(candidate).is_file():
            return Path(candidate)
    return None


def missing_reason() -> str | None:
    """Why the release's clock cannot be slowed here, or None."""
    if faketime_library() is not None:
        return None
    named = os.environ.get(LIBRARY_VARIABLE)
    if named:
        return f"libfaketime: ${LIBRARY_VARIABLE}={named} is not a file"
    return ("libfaketime not found (Debian: apt-get install libfaketime; or set "
            f"${LIBRARY_VARIABLE} to its libfaketime.so.1)")


def slowed(env: dict[str, str], rate: float) -> dict[str, str]:
    """``env`` for a process whose clock runs at ``rate`` (0 < rate): libfaketime
    preloaded ahead of what ``env`` preloads already, starting at the real time."""
    if not rate > 0:
        raise ValueError(f"clock rate {rate}: must be above 0")
    library = faketime_library()
    if library is None:
        raise FileNotFoundError(missing_reason())
    preload = " ".join(part for part in (str(library), env.get("LD_PRELOAD", "")) if part)
    return dict(env, LD_PRELOAD=preload, FAKETIME=f"+0 x{rate:g}")
