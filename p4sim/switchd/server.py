"""The BfRuntime gRPC service (``bfrt_proto.BfRuntime``) in front of a SoftDevice.

Behaviour follows bf_switchd's server where a client can observe it:
- a client first opens ``StreamChannel`` and sends ``Subscribe``; the answer is a
  ``Subscribe`` whose ``status`` says whether it worked;
- ``SetForwardingPipelineConfig(BIND)`` binds a subscribed client to the program; one
  client per program: a second client gets ALREADY_EXISTS naming the holder. Clients
  that do not bind may still Read/Write by naming the program (``p4_name``);
- a client whose stream ends (tear down, crash, lost connection) is unsubscribed and its
  binding released;
- ``Write`` applies updates in order and keeps going after a failed one
  (CONTINUE_ON_ERROR), or stops at the first failed one and undoes those before it
  (ROLLBACK_ON_ERROR, of match-action table entries: ``device.py``), and stops when its call is cancelled or past its deadline (the
  updates applied stay: the SDE's ExactMatchTimeoutTest); the client metadata
  ``deadline_sec``/``deadline_nsec`` is such a deadline, answered DEADLINE_EXCEEDED; ``Read`` answers every entity in order. If any failed, the call
  ends with UNKNOWN and ``bfrt_proto.Error``s packed in the status details
  (``grpc-status-details-bin``, which is where the SDE client looks for them), as
  bf_switchd's error reporter packs them: one per request entity up to the last failed
  one (an OK one for each success before it), nothing after it. A Read sends what it
  found (a batch of [present, missing] returns the present entry) before that status;
- the client metadata ``error_in_resp: 1`` asks for one ``Error`` per entity in the
  response's ``status`` instead (a Read then ends OK; a Write still ends UNKNOWN when
  an update failed), and ``ignore_not_found: 1`` makes a Write's DELETE of a missing
  entry a success whose ``Error.code`` says NOT_FOUND;
- a table entry's target (``entry_tgt``, else the request's) names a pipe or all pipes
  (0xffff); what that writes and reads, with the table's EntryScope, is
  ``pipe_scope.py``'s (a pipe the device lacks is INVALID_ARGUMENT for that entity);
- the ``port_status_notify`` attribute of ``$PORT`` switches a subscribed client's
  port-status notifications on or off (INVALID_ARGUMENT if it did not subscribe to
  them);
- a digest the ingress deparser packs reaches the bound client as a ``DigestList``
  when its subscription enabled learn notifications (``learn.py``);
- ``VERIFY_AND_WARM_INIT_BEGIN_AND_END`` (the SDE client's ``clear_all_tables``) resets
  the device and announces WARM_INIT_FINISHED on every subscribed stream.

A request that is not a valid protobuf message is answered INVALID_ARGUMENT naming the
message type, instead of gRPC's generic "Exception deserializing request!".
"""

from __future__ import annotations

import logging
import queue
import threading
import time

import grpc
from google.protobuf import any_pb2
from google.protobuf.message import DecodeError
from google.rpc import code_pb2, status_pb2
from grpc_status import rpc_status

from bfruntime import bfruntime_pb2 as pb
from bfruntime.service import generic_handler

from .bfrt_schema import dumps
from .device import DeviceError, SoftDevice
from .enum_check import check_enums, undefined_enum_values
from .learn import digest_message
from .work_clock import WorkClock

log = logging.getLogger("p4sim.switchd")

READ_CHUNK = 1000   # entities per ReadResponse


class _Errors:
    """Per-entity outcomes of a Read or Write, reported as bf_switchd's server does."""

    def __init__(self):
        # None for an entity that succeeded: its Error is built only if asked for (a
        # register readback is ~70 entities, a configuration ~100 updates)
        self._outcomes: list[pb.Error | None] = []

    def add(self, code: int = code_pb2.OK, message: str = "") -> None:
        self._outcomes.append(None if code == code_pb2.OK and not message else
                              pb.Error(canonical_code=code, message=message))

    def last(self) -> pb.Error:
        """The last entity's outcome (to amend it)."""
        if self._outcomes[-1] is None:
            self._outcomes[-1] = pb.Error(canonical_code=code_pb2.OK)
        return self._outcomes[-1]

    @property
    def outcomes(self) -> list[pb.Error]:
        return [e if e is not None else pb.Error(canonical_code=code_pb2.OK)
                for e in self._outcomes]

    def status(self, what: str) -> status_pb2.Status | None:
        """UNKNOWN with the packed errors, or None when every entity succeeded."""
        failed = [i for i, e in enumerate(self._outcomes)
                  if e is not None and e.canonical_code != code_pb2.OK]
        if not failed:
            return None
        st = status_pb2.Status(
            code=code_pb2.UNKNOWN,
            message=f"{what}: {len(failed)} of {len(self.outcomes)} entities failed: "
                    + "; ".join(f"entity {i}: {code_pb2.Code.Name(self.outcomes[i].canonical_code)}"
                                f": {self.outcomes[i].message}" for i in failed))
        for e in self.outcomes[:failed[-1] + 1]:
            a = any_pb2.Any()
            a.Pack(e if e.canonical_code != code_pb2.OK else pb.Error(code=code_pb2.OK))
            st.details.append(a)
        return st


def _metadata_flag(context, name: str) -> bool:
    """A client metadata switch such as ``error_in_resp: 1`` (bf_switchd's spelling)."""
    for k, v in context.invocation_metadata() or ():
        if k == name:
            try:
                return int(v) == 1
            except (TypeError, ValueError):
                return False
    return False


def _deadline(context) -> float | None:
    """When the request must be done (``time.monotonic``), from the client metadata
    ``deadline_sec`` / ``deadline_nsec`` (bf_switchd's, relative to its arrival); None
    without them or with a negative or out-of-range value (bf_switchd then sets none)."""
    values = dict(context.invocation_metadata() or ())
    try:
        sec = int(values.get("deadline_sec", 0))
        nsec = int(values.get("deadline_nsec", 0))
    except (TypeError, ValueError):
        return None
    if ("deadline_sec" not in values and "deadline_nsec" not in values) or sec < 0 \
            or not 0 <= nsec <= 999_999_999:
        return None
    return time.monotonic() + sec + nsec / 1e9


def _run(step, errors: _Errors, what: str) -> None:
    """``step()`` with its outcome recorded in ``errors``."""
    try:
        step()
    except DeviceError as e:
        errors.add(e.code.value[0], e.message)
    except Exception as e:   # a defect here must not take the daemon down
        log.exception("internal error on %s", what)
        errors.add(code_pb2.INTERNAL, f"internal error: {type(e).__name__}: {e}")
    else:
        errors.add()


class _Malformed:
    """Stands in for a request that did not parse, so the handler can say so."""

    def __init__(self, type_name: str, error: Exception):
        self.type_name = type_name
        self.error = error


def _parser(msg_cls):
    def parse(data: bytes):
        try:
            return msg_cls.FromString(data)
        except (DecodeError, ValueError) as e:
            return _Malformed(msg_cls.DESCRIPTOR.full_name, e)
    return parse


def _check_parsed(request, context, per_entity: str = "") -> None:
    """A request that did not parse, or carries an enum value its proto does not define
    (outside ``per_entity``, the repeated field whose items get an outcome each and are
    checked one by one), is refused whole with INVALID_ARGUMENT."""
    if isinstance(request, _Malformed):
        context.abort(grpc.StatusCode.INVALID_ARGUMENT,
                      f"request is not a valid {request.type_name} message "
                      f"({request.error}); check that client and server use the same "
                      f"bfruntime.proto")
    try:
        check_enums(request, type(request).DESCRIPTOR.full_name,
                    skip=(per_entity,) if per_entity else ())
    except DeviceError as e:
        context.abort(e.code, e.message)


class _Session:
    def __init__(self, client_id: int, out: queue.Queue, notifications):
        self.client_id = client_id
        self.out = out
        self.port_status_subscribed = notifications.enable_port_status_change_notifications
        self.port_status = self.port_status_subscribed
        self.learn = notifications.enable_learn_notifications


class BfRuntimeServer:
    """Serves one SoftDevice on a gRPC address; ``start()`` / ``stop()``."""

    def __init__(self, device: SoftDevice, address: str = "127.0.0.1:50052", *,
                 device_id: int = 0, max_workers: int = 16, work: WorkClock | None = None):
        from concurrent import futures
        self.device = device
        self.work = work or WorkClock()          # time in Reads and Writes (status line)
        self.device_id = device_id
        self.address = address
        self._bfrt_json = dumps(device.schema)
        self._fixed_json = dumps(device.fixed)
        self._lock = threading.Lock()
        self._sessions: dict[int, _Session] = {}
        self.bound_client: int | None = None
        device.port_listeners.append(self._port_changed)
        device.digest_listeners.append(self._digest)
        self._server = grpc.server(futures.ThreadPoolExecutor(max_workers=max_workers),
                                   maximum_concurrent_rpcs=max_workers * 4,
                                   options=[("grpc.so_reuseport", 0),
                                            ("grpc.max_send_message_length", 1 << 30),
                                            ("grpc.max_receive_message_length", 1 << 30)])
        self._server.add_generic_rpc_handlers((generic_handler(self, _parser),))
        try:
            self.port = self._server.add_insecure_port(address)
        except RuntimeError as e:
            raise OSError(f"cannot listen for gRPC on {address}: {e}") from None
        if not self.port:
            raise OSError(f"cannot listen for gRPC on {address} (address in use?)")

    def start(self) -> None:
        self._server.start()

    def stop(self, grace: float = 1.0) -> None:
        with self._lock:
            sessions = list(self._sessions.values())
        for s in sessions:
            s.out.put(None)
        self._server.stop(grace).wait()

    # ------------------------------------------------------------------ helpers
    def _check_device(self, device_id: int, context) -> None:
        if device_id != self.device_id:
            context.abort(grpc.StatusCode.NOT_FOUND,
                          f"no device {device_id}; this softswitch is device {self.device_id}")

    def _check_access(self, client_id: int, p4_name: str, context) -> None:
        if p4_name:
            if p4_name != self.device.p4_name:
                context.abort(grpc.StatusCode.NOT_FOUND,
                              f"no program {p4_name!r} on this switch; it runs "
                              f"{self.device.p4_name!r}")
            return
        if self.bound_client != client_id:
            context.abort(grpc.StatusCode.FAILED_PRECONDITION,
                          f"client {client_id} is not bound to a program: bind with "
                          f"SetForwardingPipelineConfig(BIND, p4_name="
                          f"{self.device.p4_name!r}) after subscribing, or name the program "
                          f"in the request's p4_name")

    def _broadcast(self, msg: pb.StreamMessageResponse, want=lambda s: True) -> None:
        with self._lock:
            sessions = list(self._sessions.values())
        for s in sessions:
            if want(s):
                s.out.put(msg)

    def _port_changed(self, port: int, up: bool) -> None:
        log.warning("port %d (%s) is %s", port, self.device.ports[port].ifname,
                    "up" if up else "DOWN")
        t = self.device.info.table("$PORT")
        msg = pb.StreamMessageResponse()
        n = msg.port_status_change_notification
        n.port_up = up
        n.table_entry.table_id = t.id
        kf = n.table_entry.key.fields.add()
        kf.field_id = t.keys[0].id
        kf.exact.value = port.to_bytes(4, "big")
        self._broadcast(msg, lambda s: s.port_status)

    def _digest(self, lf, entries) -> None:
        """Digests go to the client bound to the program, if it subscribed to learn
        notifications (bf_switchd registers its learn callbacks on BIND)."""
        msg = digest_message(lf, entries, self.device_id)
        self._broadcast(msg, lambda s: s.learn and s.client_id == self.bound_client)

    # ------------------------------------------------------------------ RPCs
    def GetForwardingPipelineConfig(self, request, context):
        _check_parsed(request, context)
        self._check_device(request.device_id, context)
        resp = pb.GetForwardingPipelineConfigResponse()
        cfg = resp.config.add()
        cfg.p4_name = self.device.p4_name
        cfg.bfruntime_info = self._bfrt_json
        prof = cfg.profiles.add()
        prof.profile_name = "pipe"
        prof.pipe_scope.append(0)
        resp.non_p4_config.bfruntime_info = self._fixed_json
        return resp

    def SetForwardingPipelineConfig(self, request, context):
        _check_parsed(request, context)
        self._check_device(request.device_id, context)
        A = pb.SetForwardingPipelineConfigRequest
        names = [c.p4_name for c in request.config]
        if request.action == A.BIND:
            if len(names) != 1:
                context.abort(grpc.StatusCode.INVALID_ARGUMENT,
                              f"BIND takes exactly one config (the program to bind), got "
                              f"{len(names)}")
            if names[0] != self.device.p4_name:
                context.abort(grpc.StatusCode.NOT_FOUND,
                              f"cannot bind to {names[0]!r}: this switch runs "
                              f"{self.device.p4_name!r}")
            with self._lock:
                if request.client_id not in self._sessions:
                    context.abort(grpc.StatusCode.FAILED_PRECONDITION,
                                  f"client {request.client_id} has not subscribed; open "
                                  f"StreamChannel and send Subscribe before BIND")
                if self.bound_client not in (None, request.client_id):
                    context.abort(grpc.StatusCode.ALREADY_EXISTS,
                                  f"program {self.device.p4_name!r} is already bound by client "
                                  f"{self.bound_client}; one client per program (other clients "
                                  f"connect without binding and pass p4_name)")
                self.bound_client = request.client_id
            log.info("client %d bound to %s", request.client_id, self.device.p4_name)
            return pb.SetForwardingPipelineConfigResponse()
        unknown = [n for n in names if n != self.device.p4_name]
        if unknown:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT,
                          f"programs {unknown} are not on this switch (it runs "
                          f"{self.device.p4_name!r}; the softswitch cannot load another)")
        if request.action == A.VERIFY:
            return pb.SetForwardingPipelineConfigResponse()
        R = pb.SetForwardingPipelineConfigResponseType
        if request.action in (A.VERIFY_AND_WARM_INIT_BEGIN, A.VERIFY_AND_WARM_INIT_BEGIN_AND_END,
                              A.WARM_INIT_END):
            if request.action != A.WARM_INIT_END:
                self.device.reset()
            kind = R.WARM_INIT_STARTED if request.action == A.VERIFY_AND_WARM_INIT_BEGIN \
                else R.WARM_INIT_FINISHED
            msg = pb.StreamMessageResponse()
            msg.set_forwarding_pipeline_config_response \
                .set_forwarding_pipeline_config_response_type = kind
            self._broadcast(msg)
            resp = pb.SetForwardingPipelineConfigResponse()
            resp.set_forwarding_pipeline_config_response_type = kind
            return resp
        context.abort(grpc.StatusCode.UNIMPLEMENTED,
                      f"SetForwardingPipelineConfig action {A.Action.Name(request.action)} "
                      f"is not supported by the softswitch")

    def Write(self, request, context):
        _check_parsed(request, context, per_entity="updates")
        self._check_device(request.target.device_id, context)
        self._check_access(request.client_id, request.p4_name, context)
        if request.atomicity not in (pb.WriteRequest.CONTINUE_ON_ERROR,
                                     pb.WriteRequest.ROLLBACK_ON_ERROR):
            context.abort(grpc.StatusCode.UNIMPLEMENTED,
                          f"atomicity {pb.WriteRequest.Atomicity.Name(request.atomicity)} is "
                          f"not supported by the softswitch (use CONTINUE_ON_ERROR or "
                          f"ROLLBACK_ON_ERROR)")
        journal = [] if request.atomicity == pb.WriteRequest.ROLLBACK_ON_ERROR else None
        in_resp = _metadata_flag(context, "error_in_resp")
        ignore_not_found = _metadata_flag(context, "ignore_not_found")
        errors = _Errors()
        deadline = _deadline(context)
        with self.work.timing("write"):
            for i, upd in enumerate(request.updates):
                if not context.is_active():  # the client's deadline passed or it cancelled:
                    log.info("Write cancelled after %d of %d updates", i, len(request.updates))
                    return pb.WriteResponse()  # what was applied stays, as bf_switchd does
                if deadline is not None and time.monotonic() > deadline:
                    context.abort(grpc.StatusCode.DEADLINE_EXCEEDED,
                                  f"Write RPC request timed out before update {i} of "
                                  f"{len(request.updates)} (metadata deadline)")
                _run(lambda: self._write_one(request, upd, journal), errors, f"update {i}")
                last = errors.last()
                if journal is not None and last.canonical_code != code_pb2.OK:
                    with self.device.lock:        # undo what the request applied
                        for undo in reversed(journal):
                            undo()
                    break
                if ignore_not_found and upd.type == pb.Update.DELETE and \
                        last.canonical_code == code_pb2.NOT_FOUND:
                    last.code, last.canonical_code = code_pb2.NOT_FOUND, code_pb2.OK
        resp = pb.WriteResponse()
        if in_resp:
            resp.status.extend(errors.outcomes)
        st = errors.status("Write")
        if st is not None:
            context.abort_with_status(rpc_status.to_status(st))
        return resp

    def _write_one(self, request: pb.WriteRequest, upd: pb.Update,
                   journal: list | None = None) -> None:
        check_enums(upd, "update")
        ta = upd.entity.table_attribute
        if upd.entity.WhichOneof("entity") == "table_attribute" and \
                ta.WhichOneof("attribute") == "port_status_notify":
            self._port_status_notify(request.client_id, ta,
                                     enable=ta.port_status_notify.enable)
            return
        self.device.write(upd, request.target.pipe_id, journal)

    def _port_status_notify(self, client_id: int, ta: pb.TableAttribute,
                            enable: bool | None = None) -> pb.Entity:
        """Set (``enable``) or read a client's port-status notifications (``$PORT``)."""
        t = self.device.table(ta.table_id)
        if "port_status_notif_cb" not in t.attributes:
            raise DeviceError(grpc.StatusCode.UNIMPLEMENTED,
                              f"table {t.name} has no attribute port_status_notif_cb; its "
                              f"bfrt.json lists {list(t.attributes)}")
        with self._lock:
            s = self._sessions.get(client_id)
            if s is None or not s.port_status_subscribed:
                raise DeviceError(grpc.StatusCode.INVALID_ARGUMENT,
                                  f"port status change notifications are not enabled for "
                                  f"client {client_id} (subscribe with "
                                  f"enable_port_status_change_notifications)")
            if enable is not None:
                s.port_status = enable
            ent = pb.Entity()
            ent.table_attribute.table_id = t.id
            ent.table_attribute.port_status_notify.enable = s.port_status
        return ent

    def Read(self, request, context):
        _check_parsed(request, context, per_entity="entities")
        self._check_device(request.target.device_id, context)
        self._check_access(request.client_id, request.p4_name, context)
        in_resp = _metadata_flag(context, "error_in_resp")
        errors = _Errors()
        found: list[pb.Entity] = []
        with self.work.timing("read"):
            for i, ent in enumerate(request.entities):
                _run(lambda: found.extend(self._read_one(request, ent)), errors,
                     f"read entity {i}")
        for start in range(0, max(len(found), 1), READ_CHUNK):
            resp = pb.ReadResponse()
            resp.entities.extend(found[start:start + READ_CHUNK])
            if in_resp and start + READ_CHUNK >= len(found):
                resp.status.extend(errors.outcomes)
            yield resp
        st = None if in_resp else errors.status("Read")
        if st is not None:
            context.abort_with_status(rpc_status.to_status(st))

    def _read_one(self, request: pb.ReadRequest, ent: pb.Entity) -> list[pb.Entity]:
        check_enums(ent, "entity")
        ta = ent.table_attribute
        if ent.WhichOneof("entity") == "table_attribute" and \
                ta.WhichOneof("attribute") == "port_status_notify":
            return [self._port_status_notify(request.client_id, ta)]
        return self.device.read(ent, request.target.pipe_id)

    def StreamChannel(self, request_iterator, context):
        out: queue.Queue = queue.Queue()
        state = {"session": None}

        def reader():
            try:
                for req in request_iterator:
                    if isinstance(req, _Malformed):
                        log.warning("malformed StreamMessageRequest: %s", req.error)
                        continue
                    bad = undefined_enum_values(req)
                    if bad:
                        log.warning("StreamMessageRequest ignored: %s", "; ".join(bad))
                        continue
                    if req.WhichOneof("update") == "subscribe":
                        self._subscribe(req, out, state)
            except Exception:   # the client went away mid-stream
                pass
            finally:
                out.put(None)

        threading.Thread(target=reader, daemon=True, name="bfrt-stream").start()
        context.add_callback(lambda: out.put(None))
        try:
            while True:
                msg = out.get()
                if msg is None or not context.is_active():
                    break
                yield msg
        finally:
            self._release(state["session"])

    def _subscribe(self, req, out, state) -> None:
        resp = pb.StreamMessageResponse()
        resp.subscribe.CopyFrom(req.subscribe)
        cid = req.client_id
        with self._lock:
            holder = self._sessions.get(cid)
            if req.subscribe.device_id != self.device_id:
                code, msg = code_pb2.NOT_FOUND, (f"no device {req.subscribe.device_id}; this "
                                                 f"softswitch is device {self.device_id}")
            elif holder is not None and holder.out is not out:
                code, msg = code_pb2.ALREADY_EXISTS, (f"client id {cid} is already subscribed "
                                                      f"on another stream")
            else:
                s = _Session(cid, out, req.subscribe.notifications)
                self._sessions[cid] = s
                state["session"] = s
                code, msg = code_pb2.OK, ""
        resp.subscribe.status.code = code
        resp.subscribe.status.message = msg
        log.info("client %d subscribe: %s", cid, code_pb2.Code.Name(code))
        out.put(resp)

    def _release(self, session: _Session | None) -> None:
        if session is None:
            return
        with self._lock:
            if self._sessions.get(session.client_id) is session:
                del self._sessions[session.client_id]
            if self.bound_client == session.client_id:
                self.bound_client = None
                log.info("client %d disconnected; binding of %s released", session.client_id,
                         self.device.p4_name)
