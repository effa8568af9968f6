"""The ATP host stack on real interfaces (spec sections 6-7).

Workers and parameter servers run as processes, each in its own network namespace,
exchanging ATP frames over AF_PACKET sockets. The protocol rules live in the reference
model (:mod:`reference.worker`, :mod:`reference.ps`); this package is the I/O shell that
drives those state machines with real time and real sockets, plus the tools around it:
namespaces and veths (:mod:`host_stack.netns`), kernel and userspace fault injection
(:mod:`host_stack.netem`, :mod:`host_stack.fault_relay`), port capture
(:mod:`host_stack.capture`), a ``push_pull`` API (:mod:`host_stack.api`) with a
BytePS-style launcher (:mod:`host_stack.launcher`) and a training demo
(:mod:`host_stack.demo`).
"""
