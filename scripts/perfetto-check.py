#!/usr/bin/env python3
"""Reads a Frugal Perfetto trace with an independent reader and checks it against report.json.

The reader is Google's protobuf runtime with Perfetto's own published schema, compiled
(perfetto_trace_pb2 from the `perfetto` Python package: pip install perfetto protobuf, which
scripts/setup.sh --ci does). Nothing here shares code with the Swift writer.

  scripts/perfetto-check.py TRACE                       # the trace's tracks and events, as JSON
  scripts/perfetto-check.py TRACE --report report.json --run N
      # and checks run N (0-based) of the report against it: one thread track per thread lane,
      # every hang a slice of its length (±1 ms), every memory warning an instant, counters
      # with units whose sums match the report's numbers. Exit 1 when a check fails.

Exit 3 when the perfetto package is missing (a test skips then).
"""
import json
import sys

try:
    from perfetto.protos.perfetto.trace import perfetto_trace_pb2 as pb
except ImportError:  # pragma: no cover
    print("perfetto-check: the perfetto Python package is missing (pip install perfetto protobuf)", file=sys.stderr)
    sys.exit(3)

MS = 1_000_000  # ns


def read(path):
    trace = pb.Trace()
    with open(path, "rb") as handle:
        trace.ParseFromString(handle.read())
    tracks, events, problems = {}, [], []
    for packet in trace.packet:
        if packet.HasField("track_descriptor"):
            d = packet.track_descriptor
            track = {"uuid": d.uuid, "name": d.name, "parent": d.parent_uuid if d.HasField("parent_uuid") else None}
            if d.HasField("process"):
                track.update(kind="process", pid=d.process.pid, name=d.process.process_name)
            elif d.HasField("thread"):
                track.update(kind="thread", pid=d.thread.pid, tid=d.thread.tid, name=d.thread.thread_name)
            elif d.HasField("counter"):
                track.update(kind="counter", unit=pb.CounterDescriptor.Unit.Name(d.counter.unit),
                             unit_name=d.counter.unit_name)
            else:
                track.update(kind="track")
            if d.uuid in tracks:
                problems.append(f"track {d.uuid} declared twice")
            tracks[d.uuid] = track
        if packet.HasField("track_event"):
            e = packet.track_event
            if e.track_uuid not in tracks:
                problems.append(f"event at {packet.timestamp} on undeclared track {e.track_uuid}")
            events.append((packet.timestamp, e))
    slices = {uuid: [] for uuid in tracks}
    instants = {uuid: [] for uuid in tracks}
    counters = {uuid: [] for uuid in tracks}
    open_slices = {}
    flows_out, flows_in = [], []
    last_time = 0
    for time, e in events:
        if time < last_time:
            problems.append(f"events out of order at {time}")
        last_time = time
        kind = pb.TrackEvent.Type.Name(e.type)
        if kind == "TYPE_SLICE_BEGIN":
            open_slices.setdefault(e.track_uuid, []).append((time, e.name, e))
            flows_out.extend(e.flow_ids)
            flows_in.extend(e.terminating_flow_ids)
        elif kind == "TYPE_SLICE_END":
            stack = open_slices.get(e.track_uuid) or []
            if not stack:
                problems.append(f"slice end at {time} on track {e.track_uuid} with no slice open")
                continue
            start, name, begin = stack.pop()
            annotations = {a.name: (a.string_value or a.int_value or a.double_value) for a in begin.debug_annotations}
            slices[e.track_uuid].append({"name": name, "ts": start, "dur": time - start, "depth": len(stack),
                                         "annotations": annotations})
        elif kind == "TYPE_INSTANT":
            instants[e.track_uuid].append({"name": e.name, "ts": time})
        elif kind == "TYPE_COUNTER":
            value = e.double_counter_value if e.HasField("double_counter_value") else e.counter_value
            counters[e.track_uuid].append((time, value))
        else:
            problems.append(f"event of type {kind} at {time}")
    for uuid, stack in open_slices.items():
        if stack:
            problems.append(f"{len(stack)} slice(s) never ended on track {uuid}")
    for flow in flows_out:
        if flows_out.count(flow) != 1 or flows_in.count(flow) != 1:
            problems.append(f"flow {flow} does not join one slice to one other")
    for flow in flows_in:
        if flow not in flows_out:
            problems.append(f"flow {flow} ends but never starts")
    return {"tracks": tracks, "slices": slices, "instants": instants, "counters": counters,
            "flows": len(flows_out), "problems": problems}


def integral(points):
    """The area under a step counter: each value holds until the next point."""
    return sum(value * (after[0] - time) / 1e9 for (time, value), after in zip(points, points[1:]))


def named(trace, kind, name):
    return [t for t in trace["tracks"].values() if t["kind"] == kind and t["name"] == name]


def check(trace, run):
    ok, problems = [], list(trace["problems"])

    def expect(condition, text):
        (ok if condition else problems).append(text)

    timeline = run["timeline"]
    lanes = timeline.get("threadLanes") or []
    threads = [t for t in trace["tracks"].values() if t["kind"] == "thread"]
    expect(sorted(t["tid"] for t in threads) == sorted(lane["tid"] for lane in lanes),
           f"one thread track per thread lane ({len(threads)} tracks, {len(lanes)} lanes)")
    by_tid = {t["tid"]: t for t in threads}
    for lane in lanes:
        track = by_tid.get(lane["tid"])
        if track is None:
            continue
        wakeups = sum(s["wakeups"] for s in lane["samples"])
        counter = [t for t in trace["tracks"].values() if t["kind"] == "counter" and t["parent"] == track["uuid"] and t["name"] == "wakeups/s"]
        area = integral(trace["counters"][counter[0]["uuid"]]) if counter else 0.0
        expect(abs(area - wakeups) <= 0.5 + 1e-6 * wakeups, f"thread {lane['tid']}: wakeups/s integrates to {area:.3f}, the lane has {wakeups}")
    for row in (run.get("threads") or {}).get("threads", []):
        track = by_tid.get(row["tid"])
        counter = [t for t in trace["tracks"].values() if track and t["kind"] == "counter" and t["parent"] == track["uuid"] and t["name"] == "wakeups/s"]
        area = integral(trace["counters"][counter[0]["uuid"]]) if counter else 0.0
        expect(track is not None and abs(area - row["wakeups"]) <= 0.5 + 1e-6 * row["wakeups"],
               f"thread table row {row['tid']}: {row['wakeups']} wakeups, the trace's counter integrates to {area:.3f}")

    main = [t for t in threads if t["name"].endswith("(main)")]
    handler_slices = sum(len(trace["slices"][t["uuid"]]) for t in main) + sum(len(trace["slices"][t["uuid"]]) for t in named(trace, "track", "Main thread"))
    expect(handler_slices == len(timeline["handlers"]), f"{handler_slices} handler slices for {len(timeline['handlers'])} handlers")

    hang_slices = [s for t in named(trace, "track", "Hangs") for s in trace["slices"][t["uuid"]]]
    for hang in timeline.get("hangs") or []:
        start, length = round(hang["start"] * 1e9), hang["durationMs"] * MS
        match = [s for s in hang_slices if s["name"] == "hang: " + hang["handler"] and abs(s["ts"] - start) <= MS and abs(s["dur"] - length) <= MS]
        expect(len(match) >= 1, f"hang '{hang['handler']}' at {hang['start']:.3f} s of {hang['durationMs']:.1f} ms is a slice of that length (±1 ms)")

    memory = [i for t in named(trace, "track", "Memory events") for i in trace["instants"][t["uuid"]]]
    for mark in timeline.get("memoryMarks") or []:
        if mark["kind"] != "warning":
            continue
        at = round(mark["time"] * 1e9)
        match = [i for i in memory if i["name"] == f"memory warning ({mark['level']})" and abs(i["ts"] - at) <= MS]
        expect(len(match) >= 1, f"memory warning ({mark['level']}) at {mark['time']:.3f} s is an instant")

    for track in trace["tracks"].values():
        if track["kind"] == "counter":
            expect(track["unit"] != "UNIT_UNSPECIFIED" or track["unit_name"], f"counter '{track['name']}' has a unit")

    activity = timeline["activity"]
    process = named(trace, "counter", "Wakeups (all threads)")
    if activity:
        lane = sum(s["wakeups"] for s in activity)
        area = integral(trace["counters"][process[0]["uuid"]]) if process else 0.0
        expect(abs(area - lane) <= 0.5 + 1e-6 * lane, f"process wakeups/s integrates to {area:.3f}, the activity lane has {lane}")
        metric = run["metrics"].get("cpu.wakeups", {}).get("value")
        if metric is not None:
            # The lane's ends come from the kernel's exit records when the run had a cgroup, the
            # metric from wait4: the two may differ by the reaping's own switch or two.
            expect(abs(area - metric) <= max(2, 0.01 * metric),
                   f"process wakeups/s integrates to {area:.3f}, cpu.wakeups is {metric} ({run['metrics']['cpu.wakeups']['source']}; within 1 % or 2)")
        cpu = sum(s["cpuSeconds"] for s in activity)
        tracks = named(trace, "counter", "CPU (all threads)")
        area = integral(trace["counters"][tracks[0]["uuid"]]) / 100 if tracks else 0.0
        expect(abs(area - cpu) <= 1e-6 + 1e-6 * cpu, f"process CPU % integrates to {area:.6f} s, the activity lane has {cpu:.6f} s")

    for counter_name, metric_name in [("Bytes written (storage)", "disk.physicalBytesWritten"),
                                      ("Bytes written (write calls)", "disk.syscallBytesWritten"),
                                      ("Bytes written (FrugalKit)", "disk.logicalBytesWritten")]:
        metric = run["metrics"].get(metric_name, {}).get("value")
        tracks = named(trace, "counter", counter_name)
        if metric is None or not tracks:
            continue
        last = trace["counters"][tracks[0]["uuid"]][-1][1]
        expect(abs(last - metric) <= 0.5, f"'{counter_name}' ends at {last}, {metric_name} is {metric}")

    transfers = ((timeline.get("radio") or {}).get("transfers")) or []
    request_slices = sum(len(trace["slices"][t["uuid"]]) for t in named(trace, "track", "Network requests"))
    expect(request_slices == len(transfers), f"{request_slices} request slices for {len(transfers)} requests")
    completions = [h for h in timeline["handlers"] if h["name"].startswith(("network:", "posted:network:"))]
    if completions:
        expect(trace["flows"] == min(len(completions), len(transfers)),
               f"{trace['flows']} flows from a request to its completion handler, for {len(completions)} completion handlers")
    return ok, problems


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    trace = read(argv[1])
    if "--report" not in argv:
        summary = {"tracks": list(trace["tracks"].values()),
                   "slices": sum(len(v) for v in trace["slices"].values()),
                   "instants": sum(len(v) for v in trace["instants"].values()),
                   "counterValues": sum(len(v) for v in trace["counters"].values()),
                   "flows": trace["flows"], "problems": trace["problems"]}
        print(json.dumps(summary, indent=1, default=str))
        return 1 if trace["problems"] else 0
    with open(argv[argv.index("--report") + 1]) as handle:
        report = json.load(handle)
    run = report["runs"][int(argv[argv.index("--run") + 1]) if "--run" in argv else 0]
    ok, problems = check(trace, run)
    for line in ok:
        print("ok:", line)
    for line in problems:
        print("PROBLEM:", line)
    print(f"perfetto-check: {len(ok)} checks held, {len(problems)} problems "
          f"({len(trace['tracks'])} tracks, {sum(len(v) for v in trace['slices'].values())} slices, {trace['flows']} flows)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
