"""The Loadlab kernel against Jupyter's kernel conformance suite (jupyter_kernel_test).

Run by KernelConformanceTest.java after it installed the kernelspec into a temporary prefix:
    JUPYTER_PATH=PREFIX/share/jupyter /usr/bin/python3 -m unittest -v test_kernel
Besides the suite's own checks it checks what Loadlab adds: Java exception names in errors,
message-mode interrupts, progress bars that update in place, and the language info.
"""

import os
import time
import unittest

import jupyter_kernel_test
from jupyter_client.utils import run_sync

TIMEOUT = 30


class KernelTests(jupyter_kernel_test.KernelTests):
    kernel_name = "loadlab"
    language_name = "java"
    file_extension = ".java"

    code_hello_world = 'System.out.println("hello, world");'
    code_stderr = 'System.err.println("to stderr");'

    completion_samples = [
        {"text": "Math.sqr", "matches": {"sqrt("}},
        {"text": "Integer.parseI", "matches": {"parseInt("}},
        {"text": "Table.crea", "matches": {"create("}},
    ]

    complete_code_samples = [
        "1 + 1",
        "int x = 1;",
        "int y = 2",
        "for (int i = 0; i < 3; i++) { }",
        "%jars lib/*.jar\nint z = 3;",
    ]
    incomplete_code_samples = [
        "for (int i = 0; i < 3; i++) {",
        "int f() {",
        "1 +",
        "String s = \"a\" +",
    ]
    invalid_code_samples = ["int x = ;", "1 + ;"]

    code_inspect_sample = "Math.max"

    code_generate_error = 'throw new IllegalStateException("boom");'

    code_execute_result = [
        {"code": "6 * 7", "result": "42"},
        {"code": '"lo" + "ad" + "lab"', "result": "loadlab"},
        {"code": 'Table.create("t", IntColumn.create("n", 1, 2))', "mime": "text/html"},
        {"code": "var h = new Histogram(3);\nh.recordValue(100);\nh", "mime": "text/html"},
        {"code": "new org.knowm.xchart.XYChartBuilder().width(200).height(100).build()", "mime": "image/png"},
    ]

    code_display_data = [
        {"code": 'display(Table.create("shown", StringColumn.create("s", "a")));', "mime": "text/html"},
        {"code": 'display("plain text");', "mime": "text/plain"},
    ]

    def execute_until_reply(self, code, timeout=TIMEOUT):
        """Executes code and returns its reply and its iopub messages, up to the idle status."""
        self.flush_channels()
        reply, output_msgs = self.execute_helper(code, timeout=timeout)
        return reply, output_msgs

    def test_kernel_info_language(self):
        self.flush_channels()
        self.kc.kernel_info()
        reply = self.kc.get_shell_msg(timeout=TIMEOUT)
        info = reply["content"]["language_info"]
        self.assertEqual(info["name"], "java")
        self.assertEqual(info["pygments_lexer"], "java")
        self.assertEqual(info["mimetype"], "text/x-java-source")
        self.assertEqual(info["file_extension"], ".java")
        expected = os.environ.get("LOADLAB_JAVA_VERSION")
        if expected:
            self.assertEqual(info["version"], expected)
        else:
            self.assertTrue(info["version"])

    def test_history_request_is_answered_between_busy_and_idle(self):
        # What JupyterLab 4 needs to leave "Unknown": it takes no state from the statuses of a
        # kernel_info_request (untracked in its page config); its notebook sends a history_request as
        # it connects, and the busy/idle around that reply, parented to it, are its first state.
        self.execute_until_reply("int remembered = 1;")
        self.flush_channels()
        msg_id = self.kc.history(hist_access_type="tail", n=10, output=False, raw=True)
        reply = self.kc.get_shell_msg(timeout=TIMEOUT)
        self.assertEqual(reply["msg_type"], "history_reply")
        self.assertEqual(reply["parent_header"]["msg_id"], msg_id)
        self.assertEqual(reply["content"]["status"], "ok")
        self.assertIn("int remembered = 1;", [entry[2] for entry in reply["content"]["history"]])
        states = []
        while "idle" not in states:
            msg = self.kc.get_iopub_msg(timeout=TIMEOUT)
            if msg["msg_type"] == "status" and msg["parent_header"].get("msg_id") == msg_id:
                self.assertEqual(msg["parent_header"]["msg_type"], "history_request")
                states.append(msg["content"]["execution_state"])
        self.assertEqual(states, ["busy", "idle"])

    def test_error_is_named_after_the_java_exception(self):
        reply, output_msgs = self.execute_until_reply(
            'String state = "broken";\nthrow new IllegalStateException("state is " + state);')
        content = reply["content"]
        self.assertEqual(content["status"], "error")
        self.assertEqual(content["ename"], "java.lang.IllegalStateException")
        self.assertEqual(content["evalue"], "state is broken")
        errors = [m for m in output_msgs if m["msg_type"] == "error"]
        self.assertEqual(len(errors), 1)
        error = errors[0]["content"]
        self.assertEqual(error["ename"], "java.lang.IllegalStateException")
        self.assertEqual(error["evalue"], "state is broken")
        self.assertEqual(error["traceback"][0], "java.lang.IllegalStateException: state is broken")
        self.assertIn("    at (cell line 2)", error["traceback"])

    def test_compilation_error_names_the_line(self):
        reply, output_msgs = self.execute_until_reply('int a = 1;\nString s = a;')
        self.assertEqual(reply["content"]["status"], "error")
        self.assertEqual(reply["content"]["ename"], "CompilationError")
        traceback = "\n".join(reply["content"]["traceback"])
        self.assertIn("cell line 2: incompatible types", traceback)

    def test_interrupt_stops_an_endless_loop(self):
        self.flush_channels()
        msg_id = self.kc.execute("long n = 0;\nwhile (true) { n++; }")
        time.sleep(1.5)
        self.km.interrupt_kernel()
        reply = self.get_non_kernel_info_reply(timeout=TIMEOUT)
        self.assertEqual(reply["parent_header"]["msg_id"], msg_id)
        self.assertEqual(reply["content"]["status"], "error")
        self.assertEqual(reply["content"]["ename"], "Interrupted")
        # The kernel takes the next cell.
        reply, output_msgs = self.execute_until_reply("1 + 1")
        self.assertEqual(reply["content"]["status"], "ok")
        results = [m for m in output_msgs if m["msg_type"] == "execute_result"]
        self.assertEqual(results[0]["content"]["data"]["text/plain"], "2")

    def test_progress_bar_updates_one_display(self):
        reply, output_msgs = self.execute_until_reply(
            'var bar = Progress.bar("rounds");\nfor (int i = 1; i <= 4; i++) { bar.update(i, 4, "round " + i); }')
        self.assertEqual(reply["content"]["status"], "ok")
        shown = [m for m in output_msgs if m["msg_type"] == "display_data"]
        updates = [m for m in output_msgs if m["msg_type"] == "update_display_data"]
        self.assertEqual(len(shown), 1)
        self.assertGreaterEqual(len(updates), 1)
        display_id = shown[0]["content"]["transient"]["display_id"]
        self.assertTrue(display_id)
        for u in updates:
            self.assertEqual(u["content"]["transient"]["display_id"], display_id)
        last = updates[-1]["content"]["data"]
        self.assertIn("4/4 (100%)", last["text/plain"])
        self.assertIn("<progress", last["text/html"])

    def test_magic_errors_are_reported(self):
        reply, output_msgs = self.execute_until_reply("%nosuchmagic\n1")
        self.assertEqual(reply["content"]["status"], "error")
        self.assertEqual(reply["content"]["ename"], "MagicError")


if __name__ == "__main__":
    unittest.main()
