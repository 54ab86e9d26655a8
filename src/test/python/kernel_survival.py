"""Drives one Loadlab kernel through hostile cells over Jupyter's protocol, as a notebook would.

Run by KernelSurvivalTest.java with Debian's Python after it installed the kernelspec:
    JUPYTER_PATH=PREFIX/share/jupyter /usr/bin/python3 kernel_survival.py STEPS.json REPORT.json
STEPS.json is a list of steps, each {"code": "...", "interrupt": false}; with "interrupt", an
interrupt_request goes to the kernel (the kernelspec's mode, message) once the cell has started.
REPORT.json gets, per step, the reply (status, ename, evalue, traceback), the text of stdout and
stderr, the text/plain results and displays, whether the idle status came, the seconds from the
request (and from the interrupt) to the reply, and whether the heartbeat answered while the cell
ran and after it; then the kernel's exit code after a shutdown request. This script asserts
nothing: the Java test does.
"""

import json
import sys
import time

import zmq
from jupyter_client import KernelManager

REPLY_TIMEOUT = 60
IDLE_TIMEOUT = 30
HEARTBEAT_TIMEOUT = 10


def heartbeat(context, address):
    """True when the kernel's heartbeat echoes a ping within HEARTBEAT_TIMEOUT seconds."""
    socket = context.socket(zmq.REQ)
    socket.setsockopt(zmq.LINGER, 0)
    socket.connect(address)
    try:
        socket.send(b"ping")
        if socket.poll(HEARTBEAT_TIMEOUT * 1000):
            return socket.recv() == b"ping"
        return False
    finally:
        socket.close()


def run_step(km, kc, context, hb_address, step):
    result = {"code": step["code"], "stdout": "", "stderr": "", "results": [], "displays": [],
              "started": False, "heartbeat_during": None}
    start = time.monotonic()
    msg_id = kc.execute(step["code"])
    interrupted_at = None
    reply = None
    idle = False
    deadline = start + REPLY_TIMEOUT

    def take(msg):
        nonlocal idle
        if msg["parent_header"].get("msg_id") != msg_id:
            return
        kind = msg["msg_type"]
        content = msg["content"]
        if kind == "execute_input":
            result["started"] = True
        elif kind == "stream":
            result[content["name"]] += content["text"]
        elif kind == "execute_result":
            result["results"].append(content["data"].get("text/plain"))
        elif kind == "display_data":
            result["displays"].append(content["data"].get("text/plain"))
        elif kind == "status" and content["execution_state"] == "idle":
            idle = True

    # The cell has started once its execute_input is published: only then is it interrupted.
    if step.get("interrupt"):
        while not result["started"] and time.monotonic() < deadline:
            try:
                take(kc.get_iopub_msg(timeout=1))
            except Exception:
                pass
        result["heartbeat_during"] = heartbeat(context, hb_address)
        interrupted_at = time.monotonic()
        km.interrupt_kernel()
    while reply is None and time.monotonic() < deadline:
        try:
            msg = kc.get_shell_msg(timeout=1)
        except Exception:
            continue
        if msg["parent_header"].get("msg_id") == msg_id:
            reply = msg
    replied = time.monotonic()
    idle_deadline = replied + IDLE_TIMEOUT
    while not idle and time.monotonic() < idle_deadline:
        try:
            take(kc.get_iopub_msg(timeout=1))
        except Exception:
            pass
    if reply is None:
        result["reply"] = None
    else:
        c = reply["content"]
        result["reply"] = {"status": c.get("status"), "ename": c.get("ename"), "evalue": c.get("evalue"),
                           "traceback": c.get("traceback")}
    result["idle"] = idle
    result["seconds"] = round(replied - start, 3)
    result["seconds_after_interrupt"] = None if interrupted_at is None else round(replied - interrupted_at, 3)
    result["heartbeat_after"] = heartbeat(context, hb_address)
    return result


def main():
    steps = json.load(open(sys.argv[1], encoding="utf-8"))
    report = {"steps": []}
    km = KernelManager(kernel_name="loadlab")
    km.start_kernel()
    process = km.provisioner.process
    report["kernel_pid"] = process.pid
    report["interrupt_mode"] = km.kernel_spec.interrupt_mode
    context = zmq.Context()
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=90)
        info = km.get_connection_info()
        hb_address = "%s://%s:%d" % (info["transport"], info["ip"], info["hb_port"])
        for step in steps:
            report["steps"].append(run_step(km, kc, context, hb_address, step))
            if report["steps"][-1]["reply"] is None:
                break
    finally:
        kc.stop_channels()
        # A shutdown request, as Jupyter sends: the kernel must still be able to end itself.
        km.shutdown_kernel(now=False)
        report["exit_code"] = process.wait(timeout=30)
        context.term()
        with open(sys.argv[2], "w", encoding="utf-8") as out:
            json.dump(report, out)


if __name__ == "__main__":
    main()
