# PTF test for aggregate62
# p4testgen seed: 1

import logging
import itertools

from bfruntime_client_base_tests import BfRuntimeTest
from ptf.mask import Mask
from ptf.testutils import send_packet
from ptf.testutils import verify_packet
from ptf.testutils import verify_no_other_packets

import bfrt_grpc.bfruntime_pb2 as bfruntime_pb2
import bfrt_grpc.client as gc

logger = logging.getLogger('aggregate62')
logger.addHandler(logging.StreamHandler())

class AbstractTest(BfRuntimeTest):
    def setUp(self):
        BfRuntimeTest.setUp(self, 0, 'aggregate62')
        self.dev_id = 0
        self.table_entries = []
        self.bfrt_info = None
        # Get bfrt_info and set it as part of the test.
        self.bfrt_info = self.interface.bfrt_info_get('aggregate62')

        # Set target to all pipes on device self.dev_id.
        self.target = gc.Target(device_id=0, pipe_id=0xFFFF)

    def tearDown(self):
        # Reset tables.
        for elt in reversed(self.table_entries):
            test_table = self.bfrt_info.table_get(elt[0])
            test_table.entry_del(self.target, elt[1])
        self.table_entries = []

        # End session.
        BfRuntimeTest.tearDown(self)

    def insertTableEntry(
        self, table_name, key_fields=None, action_name=None, data_fields=[]
    ):
        test_table = self.bfrt_info.table_get(table_name)
        key_list = [test_table.make_key(key_fields)]
        data_list = [test_table.make_data(data_fields, action_name)]
        test_table.entry_add(self.target, key_list, data_list)
        self.table_entries.append((table_name, key_list))

    def _responseDumpHelper(self, request):
        for response in self.interface.stub.Read(request, timeout=2):
            yield response

    def overrideDefaultEntry(self, table_name, action_name=None, data_fields=[]):
        test_table = self.bfrt_info.table_get(table_name)
        data = test_table.make_data(data_fields, action_name)
        test_table.default_entry_set(self.target, data)

    def setRegisterValue(self, reg_name, value, index):
        reg_table = self.bfrt_info.table_get(reg_name)
        key_list = [reg_table.make_key([gc.KeyTuple("$REGISTER_INDEX", index)])]
        value_list = []
        if isinstance(value, list):
            for val in value:
                value_list.append(gc.DataTuple(val[0], val[1]))
        else:
            value_list.append(gc.DataTuple("f1", value))
        reg_table.entry_add(self.target, key_list, [reg_table.make_data(value_list)])

    def entryAdd(self, table_obj, target, table_entry):
        req = bfruntime_pb2.WriteRequest()
        gc._cpy_target(req, target)
        req.atomicity = bfruntime_pb2.WriteRequest.CONTINUE_ON_ERROR
        update = req.updates.add()
        update.type = bfruntime_pb2.Update.MODIFY
        update.entity.table_entry.CopyFrom(table_entry)
        resp = self.interface.reader_writer_interface._write(req)
        table_obj.get_parser._parse_entry_write_response(resp)

    def setDirectRegisterValue(self, tbl_name, value):
        test_table = self.bfrt_info.table_get(tbl_name)
        table_id = test_table.info.id
        req = bfruntime_pb2.ReadRequest()
        req.client_id = self.client_id
        gc._cpy_target(req, self.target)
        entity = req.entities.add()
        table = entity.table_entry
        table.table_id = table_id
        table_entry = None
        for response in self._responseDumpHelper(req):
            for entity in response.entities:
                assert entity.WhichOneof("entity") == "table_entry"
                table_entry = entity.table_entry
                break
        if table_entry is None:
            raise self.failureException(
                "No entry in the table that the meter is attached to."
            )
        table_entry.ClearField("data")
        value_list = []
        if isinstance(value, list):
            for val in value:
                df = table_entry.data.fields.add()
        else:
            df = table_entry.data.fields.add()
            df.value = gc.DataTuple(gc.DataTuple("f1", value))
        self.entryAdd(test_table, self.target, table_entry)

    def setupCtrlPlane(self):
        pass

    def sendPacket(self):
        pass

    def verifyPackets(self):
        pass

    def runTestImpl(self):
        self.setupCtrlPlane()
        logger.info("Sending Packet ...")
        self.sendPacket()
        logger.info("Verifying Packet ...")
        self.verifyPackets()
        logger.info("Verifying no other packets ...")
        verify_no_other_packets(self, self.dev_id, timeout=2)

class Test1(AbstractTest):
    # Date generated: 2026-11-28-06:13:31.485
    # Current statement coverage: 0.99
    '''
    [P4Testgen MethodCall]: *.StartIngress();
    [P4Testgen MethodCall]: *.prepend_to_prog_header(0);
    [PrependToProgramHeader]: 0
    [P4Testgen MethodCall]: *.prepend_to_prog_header(*ig_intr_md);
    [PrependToProgramHeader]: {$headerValid:true;;    resubmit_flag:0;  _pad1:0;  packet_version:0;  _pad2:0;  ingress_port:2;  ingress_mac_tstamp:0;  }
    [P4Testgen MethodCall]: *.copy_in("IgParser");
    [Parser] IgParser
    [State] start
    [MethodCall]: pkt.extract<ingress_intrinsic_metadata_t>(ig_intr_md);
    [ExtractSuccess] ig_intr_md@0 | Condition: |*packetLen_bits(bit<32>)| >= 64; | Extract Size: 64 -> ig_intr_md.resubmit_flag = 0x0 | ig_intr_md._pad1 = 0x0 | ig_intr_md.packet_version = 0x0 | ig_intr_md._pad2 = 0x0 | ig_intr_md.ingress_port = 0x002 | ig_intr_md.ingress_mac_tstamp = Taint
    [MethodCall]: pkt.advance(64);
    [Advance Condition: |*packetLen_bits(bit<32>)| >= 64;]
    [MethodCall]: pkt.extract<ethernet_h>(hdr.ethernet);
    [ExtractSuccess] hdr.ethernet@0 | Condition: |*packetLen_bits(bit<32>)| >= 112; | Extract Size: 112 -> hdr.ethernet.dst_addr = 0x8006_AE05_2C84 | hdr.ethernet.src_addr = 0x0000_0000_0000 | hdr.ethernet.ether_type = 0x0800
    [State] parse_ipv4
    [MethodCall]: pkt.extract<ipv4_h>(hdr.ipv4);
    [ExtractSuccess] hdr.ipv4@112 | Condition: |*packetLen_bits(bit<32>)| >= 272; | Extract Size: 160 -> hdr.ipv4.version = 0x0 | hdr.ipv4.ihl = 0x0 | hdr.ipv4.dscp = 0x00 | hdr.ipv4.ecn = 0x0 | hdr.ipv4.total_len = 0x0000 | hdr.ipv4.identification = 0x0000 | hdr.ipv4.flags = 0x0 | hdr.ipv4.frag_offset = 0x0000 | hdr.ipv4.ttl = 0x00 | hdr.ipv4.protocol = 0xFD | hdr.ipv4.hdr_checksum = 0x0000 | hdr.ipv4.src_addr = 0x0000_0000 | hdr.ipv4.dst_addr = 0x0000_0000
    [State] parse_agg
    [MethodCall]: pkt.extract<agg_h>(hdr.agg);
    [ExtractSuccess] hdr.agg@272 | Condition: |*packetLen_bits(bit<32>)| >= 2352; | Extract Size: 2080 -> hdr.agg.bitmap = 0x0000_0000 | hdr.agg.fan_in = 0x00 | hdr.agg.flags = 0x00 | hdr.agg.app_id = 0x0000 | hdr.agg.seq = 0x0000 | hdr.agg.agtr = 0x0000 | hdr.agg.v0 = 0x40CD_A5C9 | hdr.agg.v1 = 0x7209_EE33 | hdr.agg.v2 = 0x7550_1D85 | hdr.agg.v3 = 0x4CE9_9AB4 | hdr.agg.v4 = 0x776A_91E1 | hdr.agg.v5 = 0x4D17_5DE3 | hdr.agg.v6 = 0x0C16_7D32 | hdr.agg.v7 = 0x6E0A_7097 | hdr.agg.v8 = 0x5771_DC0B | hdr.agg.v9 = 0x69FB_AEC9 | hdr.agg.v10 = 0x228D_16B6 | hdr.agg.v11 = 0x55CB_1640 | hdr.agg.v12 = 0x4E94_AE43 | hdr.agg.v13 = 0x774C_65D6 | hdr.agg.v14 = 0x7D5D_2D73 | hdr.agg.v15 = 0x5CBB_1E18 | hdr.agg.v16 = 0x6BB1_50D4 | hdr.agg.v17 = 0x395D_C8DD | hdr.agg.v18 = 0x6645_4B8F | hdr.agg.v19 = 0x28E2_FA65 | hdr.agg.v20 = 0x5ED4_5C5B | hdr.agg.v21 = 0x7545_49FA | hdr.agg.v22 = 0x7BF5_1D9F | hdr.agg.v23 = 0x736E_3471 | hdr.agg.v24 = 0x456F_9B12 | hdr.agg.v25 = 0x4C86_F14B | hdr.agg.v26 = 0x7433_E8C3 | hdr.agg.v27 = 0x2356_EC72 | hdr.agg.v28 = 0x4615_B5FA | hdr.agg.v29 = 0x2374_DB0E | hdr.agg.v30 = 0x5A50_621C | hdr.agg.v31 = 0x6B88_6707 | hdr.agg.v32 = 0x5AB9_D2E4 | hdr.agg.v33 = 0x743A_373B | hdr.agg.v34 = 0x30D7_C213 | hdr.agg.v35 = 0x70C4_1D79 | hdr.agg.v36 = 0x77F9_7B5C | hdr.agg.v37 = 0x537E_7BC2 | hdr.agg.v38 = 0x61D6_4E9E | hdr.agg.v39 = 0x5DB0_6E85 | hdr.agg.v40 = 0x666B_CAAB | hdr.agg.v41 = 0x4A44_3F0C | hdr.agg.v42 = 0x40F6_510B | hdr.agg.v43 = 0x2EAF_3B78 | hdr.agg.v44 = 0x53A4_9C3B | hdr.agg.v45 = 0x7397_5E8C | hdr.agg.v46 = 0x62A6_8314 | hdr.agg.v47 = 0x5D78_49C2 | hdr.agg.v48 = 0x5E8B_34D0 | hdr.agg.v49 = 0x2CB8_294B | hdr.agg.v50 = 0x6B61_C8B3 | hdr.agg.v51 = 0x4221_731F | hdr.agg.v52 = 0x664C_9111 | hdr.agg.v53 = 0x4D8B_3F51 | hdr.agg.v54 = 0x654D_0E4B | hdr.agg.v55 = 0x5770_E69F | hdr.agg.v56 = 0x6765_89C5 | hdr.agg.v57 = 0x13C9_B0D0 | hdr.agg.v58 = 0x5393_ABBC | hdr.agg.v59 = 0x4AA7_8AAD | hdr.agg.v60 = 0x5477_120E | hdr.agg.v61 = 0x6177_E9C7
    [State] accept
    [P4Testgen MethodCall]: *.copy_out("IgParser");
    [P4Testgen MethodCall]: *.copy_in("Ingress");
    [Control Ingress start]
    [MethodCall]: forward_0/forward.apply();
    [Table Branch: Ingress.forward | Key(s): |pktvar_0(bit<48>)|| Chosen action: Ingress.set_port]
    [MethodCall]: set_port(|Ingress.forward_Ingress.set_port_arg_port(bit<9>)|);
    [AssignmentStatement]: action set_port(PortId_t port) { ig_tm_md.ucast_egress_port = port; }| Computed: ig_tm_md.ucast_egress_port = 511;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.idx = hdr.agg.agtr & (1024 - 1);| Computed: md.idx = 0;
    [AssignmentStatement]: value = value + 1;| Computed: value = 1;
    [AssignmentStatement]: result = value;| Computed: result = 1;
    [AssignmentStatement]: md.count = count_one.execute(md.idx);| Computed: md.count = 1;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_0; RegisterAction<int<32>, bit<16>, int<32>>(agg_0) add_0 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v0; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_0; RegisterAction<int<32>, bit<16>, int<32>>(agg_0) add_0 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v0; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v0 = add_0.execute(md.idx);| Computed: hdr.agg.v0 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_1; RegisterAction<int<32>, bit<16>, int<32>>(agg_1) add_1 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v1; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_1; RegisterAction<int<32>, bit<16>, int<32>>(agg_1) add_1 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v1; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v1 = add_1.execute(md.idx);| Computed: hdr.agg.v1 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_2; RegisterAction<int<32>, bit<16>, int<32>>(agg_2) add_2 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v2; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_2; RegisterAction<int<32>, bit<16>, int<32>>(agg_2) add_2 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v2; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v2 = add_2.execute(md.idx);| Computed: hdr.agg.v2 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_3; RegisterAction<int<32>, bit<16>, int<32>>(agg_3) add_3 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v3; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_3; RegisterAction<int<32>, bit<16>, int<32>>(agg_3) add_3 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v3; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v3 = add_3.execute(md.idx);| Computed: hdr.agg.v3 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_4; RegisterAction<int<32>, bit<16>, int<32>>(agg_4) add_4 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v4; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_4; RegisterAction<int<32>, bit<16>, int<32>>(agg_4) add_4 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v4; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v4 = add_4.execute(md.idx);| Computed: hdr.agg.v4 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_5; RegisterAction<int<32>, bit<16>, int<32>>(agg_5) add_5 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v5; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_5; RegisterAction<int<32>, bit<16>, int<32>>(agg_5) add_5 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v5; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v5 = add_5.execute(md.idx);| Computed: hdr.agg.v5 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_6; RegisterAction<int<32>, bit<16>, int<32>>(agg_6) add_6 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v6; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_6; RegisterAction<int<32>, bit<16>, int<32>>(agg_6) add_6 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v6; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v6 = add_6.execute(md.idx);| Computed: hdr.agg.v6 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_7; RegisterAction<int<32>, bit<16>, int<32>>(agg_7) add_7 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v7; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_7; RegisterAction<int<32>, bit<16>, int<32>>(agg_7) add_7 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v7; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v7 = add_7.execute(md.idx);| Computed: hdr.agg.v7 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_8; RegisterAction<int<32>, bit<16>, int<32>>(agg_8) add_8 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v8; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_8; RegisterAction<int<32>, bit<16>, int<32>>(agg_8) add_8 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v8; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v8 = add_8.execute(md.idx);| Computed: hdr.agg.v8 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_9; RegisterAction<int<32>, bit<16>, int<32>>(agg_9) add_9 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v9; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_9; RegisterAction<int<32>, bit<16>, int<32>>(agg_9) add_9 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v9; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v9 = add_9.execute(md.idx);| Computed: hdr.agg.v9 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_10; RegisterAction<int<32>, bit<16>, int<32>>(agg_10) add_10 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v10; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_10; RegisterAction<int<32>, bit<16>, int<32>>(agg_10) add_10 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v10; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v10 = add_10.execute(md.idx);| Computed: hdr.agg.v10 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_11; RegisterAction<int<32>, bit<16>, int<32>>(agg_11) add_11 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v11; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_11; RegisterAction<int<32>, bit<16>, int<32>>(agg_11) add_11 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v11; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v11 = add_11.execute(md.idx);| Computed: hdr.agg.v11 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_12; RegisterAction<int<32>, bit<16>, int<32>>(agg_12) add_12 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v12; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_12; RegisterAction<int<32>, bit<16>, int<32>>(agg_12) add_12 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v12; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v12 = add_12.execute(md.idx);| Computed: hdr.agg.v12 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_13; RegisterAction<int<32>, bit<16>, int<32>>(agg_13) add_13 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v13; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_13; RegisterAction<int<32>, bit<16>, int<32>>(agg_13) add_13 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v13; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v13 = add_13.execute(md.idx);| Computed: hdr.agg.v13 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_14; RegisterAction<int<32>, bit<16>, int<32>>(agg_14) add_14 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v14; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_14; RegisterAction<int<32>, bit<16>, int<32>>(agg_14) add_14 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v14; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v14 = add_14.execute(md.idx);| Computed: hdr.agg.v14 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_15; RegisterAction<int<32>, bit<16>, int<32>>(agg_15) add_15 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v15; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_15; RegisterAction<int<32>, bit<16>, int<32>>(agg_15) add_15 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v15; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v15 = add_15.execute(md.idx);| Computed: hdr.agg.v15 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_16; RegisterAction<int<32>, bit<16>, int<32>>(agg_16) add_16 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v16; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_16; RegisterAction<int<32>, bit<16>, int<32>>(agg_16) add_16 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v16; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v16 = add_16.execute(md.idx);| Computed: hdr.agg.v16 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_17; RegisterAction<int<32>, bit<16>, int<32>>(agg_17) add_17 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v17; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_17; RegisterAction<int<32>, bit<16>, int<32>>(agg_17) add_17 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v17; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v17 = add_17.execute(md.idx);| Computed: hdr.agg.v17 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_18; RegisterAction<int<32>, bit<16>, int<32>>(agg_18) add_18 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v18; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_18; RegisterAction<int<32>, bit<16>, int<32>>(agg_18) add_18 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v18; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v18 = add_18.execute(md.idx);| Computed: hdr.agg.v18 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_19; RegisterAction<int<32>, bit<16>, int<32>>(agg_19) add_19 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v19; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_19; RegisterAction<int<32>, bit<16>, int<32>>(agg_19) add_19 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v19; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v19 = add_19.execute(md.idx);| Computed: hdr.agg.v19 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_20; RegisterAction<int<32>, bit<16>, int<32>>(agg_20) add_20 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v20; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_20; RegisterAction<int<32>, bit<16>, int<32>>(agg_20) add_20 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v20; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v20 = add_20.execute(md.idx);| Computed: hdr.agg.v20 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_21; RegisterAction<int<32>, bit<16>, int<32>>(agg_21) add_21 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v21; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_21; RegisterAction<int<32>, bit<16>, int<32>>(agg_21) add_21 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v21; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v21 = add_21.execute(md.idx);| Computed: hdr.agg.v21 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_22; RegisterAction<int<32>, bit<16>, int<32>>(agg_22) add_22 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v22; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_22; RegisterAction<int<32>, bit<16>, int<32>>(agg_22) add_22 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v22; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v22 = add_22.execute(md.idx);| Computed: hdr.agg.v22 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_23; RegisterAction<int<32>, bit<16>, int<32>>(agg_23) add_23 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v23; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_23; RegisterAction<int<32>, bit<16>, int<32>>(agg_23) add_23 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v23; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v23 = add_23.execute(md.idx);| Computed: hdr.agg.v23 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_24; RegisterAction<int<32>, bit<16>, int<32>>(agg_24) add_24 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v24; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_24; RegisterAction<int<32>, bit<16>, int<32>>(agg_24) add_24 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v24; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v24 = add_24.execute(md.idx);| Computed: hdr.agg.v24 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_25; RegisterAction<int<32>, bit<16>, int<32>>(agg_25) add_25 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v25; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_25; RegisterAction<int<32>, bit<16>, int<32>>(agg_25) add_25 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v25; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v25 = add_25.execute(md.idx);| Computed: hdr.agg.v25 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_26; RegisterAction<int<32>, bit<16>, int<32>>(agg_26) add_26 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v26; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_26; RegisterAction<int<32>, bit<16>, int<32>>(agg_26) add_26 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v26; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v26 = add_26.execute(md.idx);| Computed: hdr.agg.v26 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_27; RegisterAction<int<32>, bit<16>, int<32>>(agg_27) add_27 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v27; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_27; RegisterAction<int<32>, bit<16>, int<32>>(agg_27) add_27 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v27; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v27 = add_27.execute(md.idx);| Computed: hdr.agg.v27 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_28; RegisterAction<int<32>, bit<16>, int<32>>(agg_28) add_28 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v28; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_28; RegisterAction<int<32>, bit<16>, int<32>>(agg_28) add_28 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v28; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v28 = add_28.execute(md.idx);| Computed: hdr.agg.v28 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_29; RegisterAction<int<32>, bit<16>, int<32>>(agg_29) add_29 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v29; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_29; RegisterAction<int<32>, bit<16>, int<32>>(agg_29) add_29 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v29; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v29 = add_29.execute(md.idx);| Computed: hdr.agg.v29 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_30; RegisterAction<int<32>, bit<16>, int<32>>(agg_30) add_30 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v30; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_30; RegisterAction<int<32>, bit<16>, int<32>>(agg_30) add_30 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v30; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v30 = add_30.execute(md.idx);| Computed: hdr.agg.v30 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_31; RegisterAction<int<32>, bit<16>, int<32>>(agg_31) add_31 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v31; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_31; RegisterAction<int<32>, bit<16>, int<32>>(agg_31) add_31 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v31; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v31 = add_31.execute(md.idx);| Computed: hdr.agg.v31 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_32; RegisterAction<int<32>, bit<16>, int<32>>(agg_32) add_32 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v32; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_32; RegisterAction<int<32>, bit<16>, int<32>>(agg_32) add_32 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v32; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v32 = add_32.execute(md.idx);| Computed: hdr.agg.v32 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_33; RegisterAction<int<32>, bit<16>, int<32>>(agg_33) add_33 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v33; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_33; RegisterAction<int<32>, bit<16>, int<32>>(agg_33) add_33 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v33; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v33 = add_33.execute(md.idx);| Computed: hdr.agg.v33 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_34; RegisterAction<int<32>, bit<16>, int<32>>(agg_34) add_34 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v34; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_34; RegisterAction<int<32>, bit<16>, int<32>>(agg_34) add_34 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v34; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v34 = add_34.execute(md.idx);| Computed: hdr.agg.v34 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_35; RegisterAction<int<32>, bit<16>, int<32>>(agg_35) add_35 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v35; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_35; RegisterAction<int<32>, bit<16>, int<32>>(agg_35) add_35 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v35; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v35 = add_35.execute(md.idx);| Computed: hdr.agg.v35 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_36; RegisterAction<int<32>, bit<16>, int<32>>(agg_36) add_36 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v36; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_36; RegisterAction<int<32>, bit<16>, int<32>>(agg_36) add_36 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v36; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v36 = add_36.execute(md.idx);| Computed: hdr.agg.v36 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_37; RegisterAction<int<32>, bit<16>, int<32>>(agg_37) add_37 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v37; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_37; RegisterAction<int<32>, bit<16>, int<32>>(agg_37) add_37 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v37; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v37 = add_37.execute(md.idx);| Computed: hdr.agg.v37 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_38; RegisterAction<int<32>, bit<16>, int<32>>(agg_38) add_38 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v38; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_38; RegisterAction<int<32>, bit<16>, int<32>>(agg_38) add_38 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v38; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v38 = add_38.execute(md.idx);| Computed: hdr.agg.v38 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_39; RegisterAction<int<32>, bit<16>, int<32>>(agg_39) add_39 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v39; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_39; RegisterAction<int<32>, bit<16>, int<32>>(agg_39) add_39 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v39; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v39 = add_39.execute(md.idx);| Computed: hdr.agg.v39 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_40; RegisterAction<int<32>, bit<16>, int<32>>(agg_40) add_40 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v40; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_40; RegisterAction<int<32>, bit<16>, int<32>>(agg_40) add_40 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v40; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v40 = add_40.execute(md.idx);| Computed: hdr.agg.v40 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_41; RegisterAction<int<32>, bit<16>, int<32>>(agg_41) add_41 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v41; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_41; RegisterAction<int<32>, bit<16>, int<32>>(agg_41) add_41 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v41; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v41 = add_41.execute(md.idx);| Computed: hdr.agg.v41 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_42; RegisterAction<int<32>, bit<16>, int<32>>(agg_42) add_42 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v42; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_42; RegisterAction<int<32>, bit<16>, int<32>>(agg_42) add_42 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v42; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v42 = add_42.execute(md.idx);| Computed: hdr.agg.v42 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_43; RegisterAction<int<32>, bit<16>, int<32>>(agg_43) add_43 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v43; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_43; RegisterAction<int<32>, bit<16>, int<32>>(agg_43) add_43 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v43; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v43 = add_43.execute(md.idx);| Computed: hdr.agg.v43 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_44; RegisterAction<int<32>, bit<16>, int<32>>(agg_44) add_44 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v44; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_44; RegisterAction<int<32>, bit<16>, int<32>>(agg_44) add_44 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v44; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v44 = add_44.execute(md.idx);| Computed: hdr.agg.v44 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_45; RegisterAction<int<32>, bit<16>, int<32>>(agg_45) add_45 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v45; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_45; RegisterAction<int<32>, bit<16>, int<32>>(agg_45) add_45 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v45; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v45 = add_45.execute(md.idx);| Computed: hdr.agg.v45 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_46; RegisterAction<int<32>, bit<16>, int<32>>(agg_46) add_46 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v46; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_46; RegisterAction<int<32>, bit<16>, int<32>>(agg_46) add_46 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v46; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v46 = add_46.execute(md.idx);| Computed: hdr.agg.v46 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_47; RegisterAction<int<32>, bit<16>, int<32>>(agg_47) add_47 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v47; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_47; RegisterAction<int<32>, bit<16>, int<32>>(agg_47) add_47 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v47; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v47 = add_47.execute(md.idx);| Computed: hdr.agg.v47 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_48; RegisterAction<int<32>, bit<16>, int<32>>(agg_48) add_48 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v48; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_48; RegisterAction<int<32>, bit<16>, int<32>>(agg_48) add_48 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v48; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v48 = add_48.execute(md.idx);| Computed: hdr.agg.v48 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_49; RegisterAction<int<32>, bit<16>, int<32>>(agg_49) add_49 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v49; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_49; RegisterAction<int<32>, bit<16>, int<32>>(agg_49) add_49 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v49; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v49 = add_49.execute(md.idx);| Computed: hdr.agg.v49 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_50; RegisterAction<int<32>, bit<16>, int<32>>(agg_50) add_50 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v50; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_50; RegisterAction<int<32>, bit<16>, int<32>>(agg_50) add_50 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v50; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v50 = add_50.execute(md.idx);| Computed: hdr.agg.v50 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_51; RegisterAction<int<32>, bit<16>, int<32>>(agg_51) add_51 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v51; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_51; RegisterAction<int<32>, bit<16>, int<32>>(agg_51) add_51 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v51; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v51 = add_51.execute(md.idx);| Computed: hdr.agg.v51 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_52; RegisterAction<int<32>, bit<16>, int<32>>(agg_52) add_52 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v52; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_52; RegisterAction<int<32>, bit<16>, int<32>>(agg_52) add_52 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v52; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v52 = add_52.execute(md.idx);| Computed: hdr.agg.v52 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_53; RegisterAction<int<32>, bit<16>, int<32>>(agg_53) add_53 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v53; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_53; RegisterAction<int<32>, bit<16>, int<32>>(agg_53) add_53 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v53; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v53 = add_53.execute(md.idx);| Computed: hdr.agg.v53 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_54; RegisterAction<int<32>, bit<16>, int<32>>(agg_54) add_54 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v54; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_54; RegisterAction<int<32>, bit<16>, int<32>>(agg_54) add_54 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v54; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v54 = add_54.execute(md.idx);| Computed: hdr.agg.v54 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_55; RegisterAction<int<32>, bit<16>, int<32>>(agg_55) add_55 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v55; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_55; RegisterAction<int<32>, bit<16>, int<32>>(agg_55) add_55 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v55; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v55 = add_55.execute(md.idx);| Computed: hdr.agg.v55 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_56; RegisterAction<int<32>, bit<16>, int<32>>(agg_56) add_56 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v56; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_56; RegisterAction<int<32>, bit<16>, int<32>>(agg_56) add_56 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v56; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v56 = add_56.execute(md.idx);| Computed: hdr.agg.v56 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_57; RegisterAction<int<32>, bit<16>, int<32>>(agg_57) add_57 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v57; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_57; RegisterAction<int<32>, bit<16>, int<32>>(agg_57) add_57 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v57; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v57 = add_57.execute(md.idx);| Computed: hdr.agg.v57 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_58; RegisterAction<int<32>, bit<16>, int<32>>(agg_58) add_58 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v58; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_58; RegisterAction<int<32>, bit<16>, int<32>>(agg_58) add_58 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v58; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v58 = add_58.execute(md.idx);| Computed: hdr.agg.v58 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_59; RegisterAction<int<32>, bit<16>, int<32>>(agg_59) add_59 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v59; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_59; RegisterAction<int<32>, bit<16>, int<32>>(agg_59) add_59 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v59; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v59 = add_59.execute(md.idx);| Computed: hdr.agg.v59 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_60; RegisterAction<int<32>, bit<16>, int<32>>(agg_60) add_60 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v60; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_60; RegisterAction<int<32>, bit<16>, int<32>>(agg_60) add_60 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v60; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v60 = add_60.execute(md.idx);| Computed: hdr.agg.v60 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_61; RegisterAction<int<32>, bit<16>, int<32>>(agg_61) add_61 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v61; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_61; RegisterAction<int<32>, bit<16>, int<32>>(agg_61) add_61 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v61; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v61 = add_61.execute(md.idx);| Computed: hdr.agg.v61 = 2147483647;
    [P4Testgen MethodCall]: *.copy_out("Ingress");
    [P4Testgen MethodCall]: *.copy_in("IgDeparser");
    [Control IgDeparser start]
    [MethodCall]: pkt.emit<ethernet_h>(hdr.ethernet);
    [Emit]: {$headerValid:true;;    dst_addr:140766177733764;  src_addr:0;  ether_type:2048;  }
    [MethodCall]: pkt.emit<ipv4_h>(hdr.ipv4);
    [Emit]: {$headerValid:true;;    version:0;  ihl:0;  dscp:0;  ecn:0;  total_len:0;  identification:0;  flags:0;  frag_offset:0;  ttl:0;  protocol:253;  hdr_checksum:0;  src_addr:0;  dst_addr:0;  }
    [MethodCall]: pkt.emit<agg_h>(hdr.agg);
    [Emit]: {$headerValid:true;;    bitmap:0;  fan_in:0;  flags:0;  app_id:0;  seq:0;  agtr:0;  v0:2147483647;  v1:2147483647;  v2:2147483647;  v3:2147483647;  v4:2147483647;  v5:2147483647;  v6:2147483647;  v7:2147483647;  v8:2147483647;  v9:2147483647;  v10:2147483647;  v11:2147483647;  v12:2147483647;  v13:2147483647;  v14:2147483647;  v15:2147483647;  v16:2147483647;  v17:2147483647;  v18:2147483647;  v19:2147483647;  v20:2147483647;  v21:2147483647;  v22:2147483647;  v23:2147483647;  v24:2147483647;  v25:2147483647;  v26:2147483647;  v27:2147483647;  v28:2147483647;  v29:2147483647;  v30:2147483647;  v31:2147483647;  v32:2147483647;  v33:2147483647;  v34:2147483647;  v35:2147483647;  v36:2147483647;  v37:2147483647;  v38:2147483647;  v39:2147483647;  v40:2147483647;  v41:2147483647;  v42:2147483647;  v43:2147483647;  v44:2147483647;  v45:2147483647;  v46:2147483647;  v47:2147483647;  v48:2147483647;  v49:2147483647;  v50:2147483647;  v51:2147483647;  v52:2147483647;  v53:2147483647;  v54:2147483647;  v55:2147483647;  v56:2147483647;  v57:2147483647;  v58:2147483647;  v59:2147483647;  v60:2147483647;  v61:2147483647;  }
    [P4Testgen MethodCall]: *.copy_out("IgDeparser");
    [P4Testgen AssignmentStatement]: *eg_intr_md.egress_port = 511;
    [P4Testgen MethodCall]: *.prepend_emit_buffer();
    [Prepending the emit buffer to the program packet]
    [P4Testgen MethodCall]: *.check_tofino_drop();
    [Drop packet smaller than 240 for PTF.]: 8904
    [P4Testgen MethodCall]: *.tofino_drop();
    [Packet marked dropped.]
    '''

    def setupCtrlPlane(self):
        self.setRegisterValue('Ingress.counts', 0x00000000, 0)
        self.setRegisterValue('Ingress.agg_0', 0x7689D76F, 0)
        self.setRegisterValue('Ingress.agg_1', 0x2D988CE7, 0)
        self.setRegisterValue('Ingress.agg_2', 0x2D24BCA9, 0)
        self.setRegisterValue('Ingress.agg_3', 0x6F4A9B23, 0)
        self.setRegisterValue('Ingress.agg_4', 0x2B559E16, 0)
        self.setRegisterValue('Ingress.agg_5', 0x5FD25ED7, 0)
        self.setRegisterValue('Ingress.agg_6', 0x7B62FE92, 0)
        self.setRegisterValue('Ingress.agg_7', 0x2B31ABA7, 0)
        self.setRegisterValue('Ingress.agg_8', 0x5C391FF4, 0)
        self.setRegisterValue('Ingress.agg_9', 0x26D42D21, 0)
        self.setRegisterValue('Ingress.agg_10', 0x78591F56, 0)
        self.setRegisterValue('Ingress.agg_11', 0x3558F227, 0)
        self.setRegisterValue('Ingress.agg_12', 0x4A8A54F7, 0)
        self.setRegisterValue('Ingress.agg_13', 0x7D986524, 0)
        self.setRegisterValue('Ingress.agg_14', 0x2CC819A0, 0)
        self.setRegisterValue('Ingress.agg_15', 0x5EB31248, 0)
        self.setRegisterValue('Ingress.agg_16', 0x670DDA74, 0)
        self.setRegisterValue('Ingress.agg_17', 0x4B1CC93F, 0)
        self.setRegisterValue('Ingress.agg_18', 0x4123BDEE, 0)
        self.setRegisterValue('Ingress.agg_19', 0x6EF9E49B, 0)
        self.setRegisterValue('Ingress.agg_20', 0x6AF9A253, 0)
        self.setRegisterValue('Ingress.agg_21', 0x46AB19FD, 0)
        self.setRegisterValue('Ingress.agg_22', 0x3BE261B6, 0)
        self.setRegisterValue('Ingress.agg_23', 0x531F5838, 0)
        self.setRegisterValue('Ingress.agg_24', 0x7047593B, 0)
        self.setRegisterValue('Ingress.agg_25', 0x5CD284EE, 0)
        self.setRegisterValue('Ingress.agg_26', 0x27662669, 0)
        self.setRegisterValue('Ingress.agg_27', 0x788E43D4, 0)
        self.setRegisterValue('Ingress.agg_28', 0x4F179885, 0)
        self.setRegisterValue('Ingress.agg_29', 0x7377F5B1, 0)
        self.setRegisterValue('Ingress.agg_30', 0x6C0CD6DC, 0)
        self.setRegisterValue('Ingress.agg_31', 0x506BCA85, 0)
        self.setRegisterValue('Ingress.agg_32', 0x729E1D1D, 0)
        self.setRegisterValue('Ingress.agg_33', 0x54FDBE59, 0)
        self.setRegisterValue('Ingress.agg_34', 0x75F6DECC, 0)
        self.setRegisterValue('Ingress.agg_35', 0x2C6370A4, 0)
        self.setRegisterValue('Ingress.agg_36', 0x40913BA6, 0)
        self.setRegisterValue('Ingress.agg_37', 0x653856DF, 0)
        self.setRegisterValue('Ingress.agg_38', 0x629BAC92, 0)
        self.setRegisterValue('Ingress.agg_39', 0x295EEF27, 0)
        self.setRegisterValue('Ingress.agg_40', 0x7CFB058B, 0)
        self.setRegisterValue('Ingress.agg_41', 0x5EA92897, 0)
        self.setRegisterValue('Ingress.agg_42', 0x55B235F3, 0)
        self.setRegisterValue('Ingress.agg_43', 0x5E50B7CE, 0)
        self.setRegisterValue('Ingress.agg_44', 0x7F0525D9, 0)
        self.setRegisterValue('Ingress.agg_45', 0x573C76F4, 0)
        self.setRegisterValue('Ingress.agg_46', 0x5478B38B, 0)
        self.setRegisterValue('Ingress.agg_47', 0x5658C368, 0)
        self.setRegisterValue('Ingress.agg_48', 0x68B90D9C, 0)
        self.setRegisterValue('Ingress.agg_49', 0x5A6A4019, 0)
        self.setRegisterValue('Ingress.agg_50', 0x30D8229B, 0)
        self.setRegisterValue('Ingress.agg_51', 0x6A49EB5C, 0)
        self.setRegisterValue('Ingress.agg_52', 0x3672B6F7, 0)
        self.setRegisterValue('Ingress.agg_53', 0x563A8CEA, 0)
        self.setRegisterValue('Ingress.agg_54', 0x4BB0E895, 0)
        self.setRegisterValue('Ingress.agg_55', 0x70F447CA, 0)
        self.setRegisterValue('Ingress.agg_56', 0x7805A259, 0)
        self.setRegisterValue('Ingress.agg_57', 0x744C977C, 0)
        self.setRegisterValue('Ingress.agg_58', 0x2FC7EA4F, 0)
        self.setRegisterValue('Ingress.agg_59', 0x79D0882D, 0)
        self.setRegisterValue('Ingress.agg_60', 0x36A49E77, 0)
        self.setRegisterValue('Ingress.agg_61', 0x2A75E87B, 0)
        # Table Ingress.forward
        self.insertTableEntry(
            'Ingress.forward',
            [
                gc.KeyTuple('hdr.ethernet.dst_addr', 0x8006AE052C84),
            ],
            'Ingress.set_port',
            [
                gc.DataTuple('port', 0x1FF),
            ]
        )

    def sendPacket(self):
        ig_port = 2
        pkt = b'\x80\x06\xAE\x05\x2C\x84\x00\x00\x00\x00\x00\x00\x08\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xFD\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x40\xCD\xA5\xC9\x72\x09\xEE\x33\x75\x50\x1D\x85\x4C\xE9\x9A\xB4\x77\x6A\x91\xE1\x4D\x17\x5D\xE3\x0C\x16\x7D\x32\x6E\x0A\x70\x97\x57\x71\xDC\x0B\x69\xFB\xAE\xC9\x22\x8D\x16\xB6\x55\xCB\x16\x40\x4E\x94\xAE\x43\x77\x4C\x65\xD6\x7D\x5D\x2D\x73\x5C\xBB\x1E\x18\x6B\xB1\x50\xD4\x39\x5D\xC8\xDD\x66\x45\x4B\x8F\x28\xE2\xFA\x65\x5E\xD4\x5C\x5B\x75\x45\x49\xFA\x7B\xF5\x1D\x9F\x73\x6E\x34\x71\x45\x6F\x9B\x12\x4C\x86\xF1\x4B\x74\x33\xE8\xC3\x23\x56\xEC\x72\x46\x15\xB5\xFA\x23\x74\xDB\x0E\x5A\x50\x62\x1C\x6B\x88\x67\x07\x5A\xB9\xD2\xE4\x74\x3A\x37\x3B\x30\xD7\xC2\x13\x70\xC4\x1D\x79\x77\xF9\x7B\x5C\x53\x7E\x7B\xC2\x61\xD6\x4E\x9E\x5D\xB0\x6E\x85\x66\x6B\xCA\xAB\x4A\x44\x3F\x0C\x40\xF6\x51\x0B\x2E\xAF\x3B\x78\x53\xA4\x9C\x3B\x73\x97\x5E\x8C\x62\xA6\x83\x14\x5D\x78\x49\xC2\x5E\x8B\x34\xD0\x2C\xB8\x29\x4B\x6B\x61\xC8\xB3\x42\x21\x73\x1F\x66\x4C\x91\x11\x4D\x8B\x3F\x51\x65\x4D\x0E\x4B\x57\x70\xE6\x9F\x67\x65\x89\xC5\x13\xC9\xB0\xD0\x53\x93\xAB\xBC\x4A\xA7\x8A\xAD\x54\x77\x12\x0E\x61\x77\xE9\xC7\xE2\xCD\x19\x02\x4E\x59\x16\x86\xED\x47\xB0\x94\x21\x5A\x76\x53\x9F\x00\x14\x27\x26\x68\xAA\x9D\xFD\x35\x91\xC5\xD2\x3B\x85\x00\xBC\x1C\x0F\x4D\x25\xF6\x36\x92\xDC\xA8\xB0\xC5\x87\x3F\xE7\xE7\x43\xE1\x47\xC3\x4E\xBA\xC2\x3C\xAD\xCC\xC6\x61\x3A\xC9\xD6\x68\x7B\xA7\x52\xF1\x1C\x39\xE9\x94\x11\x57\x60\x5A\xF5\x9E\xB6\x73\x2D\x71\x0A\x10\x66\xB7\x62\xF3\x11\xBA\x67\xC9\x75\xA6\xDC\x1D\x5F\xFD\xEC\x12\xE4\x08\x82\x9F\x27\x73\x61\x7F\x84\x13\x73\xA9\xD7\x4D\x52\x02\xFC\xC0\x98\xF6\xFF\xC1\xE9\xE1\x9F\x9E\x3C\x6D\x97\x62\x5E\xC0\xB6\xBC\xC1\xE5\x58\xCC\x8C\x5B\x45\xA9\xA0\x45\x19\xFE\x94\xC3\x63\x3D\xDC\x59\x51\x66\xCA\x5A\x9B\xC0\x98\xC0\x3D\xC3\x79\xA5\xD2\xE7\x87\x9F\xA8\xFB\x51\xB0\xB1\x3F\x7C\xE2\x20\x59\x17\x20\x56\x2C\x0A\xB9\xDB\x01\x0D\xA3\x49\x40\x60\xC0\x35\x38\xD2\x92\x2D\x9D\xFC\x59\x07\x2E\xF0\x5C\x7B\x9A\x39\xED\x71\x33\xC4\xA6\xFD\x0F\x2D\x2A\x54\xA7\x07\x89\xD6\x33\x67\x65\xCE\x26\x24\x60\xA9\x5E\x1E\xCE\xB1\x32\x14\xE4\x63\x04\x2B\x23\xA7\x9D\x4C\x72\xAE\xD4\x4B\x23\x31\x8A\xC8\x8A\x71\x18\x4D\xE7\x45\x59\x07\xE2\x14\x82\xCB\x96\x28\x78\x95\x07\xA1\x0F\xDB\xF1\xD0\xF6\x4C\xCA\xDA\xF6\x02\x83\xCF\xC5\xC6\x23\xD4\xD1\xD5\xA9\xEE\x72\x34\x0B\x9B\xC7\x06\x89\x30\x81\xCD\xC3\xF6\xD4\xFD\x0C\xC9\xBF\xF8\x8A\x64\xCB\x80\x6A\x07\xA7\x03\x7E\x39\x27\x4D\xB1\xC4\x35\x71\xF3\x2F\x25\x41\x69\xFF\x92\xB7\x88\x90\x14\x97\x1A\x32\x96\xD8\x3B\x23\xD3\xA0\xB3\x23\x5D\x2E\x42\xCF\x84\xBE\x96\xDC\xBA\x4A\xF4\xDF\x85\x5C\x25\x90\x00\xF3\x9D\x2B\x0F\xC7\x92\xF9\x5F\x19\x90\xDF\x9C\x57\x0D\xA9\x2A\xEF\x95\x9A\x86\x8F\x7D\xD7\xBD\x17\x4C\x86\xAF\x0A\x43\xFA\xDD\xA2\xE9\x13\x25\x20\x36\x2D\x42\x88\xEA\xB7\x6C\xA6\xAD\xC8\x2A\x53\x15\x68\x51\x39\x04\xF5\x3B\xA5\x86\x59\x40\x9B\x21\x49\x8D\x64\x1E\x96\xED\x7D\x49\xAB\xA5\x17\xE7\x43\x44\x7E\x4B\x2A\x4B\xE7\x18\x9E\xBE\xC3\xE8\x99\xB7\x09\x78\x20\x04\x16\x72\xA9\x26\x68\x12\xC7\xFE\x99\x1A\x6D\x05\x1A\x38\xDD\x27\x87\xCA\x0E\x35\xD7\x72\x35\xDE\xE2\x47\xCB\x2D\x6F\x4C\x6A\x30\x19\xBF\x87\xC8\xC4\xA9\x1F\x6C\x40\xFD\x26\x00\x0F\x9F\xC0\x6D\xD2\xC0\x09\x75\x29\x08\xBF\x73\x73\x04\xAE\x8A\x6D\x69\x9C\x25\x50\xD5\xAA\x07\x34\xC8\x87\x4C\x1A\xAF\xBE\x86\x4C\x24\x61\xFC\x2B\x50\xC5\xA1\xF1\x4A\x25\x2B\x18\xB1\x1E\xDB\xC4\x32\x92\xB2\x03\x88\x7D\x85\x39\x69\x6A\xEE\x31\xF5\x38\x3F\x95\xAB\xF1\x85\xC6\x6B\xCD\xB5\x83\x97\xD3\x24\x47\x19\x2D\x42\x1E\xAB\xA7\xB9\xC8\xE0\xCD\xF2\x79\x0F\x2A\x8F\xEA\x2B\x7A\x01\xAF\x45\xE6\x9A\x73\x09\xFF\x7E\x8D\xD4\x60\xE2\xD8\x15\xC5\x75\x08\xD4\x42\xF8\xD1\xE5\x04\xF1\x3C\xDD\x71\xF7\x80\xE0\x5B\x0A\x01\x84\xA5\xA5\x39\xB1\x3C\x0E\x16\x17\xC1\xCB\x3D\x50\x3C\x91\x3F\xCD\x81\x84\x07\xF7\xDF\xFD\x89\xB7\x49\xD7\xE9\xCC\xFD\x98\x8D\xC7\x44\x84\x56\x32\xB6\xC7\x60\xF0\x6A\xAD\xDE\x23\xF0\x65\xF7\x6E\x42\x42\xF1\x8F\x06\x4B\xE9\x75\x0B\x5F\xD7\x6A\xD4\x7C\xD7\xE9\xF9\x6A\x44\xAB\xA3\xC2\x32\x88\xCF\x59\x8E\x07\x02\xDF\x9D\x3A\xC5\x92\x9C\xE0\xCC\x4D\xEA\x71\x86\x20\xFC\x34\x56\xFB\x8B\x86\x48\xC9\xD4\xAF\x6A\x8B\x92\x50\x32\xB1\x65\x6B\x50\x54\xFE\xD8\xA7\xD5\x14\x89\xEF\xE4\xB2\xEF\x7F\x7D\x19\x65\x92\x8D\x86\xAB\x74\x79\xFC\x58\x76\xAA\xED\x63\x4E\x1E\x47\x2F\xAE\xBF\xCC\x65\x86\x50\x81\x17\xA3\x80\x90\x3C\x70\x53\xC0\x25\x91\xCB\x4F\xFF\xC1\x1E\x85\x4D\x65\xAA\xCB\x20\xCC\xC3\x89\x00\x07\x7E\xFF\xEE\xBC\x14\x48\xB8\x67\x2F\x8C\xFF\x47\x80\xEB\x6A\xC1\xF4\x25'
        send_packet(self, ig_port, pkt)

    def verifyPackets(self):
        pass

    def runTest(self):
        self.runTestImpl()


class Test2(AbstractTest):
    # Date generated: 2026-11-28-06:13:37.203
    # Current statement coverage: 1
    '''
    [P4Testgen MethodCall]: *.StartIngress();
    [P4Testgen MethodCall]: *.prepend_to_prog_header(0);
    [PrependToProgramHeader]: 0
    [P4Testgen MethodCall]: *.prepend_to_prog_header(*ig_intr_md);
    [PrependToProgramHeader]: {$headerValid:true;;    resubmit_flag:0;  _pad1:0;  packet_version:0;  _pad2:0;  ingress_port:1;  ingress_mac_tstamp:0;  }
    [P4Testgen MethodCall]: *.copy_in("IgParser");
    [Parser] IgParser
    [State] start
    [MethodCall]: pkt.extract<ingress_intrinsic_metadata_t>(ig_intr_md);
    [ExtractSuccess] ig_intr_md@0 | Condition: |*packetLen_bits(bit<32>)| >= 64; | Extract Size: 64 -> ig_intr_md.resubmit_flag = 0x0 | ig_intr_md._pad1 = 0x0 | ig_intr_md.packet_version = 0x0 | ig_intr_md._pad2 = 0x0 | ig_intr_md.ingress_port = 0x001 | ig_intr_md.ingress_mac_tstamp = Taint
    [MethodCall]: pkt.advance(64);
    [Advance Condition: |*packetLen_bits(bit<32>)| >= 64;]
    [MethodCall]: pkt.extract<ethernet_h>(hdr.ethernet);
    [ExtractSuccess] hdr.ethernet@0 | Condition: |*packetLen_bits(bit<32>)| >= 112; | Extract Size: 112 -> hdr.ethernet.dst_addr = 0x95DF_EBD1_886A | hdr.ethernet.src_addr = 0x0000_0000_0000 | hdr.ethernet.ether_type = 0x0800
    [State] parse_ipv4
    [MethodCall]: pkt.extract<ipv4_h>(hdr.ipv4);
    [ExtractSuccess] hdr.ipv4@112 | Condition: |*packetLen_bits(bit<32>)| >= 272; | Extract Size: 160 -> hdr.ipv4.version = 0x0 | hdr.ipv4.ihl = 0x0 | hdr.ipv4.dscp = 0x00 | hdr.ipv4.ecn = 0x0 | hdr.ipv4.total_len = 0x0000 | hdr.ipv4.identification = 0x0000 | hdr.ipv4.flags = 0x0 | hdr.ipv4.frag_offset = 0x0000 | hdr.ipv4.ttl = 0x00 | hdr.ipv4.protocol = 0xFD | hdr.ipv4.hdr_checksum = 0x0000 | hdr.ipv4.src_addr = 0x0000_0000 | hdr.ipv4.dst_addr = 0x0000_0000
    [State] parse_agg
    [MethodCall]: pkt.extract<agg_h>(hdr.agg);
    [ExtractSuccess] hdr.agg@272 | Condition: |*packetLen_bits(bit<32>)| >= 2352; | Extract Size: 2080 -> hdr.agg.bitmap = 0x0000_0000 | hdr.agg.fan_in = 0x00 | hdr.agg.flags = 0x00 | hdr.agg.app_id = 0x0000 | hdr.agg.seq = 0x0000 | hdr.agg.agtr = 0x0000 | hdr.agg.v0 = 0x5BB3_9EE1 | hdr.agg.v1 = 0x601C_5AA0 | hdr.agg.v2 = 0x546B_6ADE | hdr.agg.v3 = 0x7F09_96E5 | hdr.agg.v4 = 0x49B3_8E25 | hdr.agg.v5 = 0x7346_DE58 | hdr.agg.v6 = 0x5C08_F89F | hdr.agg.v7 = 0x27C6_0D4E | hdr.agg.v8 = 0x5C6B_0605 | hdr.agg.v9 = 0x31E4_3675 | hdr.agg.v10 = 0x23CD_D35C | hdr.agg.v11 = 0x5812_54C3 | hdr.agg.v12 = 0x55A9_5295 | hdr.agg.v13 = 0x2DB9_47D2 | hdr.agg.v14 = 0x49BE_6B4B | hdr.agg.v15 = 0x5562_5A5D | hdr.agg.v16 = 0x5E6F_1743 | hdr.agg.v17 = 0x666F_FAD1 | hdr.agg.v18 = 0x728E_BE93 | hdr.agg.v19 = 0x554B_4CAC | hdr.agg.v20 = 0x73E4_ECBC | hdr.agg.v21 = 0x4688_8B7D | hdr.agg.v22 = 0x54D2_EDAB | hdr.agg.v23 = 0x539F_9DD7 | hdr.agg.v24 = 0x2FA7_0526 | hdr.agg.v25 = 0x6A4D_FBD6 | hdr.agg.v26 = 0x5FA3_7623 | hdr.agg.v27 = 0x7DA5_4A49 | hdr.agg.v28 = 0x67B7_157B | hdr.agg.v29 = 0x6091_10E5 | hdr.agg.v30 = 0x42C9_1A33 | hdr.agg.v31 = 0x51B5_CE59 | hdr.agg.v32 = 0x523F_8D71 | hdr.agg.v33 = 0x36C5_E973 | hdr.agg.v34 = 0x5C4E_5F45 | hdr.agg.v35 = 0x563E_C0D5 | hdr.agg.v36 = 0x57FC_17D3 | hdr.agg.v37 = 0x49A4_D2A2 | hdr.agg.v38 = 0x462B_88BD | hdr.agg.v39 = 0x34E8_1566 | hdr.agg.v40 = 0x617B_DE5A | hdr.agg.v41 = 0x780F_4BB7 | hdr.agg.v42 = 0x72A7_9AB5 | hdr.agg.v43 = 0xA251_CBA1 | hdr.agg.v44 = 0x4845_73D4 | hdr.agg.v45 = 0x67FB_2F5F | hdr.agg.v46 = 0xB57B_AFC2 | hdr.agg.v47 = 0x5497_65F2 | hdr.agg.v48 = 0x46D9_A677 | hdr.agg.v49 = 0xD232_9306 | hdr.agg.v50 = 0x3D28_59BB | hdr.agg.v51 = 0x9B52_5358 | hdr.agg.v52 = 0x5FCF_C2A5 | hdr.agg.v53 = 0x3E4E_E5D7 | hdr.agg.v54 = 0x3971_4792 | hdr.agg.v55 = 0x98D3_B49F | hdr.agg.v56 = 0x7699_635A | hdr.agg.v57 = 0x9679_8F60 | hdr.agg.v58 = 0x6448_C84C | hdr.agg.v59 = 0x679E_F957 | hdr.agg.v60 = 0xB6FC_913D | hdr.agg.v61 = 0xC2C0_C0BC
    [State] accept
    [P4Testgen MethodCall]: *.copy_out("IgParser");
    [P4Testgen MethodCall]: *.copy_in("Ingress");
    [Control Ingress start]
    [MethodCall]: forward_0/forward.apply();
    [Table Branch: Ingress.forward | Key(s): |pktvar_0(bit<48>)|| Chosen action: Ingress.set_port]
    [MethodCall]: set_port(|Ingress.forward_Ingress.set_port_arg_port(bit<9>)|);
    [AssignmentStatement]: action set_port(PortId_t port) { ig_tm_md.ucast_egress_port = port; }| Computed: ig_tm_md.ucast_egress_port = 0;
    [P4Testgen If Statement]: Condition: true; Result: true
    [AssignmentStatement]: md.idx = hdr.agg.agtr & (1024 - 1);| Computed: md.idx = 0;
    [AssignmentStatement]: value = value + 1;| Computed: value = 1;
    [AssignmentStatement]: result = value;| Computed: result = 1;
    [AssignmentStatement]: md.count = count_one.execute(md.idx);| Computed: md.count = 1;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_0; RegisterAction<int<32>, bit<16>, int<32>>(agg_0) add_0 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v0; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_0; RegisterAction<int<32>, bit<16>, int<32>>(agg_0) add_0 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v0; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v0 = add_0.execute(md.idx);| Computed: hdr.agg.v0 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_1; RegisterAction<int<32>, bit<16>, int<32>>(agg_1) add_1 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v1; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_1; RegisterAction<int<32>, bit<16>, int<32>>(agg_1) add_1 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v1; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v1 = add_1.execute(md.idx);| Computed: hdr.agg.v1 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_2; RegisterAction<int<32>, bit<16>, int<32>>(agg_2) add_2 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v2; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_2; RegisterAction<int<32>, bit<16>, int<32>>(agg_2) add_2 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v2; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v2 = add_2.execute(md.idx);| Computed: hdr.agg.v2 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_3; RegisterAction<int<32>, bit<16>, int<32>>(agg_3) add_3 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v3; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_3; RegisterAction<int<32>, bit<16>, int<32>>(agg_3) add_3 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v3; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v3 = add_3.execute(md.idx);| Computed: hdr.agg.v3 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_4; RegisterAction<int<32>, bit<16>, int<32>>(agg_4) add_4 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v4; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_4; RegisterAction<int<32>, bit<16>, int<32>>(agg_4) add_4 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v4; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v4 = add_4.execute(md.idx);| Computed: hdr.agg.v4 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_5; RegisterAction<int<32>, bit<16>, int<32>>(agg_5) add_5 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v5; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_5; RegisterAction<int<32>, bit<16>, int<32>>(agg_5) add_5 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v5; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v5 = add_5.execute(md.idx);| Computed: hdr.agg.v5 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_6; RegisterAction<int<32>, bit<16>, int<32>>(agg_6) add_6 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v6; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_6; RegisterAction<int<32>, bit<16>, int<32>>(agg_6) add_6 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v6; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v6 = add_6.execute(md.idx);| Computed: hdr.agg.v6 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_7; RegisterAction<int<32>, bit<16>, int<32>>(agg_7) add_7 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v7; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_7; RegisterAction<int<32>, bit<16>, int<32>>(agg_7) add_7 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v7; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v7 = add_7.execute(md.idx);| Computed: hdr.agg.v7 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_8; RegisterAction<int<32>, bit<16>, int<32>>(agg_8) add_8 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v8; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_8; RegisterAction<int<32>, bit<16>, int<32>>(agg_8) add_8 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v8; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v8 = add_8.execute(md.idx);| Computed: hdr.agg.v8 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_9; RegisterAction<int<32>, bit<16>, int<32>>(agg_9) add_9 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v9; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_9; RegisterAction<int<32>, bit<16>, int<32>>(agg_9) add_9 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v9; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v9 = add_9.execute(md.idx);| Computed: hdr.agg.v9 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_10; RegisterAction<int<32>, bit<16>, int<32>>(agg_10) add_10 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v10; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_10; RegisterAction<int<32>, bit<16>, int<32>>(agg_10) add_10 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v10; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v10 = add_10.execute(md.idx);| Computed: hdr.agg.v10 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_11; RegisterAction<int<32>, bit<16>, int<32>>(agg_11) add_11 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v11; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_11; RegisterAction<int<32>, bit<16>, int<32>>(agg_11) add_11 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v11; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v11 = add_11.execute(md.idx);| Computed: hdr.agg.v11 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_12; RegisterAction<int<32>, bit<16>, int<32>>(agg_12) add_12 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v12; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_12; RegisterAction<int<32>, bit<16>, int<32>>(agg_12) add_12 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v12; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v12 = add_12.execute(md.idx);| Computed: hdr.agg.v12 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_13; RegisterAction<int<32>, bit<16>, int<32>>(agg_13) add_13 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v13; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_13; RegisterAction<int<32>, bit<16>, int<32>>(agg_13) add_13 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v13; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v13 = add_13.execute(md.idx);| Computed: hdr.agg.v13 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_14; RegisterAction<int<32>, bit<16>, int<32>>(agg_14) add_14 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v14; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_14; RegisterAction<int<32>, bit<16>, int<32>>(agg_14) add_14 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v14; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v14 = add_14.execute(md.idx);| Computed: hdr.agg.v14 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_15; RegisterAction<int<32>, bit<16>, int<32>>(agg_15) add_15 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v15; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_15; RegisterAction<int<32>, bit<16>, int<32>>(agg_15) add_15 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v15; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v15 = add_15.execute(md.idx);| Computed: hdr.agg.v15 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_16; RegisterAction<int<32>, bit<16>, int<32>>(agg_16) add_16 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v16; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_16; RegisterAction<int<32>, bit<16>, int<32>>(agg_16) add_16 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v16; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v16 = add_16.execute(md.idx);| Computed: hdr.agg.v16 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_17; RegisterAction<int<32>, bit<16>, int<32>>(agg_17) add_17 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v17; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_17; RegisterAction<int<32>, bit<16>, int<32>>(agg_17) add_17 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v17; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v17 = add_17.execute(md.idx);| Computed: hdr.agg.v17 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_18; RegisterAction<int<32>, bit<16>, int<32>>(agg_18) add_18 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v18; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_18; RegisterAction<int<32>, bit<16>, int<32>>(agg_18) add_18 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v18; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v18 = add_18.execute(md.idx);| Computed: hdr.agg.v18 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_19; RegisterAction<int<32>, bit<16>, int<32>>(agg_19) add_19 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v19; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_19; RegisterAction<int<32>, bit<16>, int<32>>(agg_19) add_19 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v19; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v19 = add_19.execute(md.idx);| Computed: hdr.agg.v19 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_20; RegisterAction<int<32>, bit<16>, int<32>>(agg_20) add_20 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v20; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_20; RegisterAction<int<32>, bit<16>, int<32>>(agg_20) add_20 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v20; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v20 = add_20.execute(md.idx);| Computed: hdr.agg.v20 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_21; RegisterAction<int<32>, bit<16>, int<32>>(agg_21) add_21 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v21; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_21; RegisterAction<int<32>, bit<16>, int<32>>(agg_21) add_21 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v21; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v21 = add_21.execute(md.idx);| Computed: hdr.agg.v21 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_22; RegisterAction<int<32>, bit<16>, int<32>>(agg_22) add_22 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v22; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_22; RegisterAction<int<32>, bit<16>, int<32>>(agg_22) add_22 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v22; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v22 = add_22.execute(md.idx);| Computed: hdr.agg.v22 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_23; RegisterAction<int<32>, bit<16>, int<32>>(agg_23) add_23 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v23; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_23; RegisterAction<int<32>, bit<16>, int<32>>(agg_23) add_23 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v23; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v23 = add_23.execute(md.idx);| Computed: hdr.agg.v23 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_24; RegisterAction<int<32>, bit<16>, int<32>>(agg_24) add_24 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v24; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_24; RegisterAction<int<32>, bit<16>, int<32>>(agg_24) add_24 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v24; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v24 = add_24.execute(md.idx);| Computed: hdr.agg.v24 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_25; RegisterAction<int<32>, bit<16>, int<32>>(agg_25) add_25 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v25; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_25; RegisterAction<int<32>, bit<16>, int<32>>(agg_25) add_25 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v25; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v25 = add_25.execute(md.idx);| Computed: hdr.agg.v25 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_26; RegisterAction<int<32>, bit<16>, int<32>>(agg_26) add_26 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v26; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_26; RegisterAction<int<32>, bit<16>, int<32>>(agg_26) add_26 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v26; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v26 = add_26.execute(md.idx);| Computed: hdr.agg.v26 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_27; RegisterAction<int<32>, bit<16>, int<32>>(agg_27) add_27 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v27; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_27; RegisterAction<int<32>, bit<16>, int<32>>(agg_27) add_27 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v27; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v27 = add_27.execute(md.idx);| Computed: hdr.agg.v27 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_28; RegisterAction<int<32>, bit<16>, int<32>>(agg_28) add_28 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v28; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_28; RegisterAction<int<32>, bit<16>, int<32>>(agg_28) add_28 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v28; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v28 = add_28.execute(md.idx);| Computed: hdr.agg.v28 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_29; RegisterAction<int<32>, bit<16>, int<32>>(agg_29) add_29 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v29; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_29; RegisterAction<int<32>, bit<16>, int<32>>(agg_29) add_29 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v29; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v29 = add_29.execute(md.idx);| Computed: hdr.agg.v29 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_30; RegisterAction<int<32>, bit<16>, int<32>>(agg_30) add_30 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v30; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_30; RegisterAction<int<32>, bit<16>, int<32>>(agg_30) add_30 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v30; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v30 = add_30.execute(md.idx);| Computed: hdr.agg.v30 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_31; RegisterAction<int<32>, bit<16>, int<32>>(agg_31) add_31 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v31; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_31; RegisterAction<int<32>, bit<16>, int<32>>(agg_31) add_31 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v31; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v31 = add_31.execute(md.idx);| Computed: hdr.agg.v31 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_32; RegisterAction<int<32>, bit<16>, int<32>>(agg_32) add_32 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v32; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_32; RegisterAction<int<32>, bit<16>, int<32>>(agg_32) add_32 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v32; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v32 = add_32.execute(md.idx);| Computed: hdr.agg.v32 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_33; RegisterAction<int<32>, bit<16>, int<32>>(agg_33) add_33 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v33; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_33; RegisterAction<int<32>, bit<16>, int<32>>(agg_33) add_33 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v33; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v33 = add_33.execute(md.idx);| Computed: hdr.agg.v33 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_34; RegisterAction<int<32>, bit<16>, int<32>>(agg_34) add_34 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v34; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_34; RegisterAction<int<32>, bit<16>, int<32>>(agg_34) add_34 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v34; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v34 = add_34.execute(md.idx);| Computed: hdr.agg.v34 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_35; RegisterAction<int<32>, bit<16>, int<32>>(agg_35) add_35 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v35; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_35; RegisterAction<int<32>, bit<16>, int<32>>(agg_35) add_35 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v35; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v35 = add_35.execute(md.idx);| Computed: hdr.agg.v35 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_36; RegisterAction<int<32>, bit<16>, int<32>>(agg_36) add_36 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v36; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_36; RegisterAction<int<32>, bit<16>, int<32>>(agg_36) add_36 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v36; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v36 = add_36.execute(md.idx);| Computed: hdr.agg.v36 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_37; RegisterAction<int<32>, bit<16>, int<32>>(agg_37) add_37 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v37; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_37; RegisterAction<int<32>, bit<16>, int<32>>(agg_37) add_37 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v37; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v37 = add_37.execute(md.idx);| Computed: hdr.agg.v37 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_38; RegisterAction<int<32>, bit<16>, int<32>>(agg_38) add_38 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v38; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_38; RegisterAction<int<32>, bit<16>, int<32>>(agg_38) add_38 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v38; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v38 = add_38.execute(md.idx);| Computed: hdr.agg.v38 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_39; RegisterAction<int<32>, bit<16>, int<32>>(agg_39) add_39 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v39; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_39; RegisterAction<int<32>, bit<16>, int<32>>(agg_39) add_39 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v39; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v39 = add_39.execute(md.idx);| Computed: hdr.agg.v39 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_40; RegisterAction<int<32>, bit<16>, int<32>>(agg_40) add_40 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v40; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_40; RegisterAction<int<32>, bit<16>, int<32>>(agg_40) add_40 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v40; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v40 = add_40.execute(md.idx);| Computed: hdr.agg.v40 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_41; RegisterAction<int<32>, bit<16>, int<32>>(agg_41) add_41 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v41; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_41; RegisterAction<int<32>, bit<16>, int<32>>(agg_41) add_41 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v41; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v41 = add_41.execute(md.idx);| Computed: hdr.agg.v41 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_42; RegisterAction<int<32>, bit<16>, int<32>>(agg_42) add_42 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v42; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_42; RegisterAction<int<32>, bit<16>, int<32>>(agg_42) add_42 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v42; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v42 = add_42.execute(md.idx);| Computed: hdr.agg.v42 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_43; RegisterAction<int<32>, bit<16>, int<32>>(agg_43) add_43 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v43; result = value; } };| Computed: value = -2147483648;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_43; RegisterAction<int<32>, bit<16>, int<32>>(agg_43) add_43 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v43; result = value; } };| Computed: result = -2147483648;
    [AssignmentStatement]: hdr.agg.v43 = add_43.execute(md.idx);| Computed: hdr.agg.v43 = -2147483648;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_44; RegisterAction<int<32>, bit<16>, int<32>>(agg_44) add_44 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v44; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_44; RegisterAction<int<32>, bit<16>, int<32>>(agg_44) add_44 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v44; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v44 = add_44.execute(md.idx);| Computed: hdr.agg.v44 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_45; RegisterAction<int<32>, bit<16>, int<32>>(agg_45) add_45 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v45; result = value; } };| Computed: value = 460643757;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_45; RegisterAction<int<32>, bit<16>, int<32>>(agg_45) add_45 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v45; result = value; } };| Computed: result = 460643757;
    [AssignmentStatement]: hdr.agg.v45 = add_45.execute(md.idx);| Computed: hdr.agg.v45 = 460643757;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_46; RegisterAction<int<32>, bit<16>, int<32>>(agg_46) add_46 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v46; result = value; } };| Computed: value = -2147483648;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_46; RegisterAction<int<32>, bit<16>, int<32>>(agg_46) add_46 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v46; result = value; } };| Computed: result = -2147483648;
    [AssignmentStatement]: hdr.agg.v46 = add_46.execute(md.idx);| Computed: hdr.agg.v46 = -2147483648;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_47; RegisterAction<int<32>, bit<16>, int<32>>(agg_47) add_47 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v47; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_47; RegisterAction<int<32>, bit<16>, int<32>>(agg_47) add_47 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v47; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v47 = add_47.execute(md.idx);| Computed: hdr.agg.v47 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_48; RegisterAction<int<32>, bit<16>, int<32>>(agg_48) add_48 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v48; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_48; RegisterAction<int<32>, bit<16>, int<32>>(agg_48) add_48 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v48; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v48 = add_48.execute(md.idx);| Computed: hdr.agg.v48 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_49; RegisterAction<int<32>, bit<16>, int<32>>(agg_49) add_49 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v49; result = value; } };| Computed: value = 1256747270;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_49; RegisterAction<int<32>, bit<16>, int<32>>(agg_49) add_49 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v49; result = value; } };| Computed: result = 1256747270;
    [AssignmentStatement]: hdr.agg.v49 = add_49.execute(md.idx);| Computed: hdr.agg.v49 = 1256747270;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_50; RegisterAction<int<32>, bit<16>, int<32>>(agg_50) add_50 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v50; result = value; } };| Computed: value = 1553606990;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_50; RegisterAction<int<32>, bit<16>, int<32>>(agg_50) add_50 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v50; result = value; } };| Computed: result = 1553606990;
    [AssignmentStatement]: hdr.agg.v50 = add_50.execute(md.idx);| Computed: hdr.agg.v50 = 1553606990;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_51; RegisterAction<int<32>, bit<16>, int<32>>(agg_51) add_51 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v51; result = value; } };| Computed: value = -2147483648;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_51; RegisterAction<int<32>, bit<16>, int<32>>(agg_51) add_51 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v51; result = value; } };| Computed: result = -2147483648;
    [AssignmentStatement]: hdr.agg.v51 = add_51.execute(md.idx);| Computed: hdr.agg.v51 = -2147483648;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_52; RegisterAction<int<32>, bit<16>, int<32>>(agg_52) add_52 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v52; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_52; RegisterAction<int<32>, bit<16>, int<32>>(agg_52) add_52 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v52; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v52 = add_52.execute(md.idx);| Computed: hdr.agg.v52 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_53; RegisterAction<int<32>, bit<16>, int<32>>(agg_53) add_53 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v53; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_53; RegisterAction<int<32>, bit<16>, int<32>>(agg_53) add_53 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v53; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v53 = add_53.execute(md.idx);| Computed: hdr.agg.v53 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_54; RegisterAction<int<32>, bit<16>, int<32>>(agg_54) add_54 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v54; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_54; RegisterAction<int<32>, bit<16>, int<32>>(agg_54) add_54 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v54; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v54 = add_54.execute(md.idx);| Computed: hdr.agg.v54 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_55; RegisterAction<int<32>, bit<16>, int<32>>(agg_55) add_55 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v55; result = value; } };| Computed: value = 143231127;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_55; RegisterAction<int<32>, bit<16>, int<32>>(agg_55) add_55 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v55; result = value; } };| Computed: result = 143231127;
    [AssignmentStatement]: hdr.agg.v55 = add_55.execute(md.idx);| Computed: hdr.agg.v55 = 143231127;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_56; RegisterAction<int<32>, bit<16>, int<32>>(agg_56) add_56 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v56; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_56; RegisterAction<int<32>, bit<16>, int<32>>(agg_56) add_56 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v56; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v56 = add_56.execute(md.idx);| Computed: hdr.agg.v56 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_57; RegisterAction<int<32>, bit<16>, int<32>>(agg_57) add_57 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v57; result = value; } };| Computed: value = -2147483648;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_57; RegisterAction<int<32>, bit<16>, int<32>>(agg_57) add_57 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v57; result = value; } };| Computed: result = -2147483648;
    [AssignmentStatement]: hdr.agg.v57 = add_57.execute(md.idx);| Computed: hdr.agg.v57 = -2147483648;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_58; RegisterAction<int<32>, bit<16>, int<32>>(agg_58) add_58 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v58; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_58; RegisterAction<int<32>, bit<16>, int<32>>(agg_58) add_58 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v58; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v58 = add_58.execute(md.idx);| Computed: hdr.agg.v58 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_59; RegisterAction<int<32>, bit<16>, int<32>>(agg_59) add_59 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v59; result = value; } };| Computed: value = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_59; RegisterAction<int<32>, bit<16>, int<32>>(agg_59) add_59 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v59; result = value; } };| Computed: result = 2147483647;
    [AssignmentStatement]: hdr.agg.v59 = add_59.execute(md.idx);| Computed: hdr.agg.v59 = 2147483647;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_60; RegisterAction<int<32>, bit<16>, int<32>>(agg_60) add_60 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v60; result = value; } };| Computed: value = -773685084;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_60; RegisterAction<int<32>, bit<16>, int<32>>(agg_60) add_60 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v60; result = value; } };| Computed: result = -773685084;
    [AssignmentStatement]: hdr.agg.v60 = add_60.execute(md.idx);| Computed: hdr.agg.v60 = -773685084;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_61; RegisterAction<int<32>, bit<16>, int<32>>(agg_61) add_61 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v61; result = value; } };| Computed: value = -2147483648;
    [AssignmentStatement]: Register<int<32>, bit<16>>(1024) agg_61; RegisterAction<int<32>, bit<16>, int<32>>(agg_61) add_61 = { void apply(inout int<32> value, out int<32> result) { value = value |+| hdr.agg.v61; result = value; } };| Computed: result = -2147483648;
    [AssignmentStatement]: hdr.agg.v61 = add_61.execute(md.idx);| Computed: hdr.agg.v61 = -2147483648;
    [P4Testgen MethodCall]: *.copy_out("Ingress");
    [P4Testgen MethodCall]: *.copy_in("IgDeparser");
    [Control IgDeparser start]
    [MethodCall]: pkt.emit<ethernet_h>(hdr.ethernet);
    [Emit]: {$headerValid:true;;    dst_addr:164788966623338;  src_addr:0;  ether_type:2048;  }
    [MethodCall]: pkt.emit<ipv4_h>(hdr.ipv4);
    [Emit]: {$headerValid:true;;    version:0;  ihl:0;  dscp:0;  ecn:0;  total_len:0;  identification:0;  flags:0;  frag_offset:0;  ttl:0;  protocol:253;  hdr_checksum:0;  src_addr:0;  dst_addr:0;  }
    [MethodCall]: pkt.emit<agg_h>(hdr.agg);
    [Emit]: {$headerValid:true;;    bitmap:0;  fan_in:0;  flags:0;  app_id:0;  seq:0;  agtr:0;  v0:2147483647;  v1:2147483647;  v2:2147483647;  v3:2147483647;  v4:2147483647;  v5:2147483647;  v6:2147483647;  v7:2147483647;  v8:2147483647;  v9:2147483647;  v10:2147483647;  v11:2147483647;  v12:2147483647;  v13:2147483647;  v14:2147483647;  v15:2147483647;  v16:2147483647;  v17:2147483647;  v18:2147483647;  v19:2147483647;  v20:2147483647;  v21:2147483647;  v22:2147483647;  v23:2147483647;  v24:2147483647;  v25:2147483647;  v26:2147483647;  v27:2147483647;  v28:2147483647;  v29:2147483647;  v30:2147483647;  v31:2147483647;  v32:2147483647;  v33:2147483647;  v34:2147483647;  v35:2147483647;  v36:2147483647;  v37:2147483647;  v38:2147483647;  v39:2147483647;  v40:2147483647;  v41:2147483647;  v42:2147483647;  v43:-2147483648;  v44:2147483647;  v45:460643757;  v46:-2147483648;  v47:2147483647;  v48:2147483647;  v49:1256747270;  v50:1553606990;  v51:-2147483648;  v52:2147483647;  v53:2147483647;  v54:2147483647;  v55:143231127;  v56:2147483647;  v57:-2147483648;  v58:2147483647;  v59:2147483647;  v60:-773685084;  v61:-2147483648;  }
    [P4Testgen MethodCall]: *.copy_out("IgDeparser");
    [P4Testgen AssignmentStatement]: *eg_intr_md.egress_port = 0;
    [P4Testgen MethodCall]: *.prepend_emit_buffer();
    [Prepending the emit buffer to the program packet]
    [P4Testgen MethodCall]: *.check_tofino_drop();
    [P4Testgen If Statement]: Condition: true && (false || 0 <= |Ingress.forward_Ingress.set_port_arg_port(bit<9>)| && |Ingress.forward_Ingress.set_port_arg_port(bit<9>)| <= 7) && 1 == 0; Result: false
    [P4Testgen MethodCall]: *.StartEgress();
    [P4Testgen MethodCall]: *.prepend_to_prog_header(*eg_intr_md);
    [PrependToProgramHeader]: {$headerValid:true;;    _pad0:0;  egress_port:0;  }
    [P4Testgen MethodCall]: *.copy_in("EgParser");
    [Parser] EgParser
    [State] start
    [MethodCall]: pkt.extract<egress_intrinsic_metadata_t>(eg_intr_md);
    [ExtractSuccess] eg_intr_md@2352 | Condition: |*packetLen_bits(bit<32>)| >= 2368; | Extract Size: 16 -> eg_intr_md._pad0 = 0x00 | eg_intr_md.egress_port = 0x000
    [State] accept
    [P4Testgen MethodCall]: *.copy_out("EgParser");
    [P4Testgen MethodCall]: *.copy_in("Egress");
    [Control Egress start]
    [P4Testgen MethodCall]: *.copy_out("Egress");
    [P4Testgen MethodCall]: *.copy_in("EgDeparser");
    [Control EgDeparser start]
    [P4Testgen MethodCall]: *.copy_out("EgDeparser");
    [P4Testgen MethodCall]: *.prepend_emit_buffer();
    [Prepending the emit buffer to the program packet]
    [P4Testgen MethodCall]: *.check_tofino_drop();
    '''

    def setupCtrlPlane(self):
        self.setRegisterValue('Ingress.counts', 0x00000000, 0)
        self.setRegisterValue('Ingress.agg_0', 0x4F4FEF48, 0)
        self.setRegisterValue('Ingress.agg_1', 0x661A1E2D, 0)
        self.setRegisterValue('Ingress.agg_2', 0x47276250, 0)
        self.setRegisterValue('Ingress.agg_3', 0x4971B252, 0)
        self.setRegisterValue('Ingress.agg_4', 0x5A57A38F, 0)
        self.setRegisterValue('Ingress.agg_5', 0x47B4D59F, 0)
        self.setRegisterValue('Ingress.agg_6', 0x5EFFC939, 0)
        self.setRegisterValue('Ingress.agg_7', 0x61FF7C72, 0)
        self.setRegisterValue('Ingress.agg_8', 0x6C6F3A59, 0)
        self.setRegisterValue('Ingress.agg_9', 0x70D65AF4, 0)
        self.setRegisterValue('Ingress.agg_10', 0x6F285659, 0)
        self.setRegisterValue('Ingress.agg_11', 0x5D76D41A, 0)
        self.setRegisterValue('Ingress.agg_12', 0x7C477C97, 0)
        self.setRegisterValue('Ingress.agg_13', 0x678BDC37, 0)
        self.setRegisterValue('Ingress.agg_14', 0x72B8BB31, 0)
        self.setRegisterValue('Ingress.agg_15', 0x6A2A5947, 0)
        self.setRegisterValue('Ingress.agg_16', 0x2F52B2DB, 0)
        self.setRegisterValue('Ingress.agg_17', 0x206F3481, 0)
        self.setRegisterValue('Ingress.agg_18', 0x334229A2, 0)
        self.setRegisterValue('Ingress.agg_19', 0x57CE6CAB, 0)
        self.setRegisterValue('Ingress.agg_20', 0x62C8228F, 0)
        self.setRegisterValue('Ingress.agg_21', 0x40488461, 0)
        self.setRegisterValue('Ingress.agg_22', 0x60F620EA, 0)
        self.setRegisterValue('Ingress.agg_23', 0x464BAF4A, 0)
        self.setRegisterValue('Ingress.agg_24', 0x694A9D19, 0)
        self.setRegisterValue('Ingress.agg_25', 0x3CD5C971, 0)
        self.setRegisterValue('Ingress.agg_26', 0x3EB71CF9, 0)
        self.setRegisterValue('Ingress.agg_27', 0x6FEF4F53, 0)
        self.setRegisterValue('Ingress.agg_28', 0x39C25AE5, 0)
        self.setRegisterValue('Ingress.agg_29', 0x5E88BE5A, 0)
        self.setRegisterValue('Ingress.agg_30', 0x655CF637, 0)
        self.setRegisterValue('Ingress.agg_31', 0x52FF18AD, 0)
        self.setRegisterValue('Ingress.agg_32', 0x604F8993, 0)
        self.setRegisterValue('Ingress.agg_33', 0x7ECE0927, 0)
        self.setRegisterValue('Ingress.agg_34', 0x4855CB7A, 0)
        self.setRegisterValue('Ingress.agg_35', 0x556748C7, 0)
        self.setRegisterValue('Ingress.agg_36', 0x43874FF3, 0)
        self.setRegisterValue('Ingress.agg_37', 0x69755E78, 0)
        self.setRegisterValue('Ingress.agg_38', 0x5362FFAB, 0)
        self.setRegisterValue('Ingress.agg_39', 0x7635D975, 0)
        self.setRegisterValue('Ingress.agg_40', 0x5512CA65, 0)
        self.setRegisterValue('Ingress.agg_41', 0x50566CE7, 0)
        self.setRegisterValue('Ingress.agg_42', 0x368DE6A7, 0)
        self.setRegisterValue('Ingress.agg_43', 0xB8CB7371, 0)
        self.setRegisterValue('Ingress.agg_44', 0x435652BE, 0)
        self.setRegisterValue('Ingress.agg_45', 0xB379AE4E, 0)
        self.setRegisterValue('Ingress.agg_46', 0x925D161B, 0)
        self.setRegisterValue('Ingress.agg_47', 0x75773DEB, 0)
        self.setRegisterValue('Ingress.agg_48', 0x626164A4, 0)
        self.setRegisterValue('Ingress.agg_49', 0x78B5DE00, 0)
        self.setRegisterValue('Ingress.agg_50', 0x1F71CF93, 0)
        self.setRegisterValue('Ingress.agg_51', 0x84515636, 0)
        self.setRegisterValue('Ingress.agg_52', 0x5E8DEDCF, 0)
        self.setRegisterValue('Ingress.agg_53', 0x568C4D76, 0)
        self.setRegisterValue('Ingress.agg_54', 0x6A1EE152, 0)
        self.setRegisterValue('Ingress.agg_55', 0x6FB5D3F8, 0)
        self.setRegisterValue('Ingress.agg_56', 0x3C7A5988, 0)
        self.setRegisterValue('Ingress.agg_57', 0xCAA5CE53, 0)
        self.setRegisterValue('Ingress.agg_58', 0x61B8EBAF, 0)
        self.setRegisterValue('Ingress.agg_59', 0x5154E9C1, 0)
        self.setRegisterValue('Ingress.agg_60', 0x1AE5EF67, 0)
        self.setRegisterValue('Ingress.agg_61', 0xA7319F16, 0)
        # Table Ingress.forward
        self.insertTableEntry(
            'Ingress.forward',
            [
                gc.KeyTuple('hdr.ethernet.dst_addr', 0x95DFEBD1886A),
            ],
            'Ingress.set_port',
            [
                gc.DataTuple('port', 0x000),
            ]
        )

    def sendPacket(self):
        ig_port = 1
        pkt = b'\x95\xDF\xEB\xD1\x88\x6A\x00\x00\x00\x00\x00\x00\x08\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xFD\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x5B\xB3\x9E\xE1\x60\x1C\x5A\xA0\x54\x6B\x6A\xDE\x7F\x09\x96\xE5\x49\xB3\x8E\x25\x73\x46\xDE\x58\x5C\x08\xF8\x9F\x27\xC6\x0D\x4E\x5C\x6B\x06\x05\x31\xE4\x36\x75\x23\xCD\xD3\x5C\x58\x12\x54\xC3\x55\xA9\x52\x95\x2D\xB9\x47\xD2\x49\xBE\x6B\x4B\x55\x62\x5A\x5D\x5E\x6F\x17\x43\x66\x6F\xFA\xD1\x72\x8E\xBE\x93\x55\x4B\x4C\xAC\x73\xE4\xEC\xBC\x46\x88\x8B\x7D\x54\xD2\xED\xAB\x53\x9F\x9D\xD7\x2F\xA7\x05\x26\x6A\x4D\xFB\xD6\x5F\xA3\x76\x23\x7D\xA5\x4A\x49\x67\xB7\x15\x7B\x60\x91\x10\xE5\x42\xC9\x1A\x33\x51\xB5\xCE\x59\x52\x3F\x8D\x71\x36\xC5\xE9\x73\x5C\x4E\x5F\x45\x56\x3E\xC0\xD5\x57\xFC\x17\xD3\x49\xA4\xD2\xA2\x46\x2B\x88\xBD\x34\xE8\x15\x66\x61\x7B\xDE\x5A\x78\x0F\x4B\xB7\x72\xA7\x9A\xB5\xA2\x51\xCB\xA1\x48\x45\x73\xD4\x67\xFB\x2F\x5F\xB5\x7B\xAF\xC2\x54\x97\x65\xF2\x46\xD9\xA6\x77\xD2\x32\x93\x06\x3D\x28\x59\xBB\x9B\x52\x53\x58\x5F\xCF\xC2\xA5\x3E\x4E\xE5\xD7\x39\x71\x47\x92\x98\xD3\xB4\x9F\x76\x99\x63\x5A\x96\x79\x8F\x60\x64\x48\xC8\x4C\x67\x9E\xF9\x57\xB6\xFC\x91\x3D\xC2\xC0\xC0\xBC\x6D\x8E\x65\xC2\x9C\x6D\x85\x20\xFD\xBF\x43\x5D\x20\xC0\x7A\xBF\x36\xDD\x11\x14\x30\x6D\x49\xF6\x53\x63\x4A\xD5\xD4\x9C\xEA\x2A\x82\xCE\x9E\x72\x21\xB7\xA6\xF9\xDD\x3B\xA4\x33\xB5\x4A\x2D\xB6\x23\xCC\xF6\x43\x4B\xD0\x20\x70\x3F\x04\xC6\x11\x9D\x5E\x2A\xF9\x80\x8F\x9F\xAD\x2E\x6A\xFD\x3B\xCE\xF8\x37\x6D\x42\x91\xEF\xE3\x74\x95\xF4\x51\xC3\x17\x70\x3E\x2D\x47\x78\x94\xEA\x3B\xCE\xAF\x9C\x1F\xC9\xD2\x90\x47\x3F\xE7\x57\xD7\x8F\x56\x2D\xF7\xB9\x15\xCE\x8D\x85\xBD\xA8\x3B\x54\x85\xCD\x89\xF0\xD5\x2F\x49\xE9\x69\x71\xDC\x2A\xCA\xB1\x1A\x25\x88\xDB\x3F\x07\xB0\x4D\x82\x82\xED\x28\x07\x3F\x18\x15\x1B\x7C\x4A\xF8\x06\xB5\xC3\x65\x65\x74\xC9\xA4\x05\x16\xDD\x45\x2C\x1A\x6F\x35\x1F\xD0\x38\xC7\x84\xD4\x21\xC2\xB6\x26\x7C\x89\x0C\x9F\x33\xFB'
        send_packet(self, ig_port, pkt)

    def verifyPackets(self):
        eg_port = 0
        exp_pkt = b'\x95\xDF\xEB\xD1\x88\x6A\x00\x00\x00\x00\x00\x00\x08\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xFD\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x80\x00\x00\x00\x7F\xFF\xFF\xFF\x1B\x74\xDD\xAD\x80\x00\x00\x00\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x4A\xE8\x71\x06\x5C\x9A\x29\x4E\x80\x00\x00\x00\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\x08\x89\x88\x97\x7F\xFF\xFF\xFF\x80\x00\x00\x00\x7F\xFF\xFF\xFF\x7F\xFF\xFF\xFF\xD1\xE2\x80\xA4\x80\x00\x00\x00\x6D\x8E\x65\xC2\x9C\x6D\x85\x20\xFD\xBF\x43\x5D\x20\xC0\x7A\xBF\x36\xDD\x11\x14\x30\x6D\x49\xF6\x53\x63\x4A\xD5\xD4\x9C\xEA\x2A\x82\xCE\x9E\x72\x21\xB7\xA6\xF9\xDD\x3B\xA4\x33\xB5\x4A\x2D\xB6\x23\xCC\xF6\x43\x4B\xD0\x20\x70\x3F\x04\xC6\x11\x9D\x5E\x2A\xF9\x80\x8F\x9F\xAD\x2E\x6A\xFD\x3B\xCE\xF8\x37\x6D\x42\x91\xEF\xE3\x74\x95\xF4\x51\xC3\x17\x70\x3E\x2D\x47\x78\x94\xEA\x3B\xCE\xAF\x9C\x1F\xC9\xD2\x90\x47\x3F\xE7\x57\xD7\x8F\x56\x2D\xF7\xB9\x15\xCE\x8D\x85\xBD\xA8\x3B\x54\x85\xCD\x89\xF0\xD5\x2F\x49\xE9\x69\x71\xDC\x2A\xCA\xB1\x1A\x25\x88\xDB\x3F\x07\xB0\x4D\x82\x82\xED\x28\x07\x3F\x18\x15\x1B\x7C\x4A\xF8\x06\xB5\xC3\x65\x65\x74\xC9\xA4\x05\x16\xDD\x45\x2C\x1A\x6F\x35\x1F\xD0\x38\xC7\x84\xD4\x21\xC2\xB6\x26\x7C\x89\x0C\x9F\x33\xFB'
        exp_pkt = Mask(exp_pkt)
        verify_packet(self, exp_pkt, eg_port)

    def runTest(self):
        self.runTestImpl()

