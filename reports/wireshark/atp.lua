-- Wireshark dissector for ATP in-network gradient aggregation (docs/protocol.md, section 2)
-- and this project's two-level shim.
--
--   wireshark -X lua_script:reports/wireshark/atp.lua trace.pcap
--   tshark -X lua_script:reports/wireshark/atp.lua -r trace.pcap -V
--
-- Display filter names start with "atpagg" ("atpagg.app_id == 2", "atpagg.flags.collision"):
-- Wireshark's built-in "atp" is the AppleTalk Transaction Protocol.
--
-- Ethernet type 0x0700: IPv4 header (20 bytes; only the ECN bits carry meaning) then the
-- 274-byte ATP layer. Ethernet type 0x0701: IPv4, the 8-byte two-level shim, then the ATP
-- layer. Everything is big-endian. Flags are shown by name; the 62 values are listed
-- (int32, or float32 bit patterns when the overflow flag is set). A frame whose length
-- is not exactly what its ethertype needs gets an expert-info error naming the field
-- the frame ends in (or the trailing bytes), as reference/wire.py rejects it.

local ELEMENTS = 62
local ETH_LEN, IPV4_LEN, SHIM_LEN, ATP_LEN = 14, 20, 8, 274

local atp = Proto("atpagg", "ATP in-network aggregation")
local atp_two_level = Proto("atpagg2", "ATP in-network aggregation, two-level")

local level_names = { [0] = "straight from a worker", [1] = "rack aggregate from an edge switch" }

local f = {
  -- the IPv4 header as ATP hosts fill it (not handed to the IP dissector: its total
  -- length covers the ATP layer, which is no IP payload any host stack reads)
  ip_version = ProtoField.uint8("atpagg.ipv4.version", "Version", base.DEC, nil, 0xF0),
  ip_ihl = ProtoField.uint8("atpagg.ipv4.ihl", "Header length (words)", base.DEC, nil, 0x0F),
  ip_dscp = ProtoField.uint8("atpagg.ipv4.dscp", "DSCP", base.DEC, nil, 0xFC),
  ip_ecn = ProtoField.uint8("atpagg.ipv4.ecn", "ECN", base.DEC,
                            { [0] = "Not-ECT", [1] = "ECT(1)", [2] = "ECT(0)", [3] = "CE" }, 0x03),
  ip_total_length = ProtoField.uint16("atpagg.ipv4.total_length", "Total length", base.DEC),
  ip_ttl = ProtoField.uint8("atpagg.ipv4.ttl", "TTL", base.DEC),
  ip_protocol = ProtoField.uint8("atpagg.ipv4.protocol", "Protocol", base.DEC),
  ip_checksum = ProtoField.uint16("atpagg.ipv4.checksum", "Header checksum", base.HEX),
  ip_src = ProtoField.ipv4("atpagg.ipv4.src", "Source"),
  ip_dst = ProtoField.ipv4("atpagg.ipv4.dst", "Destination"),
  -- the ATP layer
  kind = ProtoField.string("atpagg.kind", "Packet kind"),
  bitmap = ProtoField.uint32("atpagg.bitmap", "Bitmap (workers carried)", base.HEX),
  fan_in = ProtoField.uint8("atpagg.fan_in", "Fan-in (workers of the job)", base.DEC),
  flags = ProtoField.uint8("atpagg.flags", "Flags", base.HEX),
  flag_names = ProtoField.string("atpagg.flags.names", "Flags by name"),
  overflow = ProtoField.bool("atpagg.flags.overflow", "overflow (float32 values)", 8, nil, 0x80),
  ps_index = ProtoField.uint8("atpagg.flags.ps_index", "ps_index", base.DEC, nil, 0x60),
  data_index = ProtoField.bool("atpagg.flags.data_index", "data_index", 8, nil, 0x10),
  ecn = ProtoField.bool("atpagg.flags.ecn", "ecn", 8, nil, 0x08),
  resend = ProtoField.bool("atpagg.flags.resend", "resend", 8, nil, 0x04),
  collision = ProtoField.bool("atpagg.flags.collision", "collision", 8, nil, 0x02),
  ack = ProtoField.bool("atpagg.flags.ack", "ack (parameter packet)", 8, nil, 0x01),
  app_id = ProtoField.uint16("atpagg.app_id", "Job (app_id)", base.DEC),
  seq = ProtoField.uint16("atpagg.seq", "Seq", base.DEC),
  agtr = ProtoField.uint16("atpagg.agtr", "Aggregator index", base.DEC),
  agtr2 = ProtoField.uint16("atpagg.agtr2", "Second-half index (agtr2)", base.DEC),
  values = ProtoField.bytes("atpagg.values", "Values (62 elements)"),
  value = ProtoField.int32("atpagg.value", "Value", base.DEC),
  value_float = ProtoField.float("atpagg.value_float", "Value (float32)"),
  key = ProtoField.uint64("atpagg.key", "Tensor key", base.DEC),
  tensor_len = ProtoField.uint32("atpagg.tensor_len", "Tensor length (elements) / new aggregator",
                                 base.DEC),
  -- the two-level shim
  bitmap1 = ProtoField.uint32("atpagg.shim.bitmap1", "Bitmap1 (racks carried)", base.HEX),
  fan_in1 = ProtoField.uint8("atpagg.shim.fan_in1", "Fan-in1 (racks of the job)", base.DEC),
  level = ProtoField.uint8("atpagg.shim.level", "Level", base.DEC, level_names),
  rack_id = ProtoField.uint8("atpagg.shim.rack_id", "Rack", base.DEC),
  reserved = ProtoField.uint8("atpagg.shim.reserved", "Reserved", base.HEX),
}
local field_list = {}
for _, field in pairs(f) do table.insert(field_list, field) end
atp.fields = field_list

local e_short = ProtoExpert.new("atpagg.malformed.truncated", "ATP frame is truncated",
                                expert.group.MALFORMED, expert.severity.ERROR)
local e_trailing = ProtoExpert.new("atpagg.malformed.trailing", "Bytes after the ATP layer",
                                   expert.group.MALFORMED, expert.severity.ERROR)
atp.experts = { e_short, e_trailing }

-- byte offset inside the ATP layer, field name (for "the frame ends inside <field>")
local layout = {
  { 0, "bitmap" }, { 4, "fan_in" }, { 5, "flags" }, { 6, "app_id" }, { 8, "seq" },
  { 10, "agtr" }, { 12, "agtr2" }, { 14, "values" }, { 262, "key" }, { 270, "tensor_len" },
}

local function field_at(offset)
  local name = layout[1][2]
  for _, entry in ipairs(layout) do
    if entry[1] <= offset then name = entry[2] end
  end
  return name
end

local flag_bits = {
  { 0x80, "overflow" }, { 0x10, "data_index" }, { 0x08, "ecn" }, { 0x04, "resend" },
  { 0x02, "collision" }, { 0x01, "ack" },
}

-- "ack|resend ps_index=1", "-" for none: as reference.wire.describe_flags writes them
local function describe_flags(flags)
  local names = {}
  for _, entry in ipairs(flag_bits) do
    if bit.band(flags, entry[1]) ~= 0 then table.insert(names, entry[2]) end
  end
  local text = #names > 0 and table.concat(names, "|") or "-"
  local ps_index = bit.rshift(bit.band(flags, 0x60), 5)
  if ps_index ~= 0 then text = text .. " ps_index=" .. ps_index end
  return text
end

-- the packet's kind in the protocol's words
local function kind_of(flags)
  local ack, resend, overflow = bit.band(flags, 1) ~= 0, bit.band(flags, 4) ~= 0,
                                bit.band(flags, 0x80) ~= 0
  if ack then
    if overflow and not resend then return "float request" end
    return "parameter"
  end
  if resend then return "resend" end
  return "gradient"
end

local function dissect_shim(buffer, tree, at)
  local shim = tree:add(atp_two_level, buffer(at, SHIM_LEN), "ATP two-level shim")
  shim:add(f.bitmap1, buffer(at, 4))
  shim:add(f.fan_in1, buffer(at + 4, 1))
  shim:add(f.level, buffer(at + 5, 1))
  shim:add(f.rack_id, buffer(at + 6, 1))
  shim:add(f.reserved, buffer(at + 7, 1))
  shim:append_text(string.format(", level %d, rack %d, bitmap1 0x%x",
    buffer(at + 5, 1):uint(), buffer(at + 6, 1):uint(), buffer(at, 4):uint()))
end

-- the ATP layer from `at` (of the ethertype payload); `present` bytes of it are there
local function dissect_atp(buffer, pinfo, tree, at, present, frame_len)
  local layer = tree:add(atp, buffer(at, math.min(present, ATP_LEN)), "ATP layer")
  if present < ATP_LEN then
    layer:add_proto_expert_info(e_short, string.format(
      "frame of %d bytes is truncated: the ATP layer needs %d bytes from offset %d; it ends inside %s",
      frame_len, ATP_LEN, at + ETH_LEN, field_at(math.max(present, 0))))
    pinfo.cols.info:append(" [truncated]")
    return
  end
  local flags = buffer(at + 5, 1):uint()
  local kind = kind_of(flags)
  local names = describe_flags(flags)
  layer:add(f.kind, kind):set_generated()
  layer:add(f.bitmap, buffer(at, 4))
  layer:add(f.fan_in, buffer(at + 4, 1))
  local ftree = layer:add(f.flags, buffer(at + 5, 1))
  ftree:append_text(" (" .. names .. ")")
  ftree:add(f.flag_names, names):set_generated()
  ftree:add(f.overflow, buffer(at + 5, 1))
  ftree:add(f.ps_index, buffer(at + 5, 1))
  ftree:add(f.data_index, buffer(at + 5, 1))
  ftree:add(f.ecn, buffer(at + 5, 1))
  ftree:add(f.resend, buffer(at + 5, 1))
  ftree:add(f.collision, buffer(at + 5, 1))
  ftree:add(f.ack, buffer(at + 5, 1))
  layer:add(f.app_id, buffer(at + 6, 2))
  layer:add(f.seq, buffer(at + 8, 2))
  layer:add(f.agtr, buffer(at + 10, 2))
  layer:add(f.agtr2, buffer(at + 12, 2))
  local vtree = layer:add(f.values, buffer(at + 14, 4 * ELEMENTS))
  local nonzero = 0
  local overflow = bit.band(flags, 0x80) ~= 0
  for i = 0, ELEMENTS - 1 do
    local range = buffer(at + 14 + 4 * i, 4)
    local item = vtree:add(f.value, range)
    item:prepend_text(string.format("[%d] ", i))
    if overflow then vtree:add(f.value_float, range):prepend_text(string.format("[%d] ", i)) end
    if range:int() ~= 0 then nonzero = nonzero + 1 end
  end
  vtree:set_text(string.format("Values: %d elements, %d non-zero%s", ELEMENTS, nonzero,
                               overflow and " (float32 bit patterns)" or ""))
  layer:add(f.key, buffer(at + 262, 8))
  layer:add(f.tensor_len, buffer(at + 270, 4))
  layer:append_text(string.format(": %s app %d seq %d agtr %d flags %s", kind,
    buffer(at + 6, 2):uint(), buffer(at + 8, 2):uint(), buffer(at + 10, 2):uint(), names))
  pinfo.cols.info:set(string.format("%s app %d seq %d bitmap 0x%x agtr %d flags %s", kind,
    buffer(at + 6, 2):uint(), buffer(at + 8, 2):uint(), buffer(at, 4):uint(),
    buffer(at + 10, 2):uint(), names))
  local trailing = buffer:len() - at - ATP_LEN
  if trailing > 0 then
    layer:add_proto_expert_info(e_trailing, string.format(
      "frame of %d bytes has %d trailing bytes after the ATP layer", frame_len, trailing))
  end
end

-- the ethertype table hands over the frame from the IPv4 header on; work on the whole
-- frame so offsets match docs/protocol.md (Ethernet header included)
local function dissect(tvb, pinfo, tree, two_level)
  local length = tvb:len() + ETH_LEN
  pinfo.cols.protocol:set(two_level and "ATP2" or "ATP")
  local root = tree:add(two_level and atp_two_level or atp, tvb(),
                        two_level and "ATP two-level" or "ATP")
  -- offsets below are relative to the ethertype payload
  local ip_len = math.min(IPV4_LEN, tvb:len())
  local ip = root:add(atp, tvb(0, ip_len), "IPv4 header (as ATP hosts fill it)")
  if tvb:len() < IPV4_LEN then
    ip:add_proto_expert_info(e_short, string.format(
      "frame of %d bytes ends inside the IPv4 header", length))
    return
  end
  ip:add(f.ip_version, tvb(0, 1))
  ip:add(f.ip_ihl, tvb(0, 1))
  ip:add(f.ip_dscp, tvb(1, 1))
  ip:add(f.ip_ecn, tvb(1, 1))
  ip:add(f.ip_total_length, tvb(2, 2))
  ip:add(f.ip_ttl, tvb(8, 1))
  ip:add(f.ip_protocol, tvb(9, 1))
  ip:add(f.ip_checksum, tvb(10, 2))
  ip:add(f.ip_src, tvb(12, 4))
  ip:add(f.ip_dst, tvb(16, 4))
  local at = IPV4_LEN
  if two_level then
    if tvb:len() < IPV4_LEN + SHIM_LEN then
      root:add_proto_expert_info(e_short, string.format(
        "frame of %d bytes ends inside the two-level shim", length))
      return
    end
    dissect_shim(tvb, root, at)
    at = at + SHIM_LEN
  end
  dissect_atp(tvb, pinfo, root, at, tvb:len() - at, length)
end

function atp.dissector(tvb, pinfo, tree) dissect(tvb, pinfo, tree, false) end
function atp_two_level.dissector(tvb, pinfo, tree) dissect(tvb, pinfo, tree, true) end

local ethertype = DissectorTable.get("ethertype")
ethertype:add(0x0700, atp)
ethertype:add(0x0701, atp_two_level)
