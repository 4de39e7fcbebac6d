#!/usr/bin/env python3
"""Wakeups of an idle FrugalKit app's main thread under two workload hosts, side by side.

Usage: scripts/main-loop-idle-overhead.py SECONDS HOST_A HOST_B [APP]
Starts APP (default: idle) in each host at once, speaking the harness's protocol itself (its
control and event pipes), waits 2 s for launch to settle, then reads each main thread's
voluntary and involuntary context switches (/proc/PID/task/PID/status) before and after SECONDS
of idling, and the process's threads by name. Used to check that a new main loop costs an idle
app no wakeup (docs/PORTING.md)."""
import os, subprocess, sys, threading, time, json

def switches(pid):
    values = {}
    with open(f"/proc/{pid}/task/{pid}/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches"):
                values[key] = int(value)
    return values

def threads(pid):
    names = []
    for tid in sorted(os.listdir(f"/proc/{pid}/task"), key=int):
        with open(f"/proc/{pid}/task/{tid}/comm") as comm:
            names.append(comm.read().strip())
    return names

def start(host, app):
    control_read, control_write = os.pipe()
    event_read, event_write = os.pipe()
    env = dict(os.environ, FRUGAL_APP=app, FRUGAL_CONTROL_FD=str(control_read), FRUGAL_EVENT_FD=str(event_write))
    process = subprocess.Popen([host], env=env, pass_fds=(control_read, event_write))
    os.close(control_read)
    os.close(event_write)
    def drain():
        while os.read(event_read, 65536):
            pass
    threading.Thread(target=drain, daemon=True).start()
    return process, control_write

def main():
    seconds, hosts = float(sys.argv[1]), sys.argv[2:4]
    app = sys.argv[4] if len(sys.argv) > 4 else "idle"
    running = [start(host, app) for host in hosts]
    time.sleep(2)
    before = [switches(process.pid) for process, _ in running]
    time.sleep(seconds)
    after = [switches(process.pid) for process, _ in running]
    for (process, control), host, b, a in zip(running, hosts, before, after):
        print(f"{host}: main thread over {seconds:g} s idle: "
              f"{a['voluntary_ctxt_switches'] - b['voluntary_ctxt_switches']} voluntary, "
              f"{a['nonvoluntary_ctxt_switches'] - b['nonvoluntary_ctxt_switches']} involuntary switches; "
              f"threads: {threads(process.pid)}")
        os.write(control, (json.dumps({"sequence": 1, "command": "terminate"}) + "\n").encode())
    for (process, _), host in zip(running, hosts):
        print(f"{host}: exit status {process.wait(timeout=10)}")

main()
