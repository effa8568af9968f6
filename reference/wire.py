"""The ATP frame, byte by byte (spec section 2): a fast codec for the hot path.

Frames are Ethernet · IPv4 (20 bytes, only the ECN bits carry meaning) · [two-level
shim, ethertype 0x0701] · ATP layer (274 bytes, big-endian). The scapy layers that let
pcaps decode live in :mod:`reference.scapy_layers`; this module must stay free of scapy
so that the switch model can process >100k packets/s.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

import numpy as np

ETHERTYPE_ATP = 0x0700
ETHERTYPE_ATP_TWO_LEVEL = 0x0701
ETHERTYPE_IPV4 = 0x0800

ELEMENTS = 62
ETH_LEN = 14
IPV4_LEN = 20
SHIM_LEN = 8
ATP_LEN = 274
FRAME_LEN = ETH_LEN + IPV4_LEN + ATP_LEN  # 308
FRAME_LEN_TWO_LEVEL = FRAME_LEN + SHIM_LEN  # 316

# flags byte (offset 5 of the ATP layer)
FLAG_ACK = 0x01
FLAG_COLLISION = 0x02
FLAG_RESEND = 0x04
FLAG_ECN = 0x08
FLAG_DATA_INDEX = 0x10
PS_INDEX_SHIFT = 5
PS_INDEX_MASK = 0x60
FLAG_OVERFLOW = 0x80

FLAG_NAMES = (
    (FLAG_OVERFLOW, "overflow"),
    (FLAG_DATA_INDEX, "data_index"),
    (FLAG_ECN, "ecn"),
    (FLAG_RESEND, "resend"),
    (FLAG_COLLISION, "collision"),
    (FLAG_ACK, "ack"),
)

INT32_MAX = 2**31 - 1
INT32_MIN = -(2**31)

BROADCAST_MAC = b"\xff" * 6
# Our hosts fill the IPv4 header this way; the switch only ever touches the ECN bits
# (and never recomputes the checksum: ethertype 0x0700 is not IPv4 to any host stack).
IPV4_PROTOCOL_ATP = 253  # RFC 3692 experimentation value

_ETH = struct.Struct("!6s6sH")
_SHIM = struct.Struct("!IBBBB")
_HEAD = struct.Struct("!IBBHHHH")  # bitmap fan_in flags app_id seq agtr agtr2
_TAIL = struct.Struct("!QI")  # key tensor_len
_VALUES_DTYPE = np.dtype(">i4")
_VALUES_LEN = 4 * ELEMENTS

_HEAD_FIELDS = (
    (0, "bitmap", "u32"),
    (4, "fan_in", "u8"),
    (5, "flags", "u8"),
    (6, "app_id", "u16"),
    (8, "seq", "u16"),
    (10, "agtr", "u16"),
    (12, "agtr2", "u16"),
    (14, "values", "62 x i32"),
    (262, "key", "u64"),
    (270, "tensor_len", "u32"),
)


class WireError(ValueError):
    """A frame that is not a well-formed ATP frame; names the field and byte offset."""

    def __init__(self, message: str, *, field: str, offset: int):
        super().__init__(f"{message} (field {field!r} at byte offset {offset})")
        self.field = field
        self.offset = offset


@dataclass(frozen=True, slots=True)
class Shim:
    """The two-level shim (ethertype 0x0701), spec section 2."""

    bitmap1: int = 0
    fan_in1: int = 0
    level: int = 0
    rack_id: int = 0
    reserved: int = 0


class AtpPacket:
    """A decoded ATP frame. ``values`` is an int32 array of 62 elements (float32 bit
    patterns when the overflow flag is set). ``ipv4`` keeps the 20 header bytes as
    they were, so that a round trip is byte-exact."""

    __slots__ = (
        "eth_dst", "eth_src", "ipv4", "shim",
        "bitmap", "fan_in", "flags", "app_id", "seq", "agtr", "agtr2",
        "values", "key", "tensor_len",
    )

    def __init__(
        self,
        *,
        eth_dst: bytes = BROADCAST_MAC,
        eth_src: bytes = b"\x00" * 6,
        ipv4: bytes | None = None,
        shim: Shim | None = None,
        bitmap: int = 0,
        fan_in: int = 0,
        flags: int = 0,
        app_id: int = 0,
        seq: int = 0,
        agtr: int = 0,
        agtr2: int = 0,
        values: np.ndarray | None = None,
        key: int = 0,
        tensor_len: int = 0,
    ):
        self.eth_dst = eth_dst
        self.eth_src = eth_src
        self.ipv4 = ipv4 if ipv4 is not None else default_ipv4(shim is not None)
        self.shim = shim
        self.bitmap = bitmap
        self.fan_in = fan_in
        self.flags = flags
        self.app_id = app_id
        self.seq = seq
        self.agtr = agtr
        self.agtr2 = agtr2
        self.values = (
            np.zeros(ELEMENTS, dtype=np.int32) if values is None else values
        )
        self.key = key
        self.tensor_len = tensor_len

    # -- flags by name -------------------------------------------------------------
    @property
    def ack(self) -> bool:
        return bool(self.flags & FLAG_ACK)

    @property
    def resend(self) -> bool:
        return bool(self.flags & FLAG_RESEND)

    @property
    def overflow(self) -> bool:
        return bool(self.flags & FLAG_OVERFLOW)

    @property
    def collision(self) -> bool:
        return bool(self.flags & FLAG_COLLISION)

    @property
    def ps_index(self) -> int:
        return (self.flags & PS_INDEX_MASK) >> PS_INDEX_SHIFT

    @property
    def ipv4_ecn(self) -> int:
        return self.ipv4[1] & 0x03

    @property
    def owner_id(self) -> int:
        """The owner word ``app_id << 16 | seq`` (spec section 1); read one with
        :func:`owner_app_id` and :func:`owner_seq`."""
        return (self.app_id << 16) | self.seq

    def copy(self) -> "AtpPacket":
        twin = AtpPacket.__new__(AtpPacket)
        for name in AtpPacket.__slots__:
            setattr(twin, name, getattr(self, name))
        twin.values = self.values.copy()
        return twin

    def header_fields(self) -> dict[str, object]:
        """Every field by name, values as a list; for diffs and summaries."""
        fields: dict[str, object] = {
            "eth_dst": self.eth_dst.hex(":"),
            "eth_src": self.eth_src.hex(":"),
            "ipv4_ecn": self.ipv4_ecn,
        }
        if self.shim is not None:
            fields.update(
                bitmap1=self.shim.bitmap1, fan_in1=self.shim.fan_in1,
                level=self.shim.level, rack_id=self.shim.rack_id,
            )
        fields.update(
            bitmap=self.bitmap, fan_in=self.fan_in, flags=describe_flags(self.flags),
            app_id=self.app_id, seq=self.seq, agtr=self.agtr, agtr2=self.agtr2,
            key=self.key, tensor_len=self.tensor_len,
            values=[int(v) for v in self.values],
        )
        return fields

    def __repr__(self) -> str:
        return (
            f"AtpPacket(app_id={self.app_id}, seq={self.seq}, bitmap={self.bitmap:#x}, "
            f"fan_in={self.fan_in}, flags={describe_flags(self.flags)}, agtr={self.agtr}, "
            f"key={self.key}, shim={self.shim})"
        )


def owner_app_id(owner: int) -> int:
    """The job (app_id) whose packet took an aggregator, from its owner word."""
    return owner >> 16


def owner_seq(owner: int) -> int:
    """The seq of the packet that took an aggregator, from its owner word."""
    return owner & 0xFFFF


def describe_flags(flags: int) -> str:
    """``"ack|resend ps_index=1"`` — flags by name, as people read them."""
    names = [name for bit, name in FLAG_NAMES if flags & bit]
    text = "|".join(names) if names else "-"
    ps_index = (flags & PS_INDEX_MASK) >> PS_INDEX_SHIFT
    return f"{text} ps_index={ps_index}" if ps_index else text


def default_ipv4(two_level: bool = False, ecn: int = 0) -> bytes:
    """The fixed IPv4 header our hosts send (total length covers shim and ATP layer)."""
    total = IPV4_LEN + ATP_LEN + (SHIM_LEN if two_level else 0)
    header = bytearray(
        struct.pack("!BBHHHBBH4s4s", 0x45, ecn & 3, total, 0, 0, 64,
                    IPV4_PROTOCOL_ATP, 0, bytes(4), bytes(4))
    )
    checksum = _ipv4_checksum(bytes(header))
    header[10:12] = checksum.to_bytes(2, "big")
    return bytes(header)


def _ipv4_checksum(header: bytes) -> int:
    total = sum(struct.unpack("!10H", header))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def ethertype_of(frame: bytes) -> int:
    """The Ethernet type of a frame (0 for a frame too short to have one)."""
    if len(frame) < ETH_LEN:
        return 0
    return (frame[12] << 8) | frame[13]


# where agtr sits in a frame, by ethertype: after Ethernet, IPv4 (and the shim), at
# bitmap(4) fan_in(1) flags(1) app_id(2) seq(2)
_AGTR_AT = {ETHERTYPE_ATP: ETH_LEN + IPV4_LEN + 10,
            ETHERTYPE_ATP_TWO_LEVEL: ETH_LEN + IPV4_LEN + SHIM_LEN + 10}


def agtr_of(frame: bytes) -> int | None:
    """The aggregator index an ATP frame names, read in place: callers that need it for
    every frame (lockstep register reads, occupancy) skip a whole decode. None for
    another ethertype or a frame too short to hold the field."""
    at = _AGTR_AT.get(ethertype_of(frame))
    if at is None or len(frame) < at + 2:
        return None
    return frame[at] << 8 | frame[at + 1]


def decode(frame: bytes) -> AtpPacket:
    """Decode an ATP frame (ethertype 0x0700 or 0x0701); raise WireError otherwise."""
    size = len(frame)
    if size < ETH_LEN:
        raise WireError(f"frame of {size} bytes is shorter than an Ethernet header",
                        field="ethertype", offset=12)
    eth_dst, eth_src, ethertype = _ETH.unpack_from(frame, 0)
    if ethertype == ETHERTYPE_ATP:
        shim = None
        atp_at = ETH_LEN + IPV4_LEN
    elif ethertype == ETHERTYPE_ATP_TWO_LEVEL:
        atp_at = ETH_LEN + IPV4_LEN + SHIM_LEN
        if size < atp_at:
            raise WireError(
                f"frame of {size} bytes ends inside the two-level shim",
                field="shim", offset=ETH_LEN + IPV4_LEN)
        shim = Shim(*_SHIM.unpack_from(frame, ETH_LEN + IPV4_LEN))
    else:
        raise WireError(
            f"ethertype {ethertype:#06x} is not ATP (expected 0x0700 or 0x0701)",
            field="ethertype", offset=12)
    if size < ETH_LEN + IPV4_LEN:
        raise WireError(f"frame of {size} bytes ends inside the IPv4 header",
                        field="ipv4", offset=ETH_LEN)
    if size != atp_at + ATP_LEN:
        if size < atp_at + ATP_LEN:
            offset, name = _field_at(size - atp_at)
            raise WireError(
                f"frame of {size} bytes is truncated: the ATP layer needs {ATP_LEN} "
                f"bytes from offset {atp_at}", field=name, offset=atp_at + offset)
        raise WireError(
            f"frame of {size} bytes has {size - atp_at - ATP_LEN} trailing bytes after "
            f"the ATP layer", field="tensor_len", offset=atp_at + 270)
    bitmap, fan_in, flags, app_id, seq, agtr, agtr2 = _HEAD.unpack_from(frame, atp_at)
    values = np.frombuffer(frame, _VALUES_DTYPE, ELEMENTS, atp_at + 14).astype(np.int32)
    key, tensor_len = _TAIL.unpack_from(frame, atp_at + 262)
    packet = AtpPacket.__new__(AtpPacket)
    packet.eth_dst = eth_dst
    packet.eth_src = eth_src
    packet.ipv4 = frame[ETH_LEN:ETH_LEN + IPV4_LEN]
    packet.shim = shim
    packet.bitmap = bitmap
    packet.fan_in = fan_in
    packet.flags = flags
    packet.app_id = app_id
    packet.seq = seq
    packet.agtr = agtr
    packet.agtr2 = agtr2
    packet.values = values
    packet.key = key
    packet.tensor_len = tensor_len
    return packet


def _field_at(atp_offset: int) -> tuple[int, str]:
    """The ATP field that a truncation at ``atp_offset`` cuts into."""
    found = _HEAD_FIELDS[0]
    for entry in _HEAD_FIELDS:
        if entry[0] <= atp_offset:
            found = entry
    return found[0], found[1]


def encode(packet: AtpPacket) -> bytes:
    """Encode a packet; fields that do not fit their width raise WireError."""
    try:
        head = _HEAD.pack(packet.bitmap, packet.fan_in, packet.flags, packet.app_id,
                          packet.seq, packet.agtr, packet.agtr2)
        tail = _TAIL.pack(packet.key, packet.tensor_len)
    except struct.error as exc:
        raise WireError(f"a header field does not fit its width: {exc}; "
                        f"{_first_misfit(packet)}", field=_first_misfit(packet),
                        offset=0) from None
    values = np.asarray(packet.values)
    if values.shape != (ELEMENTS,):
        raise WireError(f"values must hold exactly {ELEMENTS} elements, got "
                        f"shape {values.shape}", field="values", offset=14)
    if len(packet.ipv4) != IPV4_LEN:
        raise WireError(f"ipv4 header must be {IPV4_LEN} bytes, got {len(packet.ipv4)}",
                        field="ipv4", offset=ETH_LEN)
    if packet.shim is None:
        eth = _ETH.pack(packet.eth_dst, packet.eth_src, ETHERTYPE_ATP)
        shim = b""
    else:
        eth = _ETH.pack(packet.eth_dst, packet.eth_src, ETHERTYPE_ATP_TWO_LEVEL)
        s = packet.shim
        try:
            shim = _SHIM.pack(s.bitmap1, s.fan_in1, s.level, s.rack_id, s.reserved)
        except struct.error as exc:
            raise WireError(f"a shim field does not fit its width: {exc}",
                            field="shim", offset=ETH_LEN + IPV4_LEN) from None
    return b"".join((eth, packet.ipv4, shim, head,
                     values.astype(_VALUES_DTYPE).tobytes(), tail))


_WIDTHS = {"bitmap": 32, "fan_in": 8, "flags": 8, "app_id": 16, "seq": 16,
           "agtr": 16, "agtr2": 16, "key": 64, "tensor_len": 32}


def _first_misfit(packet: AtpPacket) -> str:
    for name, width in _WIDTHS.items():
        value = getattr(packet, name)
        if not 0 <= value < (1 << width):
            return name
    return "unknown"


def with_ipv4_ecn(ipv4: bytes, ecn: int) -> bytes:
    """The IPv4 header with its ECN bits replaced (checksum left as it was)."""
    return ipv4[:1] + bytes(((ipv4[1] & 0xFC) | (ecn & 3),)) + ipv4[2:]
