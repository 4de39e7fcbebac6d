#!/usr/bin/env python3
# usage: scripts/harness-cost-ab.py ROUNDS BIN... : alternates `BIN run --no-history --quiet --out DIR -- /bin/sleep 10`;
# harness CPU = user+sys of the harness and its reaped children (getrusage, microseconds) minus the
# program's own cpu.timeSeconds from report.json, over the wall time of the whole command.
import json, resource, subprocess, sys, time, tempfile, os, shutil
def one(binary):
    out = tempfile.mkdtemp(prefix='cost-ab'); shutil.rmtree(out)
    a = resource.getrusage(resource.RUSAGE_CHILDREN); t = time.monotonic()
    subprocess.run([binary, 'run', '--no-history', '--quiet', '--out', out, '--', '/bin/sleep', '10'],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd='/tmp')
    b = resource.getrusage(resource.RUSAGE_CHILDREN); e = time.monotonic() - t
    cpu = (b.ru_utime - a.ru_utime) + (b.ru_stime - a.ru_stime)
    sw = (b.ru_nvcsw - a.ru_nvcsw) + (b.ru_nivcsw - a.ru_nivcsw)
    child = json.load(open(out + '/report.json'))['runs'][0]['metrics']['cpu.timeSeconds']['value']
    shutil.rmtree(out, ignore_errors=True)
    return cpu - child, e, child, sw
for i in range(int(sys.argv[1])):
    for name in sys.argv[2:]:
        h, e, c, sw = one(name)
        print(f'{name:40s} harness {1000*h:6.1f} ms / {e:.2f} s = {100*h/e:.2f}% of a core; switches {sw/e:.1f}/s; '
              f'program {1000*c:.1f} ms; load {os.getloadavg()[0]:.2f}', flush=True)
