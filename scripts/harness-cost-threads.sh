#!/bin/bash
# usage: scripts/harness-cost-threads.sh BIN : per-thread CPU (schedstat) and voluntary/involuntary switches over 6 s of a `sleep 10` run
B=$1; O=/tmp/cost-thr-$$; rm -rf $O
$B run --no-history --quiet --out $O -- /bin/sleep 10 >/dev/null 2>&1 &
sleep 2.5; P=$(pgrep -n -x -f "$B run --no-history --quiet --out $O -- /bin/sleep 10")
snap() { for t in /proc/$P/task/*; do echo "$(basename $t) $(cut -d' ' -f1 $t/schedstat) $(grep ^voluntary $t/status|cut -f2) $(grep ^nonvoluntary $t/status|cut -f2) $(cat $t/wchan)"; done; }
snap | sort > /tmp/cost-thr-$$.1; a=$(awk '{print $14+$15}' /proc/$P/stat); sleep 6; snap | sort > /tmp/cost-thr-$$.2; b=$(awk '{print $14+$15}' /proc/$P/stat)
join /tmp/cost-thr-$$.1 /tmp/cost-thr-$$.2 | awk '{cpu=($6-$2)/1e6; v=$7-$3; n=$8-$4; tc+=cpu; tv+=v; tn+=n; if (v+n>0||cpu>0.05) printf "  tid %s %-32s cpu %6.2f ms vol %3d invol %3d\n",$1,$9,cpu,v,n} END {printf "  threads alive throughout: cpu %.2f ms (%.3f%% of a core) vol %.1f/s invol %.1f/s\n", tc, tc/60, tv/6, tn/6}'
echo "  process ticks over 6 s: $((b-a)) (10 ms each)"; wait; rm -rf $O /tmp/cost-thr-$$.*
