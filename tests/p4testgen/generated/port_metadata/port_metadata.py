# PTF test for port_metadata
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

logger = logging.getLogger('port_metadata')
logger.addHandler(logging.StreamHandler())

class AbstractTest(BfRuntimeTest):
    def setUp(self):
        BfRuntimeTest.setUp(self, 0, 'port_metadata')
        self.dev_id = 0
        self.table_entries = []
        self.bfrt_info = None
        # Get bfrt_info and set it as part of the test.
        self.bfrt_info = self.interface.bfrt_info_get('port_metadata')

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
    # Date generated: 2026-11-28-06:14:19.452
    # Current statement coverage: 0.62
    '''
    [P4Testgen MethodCall]: *.StartIngress();
    [P4Testgen MethodCall]: *.prepend_to_prog_header(0);
    [PrependToProgramHeader]: 0
    [P4Testgen MethodCall]: *.prepend_to_prog_header(*ig_intr_md);
    [PrependToProgramHeader]: {$headerValid:true;;    resubmit_flag:0;  _pad1:0;  packet_version:0;  _pad2:0;  ingress_port:2;  ingress_mac_tstamp:0;  }
    [P4Testgen MethodCall]: *.copy_in("SwitchIngressParser");
    [Parser] SwitchIngressParser
    [State] start
    [MethodCall]: pkt.extract<ingress_intrinsic_metadata_t>(ig_intr_md);
    [ExtractSuccess] ig_intr_md@0 | Condition: |*packetLen_bits(bit<32>)| >= 64; | Extract Size: 64 -> ig_intr_md.resubmit_flag = 0x0 | ig_intr_md._pad1 = 0x0 | ig_intr_md.packet_version = 0x0 | ig_intr_md._pad2 = 0x0 | ig_intr_md.ingress_port = 0x002 | ig_intr_md.ingress_mac_tstamp = Taint
    [PortMetaDataUnpack Condition: |*packetLen_bits(bit<32>)| >= 64;]
    [AssignmentStatement]: md.port_config = port_metadata_unpack<port_config_t>(pkt);| Computed: md.port_config = {  tag:0;  out_port:0;  reserved:0; };
    [MethodCall]: pkt.extract<ethernet_h>(hdr.ethernet);
    [ExtractSuccess] hdr.ethernet@0 | Condition: |*packetLen_bits(bit<32>)| >= 112; | Extract Size: 112 -> hdr.ethernet.dst_addr = 0x0000_0000_0000 | hdr.ethernet.src_addr = 0x0000_0000_0000 | hdr.ethernet.ether_type = 0x0000
    [State] accept
    [P4Testgen MethodCall]: *.copy_out("SwitchIngressParser");
    [P4Testgen MethodCall]: *.copy_in("SwitchIngress");
    [Control SwitchIngress start]
    [If Statement]: md.port_config.out_port == 0 Condition: 0 == 0; Result: true
    [AssignmentStatement]: ig_dprsr_md.drop_ctl = 1;| Computed: ig_dprsr_md.drop_ctl = 1;
    [P4Testgen MethodCall]: *.copy_out("SwitchIngress");
    [P4Testgen MethodCall]: *.copy_in("SwitchIngressDeparser");
    [Control SwitchIngressDeparser start]
    [MethodCall]: pkt.emit<ethernet_h>(hdr.ethernet);
    [Emit]: {$headerValid:true;;    dst_addr:0;  src_addr:0;  ether_type:0;  }
    [P4Testgen MethodCall]: *.copy_out("SwitchIngressDeparser");
    [P4Testgen AssignmentStatement]: *eg_intr_md.egress_port = "Taint";
    [P4Testgen MethodCall]: *.prepend_emit_buffer();
    [Prepending the emit buffer to the program packet]
    [P4Testgen MethodCall]: *.check_tofino_drop();
    [P4Testgen MethodCall]: *.tofino_drop();
    [Packet marked dropped.]
    '''

    def setupCtrlPlane(self):
        pass

    def sendPacket(self):
        ig_port = 2
        pkt = b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x49\xE9\x69\x71\xDC\x2A\xCA\xB1\x1A\x25\x88\xDB\x3F\x07\xB0\x4D\x82\x82\xED\x28\x07\x3F\x18\x15\x1B\x7C\x4A\xF8\x06\xB5\xC3\x65\x65\x74\xC9\xA4\x05\x16\xDD\x45\x2C\x1A\x6F\x35\x1F\xD0\x38\xC7\x84\xD4\x21\xC2\xB6\x26\x7C\x89\x0C\x9F\x33\xFB\xEC\x4B\x56\x18\x35\x64\xBB\x8F\xC0\xFE\x07\xBB\x82\x1C\x82\xB8\xC1\x66\x06\xCD\x3A\xF9\x0E\x86\x10\xE5\x63\x2B\x76\xDD\x1E\x74\xB2\x62\xAC\xD4\x31\x24\x08\x8D\xEE\xBE\x93\x8E\xBE\x25\xD5\xF1\x23\x1B\x54\x19\x78\xF4\x1F\xD3\x2C\x1E\x81\xF9\x11\xF0\xDC\x60\xFF\x50\x8C\xE7\x8D\x23\xA1\x95\xB0\xDE\x9E\xD9\xD4\xE9\xCE\x38\xED\xEF\x99\x3D\x44\xDD\x40\xB7\x04\x0C\xDC\x60\x77\xA7\x0C\x0A\x9F\x94\x87\x54\xC3\xBC\x56\xB5\xE8\x95\xC2\x61\x78\x7B\xEA\x72\x5B\x76\x07\xF1\xB5\x83\xCF\x8D\xE2\xCD\x19\xE5\x02\x4E\x59\x16\x86\xED\x47\xB0\x94\x21\x5A\x76\x53\x9F\x00\x14\x27\x26\x68\xAA\x9D\xFD\x35\x91\xC5\xD2\x3B\x85\x00\xBC\x1C\x0F\x4D\x25\xF6\x36\x92\xDC\xA8\xB0\xC5\x87\x3F\xE7\xE7\x43\xE1\x47\xC3\x4E\xBA\xC2\x3C\xAD\xCC\xC6\x61\x3A\xC9\xD6\x68\x7B\xA7\x52\xF1\x1C\x39\xE9\x94\x11\x57\x60\x5A\xF5\x9E\xB6\x73\x2D\x71\x0A\x10\x66\xB7\x62\xF3\x11\xBA\x67\xC9\x75\xA6\xDC\x1D\x5F\xFD\xEC\x12\xE4\x08\x82\x9F\x27\x73\x61\x7F\x84\x13\x73\xA9\xD7\x4D\x52\x02\xFC\xC0\x98\xF6\xFF\xC1\xE9\xE1\x9F\x9E\x3C\x6D\x97\x62\x5E\xC0\xB6\xBC\xC1\xE5\x58\xCC\x8C\x5B\x45\xA9\xA0\x45\x19\xFE\x94\xC3\x63\x3D\xDC\x59\x51\x66\xCA\x5A\x9B\xC0\x98\xC0\x3D\xC3\x79\xA5\xD2\xE7\x87\x9F\xA8\xFB\x51\xB0\xB1\x3F\x7C\xE2\x20\x59\x17\x20\x56\x2C\x0A\xB9\xDB\x01\x0D\xA3\x49\x40\x60\xC0\x35\x38\xD2\x92\x2D\x9D\xFC\x59\x07\x2E\xF0\x5C\x7B\x9A\x39\xED\x71\x33\xC4\xA6\xFD\x0F\x2D\x2A\x54\xA7\x07\x89\xD6\x33\x67\x65\xCE\x26\x24\x60\xA9\x5E\x1E\xCE\xB1\x32\x14\xE4\x63\x04\x2B\x23\xA7\x9D\x4C\x72\xAE\xD4\x4B\x23\x31\x8A\xC8\x8A\x71\x18\x4D\xE7\x45\x59\x07\xE2\x14\x82\xCB\x96\x28\x78\x95\x07\xA1\x0F\xDB\xF1\xD0\xF6\x4C\xCA\xDA\xF6\x02\x83\xCF\xC5\xC6\x23\xD4\xD1\xD5\xA9\xEE\x72\x34\x0B\x9B\xC7\x06\x89\x30\x81\xCD\xC3\xF6\xD4\xFD\x0C\xC9\xBF\xF8\x8A\x64\xCB\x80\x6A\x07\xA7\x03\x7E\x39\x27\x4D\xB1\xC4\x35\x71\xF3\x2F\x25\x41\x69\xFF\x92\xB7\x88\x90\x14\x97\x1A\x32\x96\xD8\x3B\x23\xD3\xA0\xB3\x23\x5D\x2E\x42\xCF\x84\xBE\x96\xDC\xBA\x4A\xF4\xDF\x85\x5C\x25\x90\x00\xF3\x9D\x2B\x0F\xC7\x92\xF9\x5F\x19\x90\xDF\x9C\x57\x0D\xA9\x2A\xEF\x95\x9A\x86\x8F\x7D\xD7\xBD\x17\x4C\x86\xAF\x0A\x43\xFA\xDD\xA2\xE9\x13\x25\x20\x36\x2D\x42\x88\xEA\xB7\x6C\xA6\xAD\xC8\x2A\x53\x15\x68\x51\x39\x04\xF5\x3B\xA5\x86\x59\x40\x9B\x21\x49\x8D\x64\x1E\x96\xED\x7D\x49\xAB\xA5\x17\xE7\x43\x44\x7E\x4B\x2A\x4B\xE7\x18\x9E\xBE\xC3\xE8\x99\xB7\x09\x78\x20\x04\x16\x72\xA9\x26\x68\x12\xC7\xFE\x99\x1A\x6D\x05\x1A\x38\xDD\x27\x87\xCA\x0E\x35\xD7\x72\x35\xDE\xE2\x47\xCB\x2D\x6F\x4C\x6A\x30\x19\xBF\x87\xC8\xC4\xA9\x1F\x6C\x40\xFD\x26\x00\x0F\x9F\xC0\x6D\xD2\xC0\x09\x75\x29\x08\xBF\x73\x73\x04\xAE\x8A\x6D\x69\x9C\x25\x50\xD5\xAA\x07\x34\xC8\x87\x4C\x1A\xAF\xBE\x86\x4C\x24\x61\xFC\x2B\x50\xC5\xA1\xF1\x4A\x25\x2B\x18\xB1\x1E\xDB\xC4\x32\x92\xB2\x03\x88\x7D\x85\x39\x69\x6A\xEE\x31\xF5\x38\x3F\x95\xAB\xF1\x85\xC6\x6B\xCD\xB5\x83\x97\xD3\x24\x47\x19\x2D\x42\x1E\xAB\xA7\xB9\xC8\xE0\xCD\xF2\x79\x0F\x2A\x8F\xEA\x2B\x7A\x01\xAF\x45\xE6\x9A\x73\x09\xFF\x7E\x8D\xD4\x60\xE2\xD8\x15\xC5\x75\x08\xD4\x42\xF8\xD1\xE5\x04\xF1\x3C\xDD\x71\xF7\x80\xE0\x5B\x0A\x01\x84\xA5\xA5\x39\xB1\x3C\x0E\x16\x17\xC1\xCB\x3D\x50\x3C\x91\x3F\xCD\x81\x84\x07\xF7\xDF\xFD\x89\xB7\x49\xD7\xE9\xCC\xFD\x98\x8D\xC7\x44\x84\x56\x32\xB6\xC7\x60\xF0\x6A\xAD\xDE\x23\xF0\x65\xF7\x6E\x42\x42\xF1\x8F\x06\x4B\xE9\x75\x0B\x5F\xD7\x6A\xD4\x7C\xD7\xE9\xF9\x6A\x44\xAB\xA3\xC2\x32\x88\xCF\x59\x8E\x07\x02\xDF\x9D\x3A\xC5\x92\x9C\xE0\xCC\x4D\xEA\x71\x86\x20\xFC\x34\x56\xFB\x8B\x86\x48\xC9\xD4\xAF\x6A\x8B\x92\x50\x32\xB1\x65\x6B\x50\x54\xFE\xD8\xA7\xD5\x14\x89\xEF\xE4\xB2\xEF\x7F\x7D\x19\x65\x92\x8D\x86\xAB\x74\x79\xFC\x58\x76\xAA\xED\x63\x4E\x1E\x47\x2F\xAE\xBF\xCC\x65\x86\x50\x81\x17\xA3\x80\x90\x3C\x70\x53\xC0\x25\x91\xCB\x4F\xFF\xC1\x1E\x85\x4D\x65\xAA\xCB\x20\xCC\xC3\x89\x00\x07\x7E\xFF\xEE\xBC\x14\x48\xB8\x67\x2F\x8C\xFF\x47\x80\xEB\x6A\xC1\xF4\x25'
        send_packet(self, ig_port, pkt)

    def verifyPackets(self):
        pass

    def runTest(self):
        self.runTestImpl()

