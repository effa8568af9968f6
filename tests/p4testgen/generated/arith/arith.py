# PTF test for arith
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

logger = logging.getLogger('arith')
logger.addHandler(logging.StreamHandler())

class AbstractTest(BfRuntimeTest):
    def setUp(self):
        BfRuntimeTest.setUp(self, 0, 'arith')
        self.dev_id = 0
        self.table_entries = []
        self.bfrt_info = None
        # Get bfrt_info and set it as part of the test.
        self.bfrt_info = self.interface.bfrt_info_get('arith')

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
    # Date generated: 2026-11-28-06:13:42.855
    # Current statement coverage: 1
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
    [ExtractSuccess] hdr.ethernet@0 | Condition: |*packetLen_bits(bit<32>)| >= 112; | Extract Size: 112 -> hdr.ethernet.dst_addr = 0x0000_0000_0000 | hdr.ethernet.src_addr = 0x0000_0000_0000 | hdr.ethernet.ether_type = 0x0000
    [MethodCall]: pkt.extract<in_h>(hdr.i);
    [ExtractSuccess] hdr.i@112 | Condition: |*packetLen_bits(bit<32>)| >= 216; | Extract Size: 104 -> hdr.i.a8 = 0x80 | hdr.i.b8 = 0x91 | hdr.i.a = 0xA96F_81DB | hdr.i.b = 0xB800_0000 | hdr.i.sa = 0x7C | hdr.i.sb = 0x08 | hdr.i.sh = 0x00
    [State] accept
    [P4Testgen MethodCall]: *.copy_out("IgParser");
    [P4Testgen MethodCall]: *.copy_in("Ingress");
    [Control Ingress start]
    [AssignmentStatement]: ig_tm_md.ucast_egress_port = 1;| Computed: ig_tm_md.ucast_egress_port = 1;
    [MethodCall]: hdr.o.setValid();
    [AssignmentStatement]: hdr.o.add8 = hdr.i.a8 + hdr.i.b8;| Computed: hdr.o.add8 = 17;
    [AssignmentStatement]: hdr.o.sub8 = hdr.i.a8 - hdr.i.b8;| Computed: hdr.o.sub8 = 239;
    [AssignmentStatement]: hdr.o.mul8 = hdr.i.a8 * hdr.i.b8;| Computed: hdr.o.mul8 = 128;
    [AssignmentStatement]: hdr.o.sadd8 = hdr.i.a8 |+| hdr.i.b8;| Computed: hdr.o.sadd8 = 255;
    [AssignmentStatement]: hdr.o.ssub8 = hdr.i.a8 |-| hdr.i.b8;| Computed: hdr.o.ssub8 = 0;
    [AssignmentStatement]: hdr.o.add32 = hdr.i.a + hdr.i.b;| Computed: hdr.o.add32 = 1634697691;
    [AssignmentStatement]: hdr.o.sub32 = hdr.i.a - hdr.i.b;| Computed: hdr.o.sub32 = 4050616795;
    [AssignmentStatement]: hdr.o.sadd32 = hdr.i.a |+| hdr.i.b;| Computed: hdr.o.sadd32 = 4294967295;
    [AssignmentStatement]: hdr.o.ssub32 = hdr.i.a |-| hdr.i.b;| Computed: hdr.o.ssub32 = 0;
    [AssignmentStatement]: hdr.o.iadd = hdr.i.sa + hdr.i.sb;| Computed: hdr.o.iadd = -124;
    [AssignmentStatement]: hdr.o.isub = hdr.i.sa - hdr.i.sb;| Computed: hdr.o.isub = 116;
    [AssignmentStatement]: hdr.o.imul = hdr.i.sa * hdr.i.sb;| Computed: hdr.o.imul = -32;
    [AssignmentStatement]: hdr.o.isadd = hdr.i.sa |+| hdr.i.sb;| Computed: hdr.o.isadd = 127;
    [AssignmentStatement]: hdr.o.issub = hdr.i.sa |-| hdr.i.sb;| Computed: hdr.o.issub = 116;
    [AssignmentStatement]: hdr.o.ineg = -hdr.i.sa;| Computed: hdr.o.ineg = -124;
    [AssignmentStatement]: hdr.o.shl8 = hdr.i.a8 << hdr.i.sh;| Computed: hdr.o.shl8 = 128;
    [AssignmentStatement]: hdr.o.shr8 = hdr.i.a8 >> hdr.i.sh;| Computed: hdr.o.shr8 = 128;
    [AssignmentStatement]: hdr.o.ishr = hdr.i.sa >> hdr.i.sh;| Computed: hdr.o.ishr = 124;
    [AssignmentStatement]: hdr.o.ishl = hdr.i.sa << 3;| Computed: hdr.o.ishl = -32;
    [AssignmentStatement]: hdr.o.cat = hdr.i.a8 ++ hdr.i.b8;| Computed: hdr.o.cat = 32913;
    [AssignmentStatement]: hdr.o.hi4 = hdr.i.a8[7:4];| Computed: hdr.o.hi4 = 8;
    [AssignmentStatement]: hdr.o.lo4 = hdr.i.b8[3:0];| Computed: hdr.o.lo4 = 1;
    [AssignmentStatement]: hdr.o.mid = (bit<32>)hdr.i.a[23:8];| Computed: hdr.o.mid = 28545;
    [AssignmentStatement]: hdr.o.sext = (int<32>)hdr.i.sa;| Computed: hdr.o.sext = 124;
    [AssignmentStatement]: hdr.o.s2u = (bit<8>)hdr.i.sa;| Computed: hdr.o.s2u = 124;
    [AssignmentStatement]: hdr.o.u2s = (int<8>)hdr.i.a8;| Computed: hdr.o.u2s = -128;
    [AssignmentStatement]: hdr.o.widen = (bit<16>)hdr.i.a8;| Computed: hdr.o.widen = 128;
    [AssignmentStatement]: hdr.o.trunc = (bit<8>)hdr.i.a;| Computed: hdr.o.trunc = 219;
    [AssignmentStatement]: hdr.o.catsigned = hdr.i.sa ++ hdr.i.b8;| Computed: hdr.o.catsigned = 31889;
    [AssignmentStatement]: hdr.o.cmp = (bit<1>)(hdr.i.a8 < hdr.i.b8) ++ (bit<1>)(hdr.i.sa < hdr.i.sb) ++| Computed: hdr.o.cmp = 133;
    [AssignmentStatement]: hdr.o.notv = ~hdr.i.a8;| Computed: hdr.o.notv = 127;
    [AssignmentStatement]: hdr.o.andv = hdr.i.a8 & hdr.i.b8;| Computed: hdr.o.andv = 128;
    [AssignmentStatement]: hdr.o.orv = hdr.i.a8 | hdr.i.b8;| Computed: hdr.o.orv = 145;
    [AssignmentStatement]: hdr.o.xorv = hdr.i.a8 ^ hdr.i.b8;| Computed: hdr.o.xorv = 17;
    [AssignmentStatement]: bit<32> x = hdr.i.a;| Computed: x_0/x = 2842657243;
    [AssignmentStatement]: x[15:8] = hdr.i.b8;| Computed: x_0/x = 2842661339;
    [AssignmentStatement]: x[31:28] = 4w0xA;| Computed: x_0/x = 2842661339;
    [AssignmentStatement]: hdr.o.sliced = x;| Computed: hdr.o.sliced = 2842661339;
    [If Statement]: hdr.i.a8 > hdr.i.b8 Condition: |pktvar_3(bit<8>)| > |pktvar_4(bit<8>)|; Result: false
    [AssignmentStatement]: hdr.o.pick = hdr.i.a8 > hdr.i.b8 ? hdr.i.a8 : hdr.i.b8;| Computed: tmp = 145;
    [AssignmentStatement]: hdr.o.pick = hdr.i.a8 > hdr.i.b8 ? hdr.i.a8 : hdr.i.b8;| Computed: hdr.o.pick = 145;
    [If Statement]: p Condition: |pktvar_3(bit<8>)| > 100 && |pktvar_4(bit<8>)| <= 100 || |pktvar_9(bit<8>)| == 0; Result: true
    [AssignmentStatement]: hdr.o.logic = p ? 8w1 : 8w0;| Computed: tmp_0 = 1;
    [AssignmentStatement]: hdr.o.logic = p ? 8w1 : 8w0;| Computed: hdr.o.logic = 1;
    [P4Testgen MethodCall]: *.copy_out("Ingress");
    [P4Testgen MethodCall]: *.copy_in("IgDeparser");
    [Control IgDeparser start]
    [MethodCall]: pkt.emit<ethernet_h>(hdr.ethernet);
    [Emit]: {$headerValid:true;;    dst_addr:0;  src_addr:0;  ether_type:0;  }
    [MethodCall]: pkt.emit<in_h>(hdr.i);
    [Emit]: {$headerValid:true;;    a8:128;  b8:145;  a:2842657243;  b:3087007744;  sa:124;  sb:8;  sh:0;  }
    [MethodCall]: pkt.emit<out_h>(hdr.o);
    [Emit]: {$headerValid:true;;    add8:17;  sub8:239;  mul8:128;  sadd8:255;  ssub8:0;  add32:1634697691;  sub32:4050616795;  sadd32:4294967295;  ssub32:0;  iadd:-124;  isub:116;  imul:-32;  isadd:127;  issub:116;  ineg:-124;  shl8:128;  shr8:128;  ishr:124;  ishl:-32;  cat:32913;  hi4:8;  lo4:1;  mid:28545;  sext:124;  s2u:124;  u2s:-128;  widen:128;  trunc:219;  catsigned:31889;  cmp:133;  notv:127;  andv:128;  orv:145;  xorv:17;  sliced:2842661339;  pick:145;  logic:1;  }
    [P4Testgen MethodCall]: *.copy_out("IgDeparser");
    [P4Testgen AssignmentStatement]: *eg_intr_md.egress_port = 1;
    [P4Testgen MethodCall]: *.prepend_emit_buffer();
    [Prepending the emit buffer to the program packet]
    [P4Testgen MethodCall]: *.check_tofino_drop();
    [P4Testgen If Statement]: Condition: true && (false || 0 <= 1 && 1 <= 7) && 1 == 0; Result: false
    [P4Testgen MethodCall]: *.StartEgress();
    [P4Testgen MethodCall]: *.prepend_to_prog_header(*eg_intr_md);
    [PrependToProgramHeader]: {$headerValid:true;;    _pad0:0;  egress_port:1;  }
    [P4Testgen MethodCall]: *.copy_in("EmptyEgressParser");
    [Parser] EmptyEgressParser
    [State] start
    [MethodCall]: pkt.extract<egress_intrinsic_metadata_t>(eg_intr_md);
    [ExtractSuccess] eg_intr_md@216 | Condition: |*packetLen_bits(bit<32>)| >= 232; | Extract Size: 16 -> eg_intr_md._pad0 = 0x00 | eg_intr_md.egress_port = 0x001
    [State] accept
    [P4Testgen MethodCall]: *.copy_out("EmptyEgressParser");
    [P4Testgen MethodCall]: *.copy_in("EmptyEgress");
    [Control EmptyEgress start]
    [P4Testgen MethodCall]: *.copy_out("EmptyEgress");
    [P4Testgen MethodCall]: *.copy_in("EmptyEgressDeparser");
    [Control EmptyEgressDeparser start]
    [P4Testgen MethodCall]: *.copy_out("EmptyEgressDeparser");
    [P4Testgen MethodCall]: *.prepend_emit_buffer();
    [Prepending the emit buffer to the program packet]
    [P4Testgen MethodCall]: *.check_tofino_drop();
    '''

    def setupCtrlPlane(self):
        pass

    def sendPacket(self):
        ig_port = 2
        pkt = b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x80\x91\xA9\x6F\x81\xDB\xB8\x00\x00\x00\x7C\x08\x00\x65\xCE\x26\x24\x60\xA9\x5E\x1E\xCE\xB1\x32\x14\xE4\x63\x04\x2B\x23\xA7\x9D\x4C\x72\xAE\xD4\x4B\x23\x31\x8A\xC8\x8A\x71\x18\x4D\xE7\x45\x59\x07\xE2\x14\x82\xCB\x96\x28\x78\x95\x07\xA1\x0F\xDB\xF1\xD0\xF6\x4C\xCA\xDA\xF6\x02\x83\xCF\xC5\xC6\x23\xD4\xD1\xD5\xA9\xEE\x72\x34\x0B\x9B\xC7\x06\x89\x30\x81\xCD\xC3\xF6\xD4\xFD\x0C\xC9\xBF\xF8\x8A\x64\xCB\x80\x6A\x07\xA7\x03\x7E\x39\x27\x4D\xB1\xC4\x35\x71\xF3\x2F\x25\x41\x69\xFF\x92\xB7\x88\x90\x14\x97\x1A\x32\x96\xD8\x3B\x23\xD3\xA0\xB3\x23\x5D\x2E\x42\xCF\x84\xBE\x96\xDC\xBA\x4A\xF4\xDF\x85\x5C\x25\x90\x00\xF3\x9D\x2B\x0F\xC7\x92\xF9\x5F\x19\x90\xDF\x9C\x57\x0D\xA9\x2A\xEF\x95\x9A\x86\x8F\x7D\xD7\xBD\x17\x4C\x86\xAF\x0A\x43\xFA\xDD\xA2\xE9\x13\x25\x20\x36\x2D\x42\x88\xEA\xB7\x6C\xA6\xAD\xC8\x2A\x53\x15\x68\x51\x39\x04\xF5\x3B\xA5\x86\x59\x40\x9B\x21\x49\x8D\x64\x1E\x96\xED\x7D\x49\xAB\xA5\x17\xE7\x43\x44\x7E\x4B\x2A\x4B\xE7\x18\x9E\xBE\xC3\xE8\x99\xB7\x09\x78\x20\x04\x16\x72\xA9\x26\x68\x12\xC7\xFE\x99\x1A\x6D\x05\x1A\x38\xDD\x27\x87\xCA\x0E\x35\xD7\x72\x35\xDE\xE2\x47\xCB\x2D\x6F\x4C\x6A\x30\x19\xBF\x87\xC8\xC4\xA9\x1F\x6C\x40\xFD\x26\x00\x0F\x9F\xC0\x6D\xD2\xC0\x09\x75\x29\x08\xBF\x73\x73\x04\xAE\x8A\x6D\x69\x9C\x25\x50\xD5\xAA\x07\x34\xC8\x87\x4C\x1A\xAF\xBE\x86\x4C\x24\x61\xFC\x2B\x50\xC5\xA1\xF1\x4A\x25\x2B\x18\xB1\x1E\xDB\xC4\x32\x92\xB2\x03\x88\x7D\x85\x39\x69\x6A\xEE\x31\xF5\x38\x3F\x95\xAB\xF1\x85\xC6\x6B\xCD\xB5\x83\x97\xD3\x24\x47\x19\x2D\x42\x1E\xAB\xA7\xB9\xC8\xE0\xCD\xF2\x79\x0F\x2A\x8F\xEA\x2B\x7A\x01\xAF\x45\xE6\x9A\x73\x09\xFF\x7E\x8D\xD4\x60\xE2\xD8\x15\xC5\x75\x08\xD4\x42\xF8\xD1\xE5\x04\xF1\x3C\xDD\x71\xF7\x80\xE0\x5B\x0A\x01\x84\xA5\xA5\x39\xB1\x3C\x0E\x16\x17\xC1\xCB\x3D\x50\x3C\x91\x3F\xCD\x81\x84\x07\xF7\xDF\xFD\x89\xB7\x49\xD7\xE9\xCC\xFD\x98\x8D\xC7\x44\x84\x56\x32\xB6\xC7\x60\xF0\x6A\xAD\xDE\x23\xF0\x65\xF7\x6E\x42\x42\xF1\x8F\x06\x4B\xE9\x75\x0B\x5F\xD7\x6A\xD4\x7C\xD7\xE9\xF9\x6A\x44\xAB\xA3\xC2\x32\x88\xCF\x59\x8E\x07\x02\xDF\x9D\x3A\xC5\x92\x9C\xE0\xCC\x4D\xEA\x71\x86\x20\xFC\x34\x56\xFB\x8B\x86\x48\xC9\xD4\xAF\x6A\x8B\x92\x50\x32\xB1\x65\x6B\x50\x54\xFE\xD8\xA7\xD5\x14\x89\xEF\xE4\xB2\xEF\x7F\x7D\x19\x65\x92\x8D\x86\xAB\x74\x79\xFC\x58\x76\xAA\xED\x63\x4E\x1E\x47\x2F\xAE\xBF\xCC\x65\x86\x50\x81\x17\xA3\x80\x90\x3C\x70\x53\xC0\x25\x91\xCB\x4F\xFF\xC1\x1E\x85\x4D\x65\xAA\xCB\x20\xCC\xC3\x89\x00\x07\x7E\xFF\xEE\xBC\x14\x48\xB8\x67\x2F\x8C\xFF\x47\x80\xEB\x6A\xC1\xF4\x25'
        send_packet(self, ig_port, pkt)

    def verifyPackets(self):
        eg_port = 1
        exp_pkt = b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x80\x91\xA9\x6F\x81\xDB\xB8\x00\x00\x00\x7C\x08\x00\x11\xEF\x80\xFF\x00\x61\x6F\x81\xDB\xF1\x6F\x81\xDB\xFF\xFF\xFF\xFF\x00\x00\x00\x00\x84\x74\xE0\x7F\x74\x84\x80\x80\x7C\xE0\x80\x91\x81\x00\x00\x6F\x81\x00\x00\x00\x7C\x7C\x80\x00\x80\xDB\x7C\x91\x85\x7F\x80\x91\x11\xA9\x6F\x91\xDB\x91\x01\x65\xCE\x26\x24\x60\xA9\x5E\x1E\xCE\xB1\x32\x14\xE4\x63\x04\x2B\x23\xA7\x9D\x4C\x72\xAE\xD4\x4B\x23\x31\x8A\xC8\x8A\x71\x18\x4D\xE7\x45\x59\x07\xE2\x14\x82\xCB\x96\x28\x78\x95\x07\xA1\x0F\xDB\xF1\xD0\xF6\x4C\xCA\xDA\xF6\x02\x83\xCF\xC5\xC6\x23\xD4\xD1\xD5\xA9\xEE\x72\x34\x0B\x9B\xC7\x06\x89\x30\x81\xCD\xC3\xF6\xD4\xFD\x0C\xC9\xBF\xF8\x8A\x64\xCB\x80\x6A\x07\xA7\x03\x7E\x39\x27\x4D\xB1\xC4\x35\x71\xF3\x2F\x25\x41\x69\xFF\x92\xB7\x88\x90\x14\x97\x1A\x32\x96\xD8\x3B\x23\xD3\xA0\xB3\x23\x5D\x2E\x42\xCF\x84\xBE\x96\xDC\xBA\x4A\xF4\xDF\x85\x5C\x25\x90\x00\xF3\x9D\x2B\x0F\xC7\x92\xF9\x5F\x19\x90\xDF\x9C\x57\x0D\xA9\x2A\xEF\x95\x9A\x86\x8F\x7D\xD7\xBD\x17\x4C\x86\xAF\x0A\x43\xFA\xDD\xA2\xE9\x13\x25\x20\x36\x2D\x42\x88\xEA\xB7\x6C\xA6\xAD\xC8\x2A\x53\x15\x68\x51\x39\x04\xF5\x3B\xA5\x86\x59\x40\x9B\x21\x49\x8D\x64\x1E\x96\xED\x7D\x49\xAB\xA5\x17\xE7\x43\x44\x7E\x4B\x2A\x4B\xE7\x18\x9E\xBE\xC3\xE8\x99\xB7\x09\x78\x20\x04\x16\x72\xA9\x26\x68\x12\xC7\xFE\x99\x1A\x6D\x05\x1A\x38\xDD\x27\x87\xCA\x0E\x35\xD7\x72\x35\xDE\xE2\x47\xCB\x2D\x6F\x4C\x6A\x30\x19\xBF\x87\xC8\xC4\xA9\x1F\x6C\x40\xFD\x26\x00\x0F\x9F\xC0\x6D\xD2\xC0\x09\x75\x29\x08\xBF\x73\x73\x04\xAE\x8A\x6D\x69\x9C\x25\x50\xD5\xAA\x07\x34\xC8\x87\x4C\x1A\xAF\xBE\x86\x4C\x24\x61\xFC\x2B\x50\xC5\xA1\xF1\x4A\x25\x2B\x18\xB1\x1E\xDB\xC4\x32\x92\xB2\x03\x88\x7D\x85\x39\x69\x6A\xEE\x31\xF5\x38\x3F\x95\xAB\xF1\x85\xC6\x6B\xCD\xB5\x83\x97\xD3\x24\x47\x19\x2D\x42\x1E\xAB\xA7\xB9\xC8\xE0\xCD\xF2\x79\x0F\x2A\x8F\xEA\x2B\x7A\x01\xAF\x45\xE6\x9A\x73\x09\xFF\x7E\x8D\xD4\x60\xE2\xD8\x15\xC5\x75\x08\xD4\x42\xF8\xD1\xE5\x04\xF1\x3C\xDD\x71\xF7\x80\xE0\x5B\x0A\x01\x84\xA5\xA5\x39\xB1\x3C\x0E\x16\x17\xC1\xCB\x3D\x50\x3C\x91\x3F\xCD\x81\x84\x07\xF7\xDF\xFD\x89\xB7\x49\xD7\xE9\xCC\xFD\x98\x8D\xC7\x44\x84\x56\x32\xB6\xC7\x60\xF0\x6A\xAD\xDE\x23\xF0\x65\xF7\x6E\x42\x42\xF1\x8F\x06\x4B\xE9\x75\x0B\x5F\xD7\x6A\xD4\x7C\xD7\xE9\xF9\x6A\x44\xAB\xA3\xC2\x32\x88\xCF\x59\x8E\x07\x02\xDF\x9D\x3A\xC5\x92\x9C\xE0\xCC\x4D\xEA\x71\x86\x20\xFC\x34\x56\xFB\x8B\x86\x48\xC9\xD4\xAF\x6A\x8B\x92\x50\x32\xB1\x65\x6B\x50\x54\xFE\xD8\xA7\xD5\x14\x89\xEF\xE4\xB2\xEF\x7F\x7D\x19\x65\x92\x8D\x86\xAB\x74\x79\xFC\x58\x76\xAA\xED\x63\x4E\x1E\x47\x2F\xAE\xBF\xCC\x65\x86\x50\x81\x17\xA3\x80\x90\x3C\x70\x53\xC0\x25\x91\xCB\x4F\xFF\xC1\x1E\x85\x4D\x65\xAA\xCB\x20\xCC\xC3\x89\x00\x07\x7E\xFF\xEE\xBC\x14\x48\xB8\x67\x2F\x8C\xFF\x47\x80\xEB\x6A\xC1\xF4\x25'
        exp_pkt = Mask(exp_pkt)
        exp_pkt.set_do_not_care(0, 696)
        verify_packet(self, exp_pkt, eg_port)

    def runTest(self):
        self.runTestImpl()

