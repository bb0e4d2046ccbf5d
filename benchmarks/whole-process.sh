#!/usr/bin/env bash
# whole-process.sh: the command line's whole-process figures of benchmarks/README.md, measured with
# /usr/bin/time (wall, user+sys CPU, peak RSS), the median of RUNS runs (default 5), each with the
# load average of the minute before it. Run from the repository's root after building the jar.
#   benchmarks/whole-process.sh [plan|check|hwloc|certify|all]
# Needs Debian's hwloc (hwloc-distrib) for the side-by-side; the machines are written to
# ${TMPDIR:-/tmp}/numaspread-machines: 1024 nodes x 4 CPUs (the x86 MAX_NUMNODES), and 8192 CPUs
# (NR_CPUS) in 64 nodes of 64 SMT-2 cores, for numaspread and, as a synthetic topology, for hwloc.
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
runs="${RUNS:-5}"
dir="${TMPDIR:-/tmp}/numaspread-machines"
mkdir -p "$dir"
ns="$root/numaspread"

# 1024 nodes x 4 CPUs: distance 10 local, 12 inside a group of 4 nodes, 20 inside a socket of 64,
# 30 beyond (four levels, as large x86 machines report).
machine_1024n() {
    local f="$dir/1024n-4096cpu.topo"
    [[ -s "$f" ]] || awk 'BEGIN {
        n = 1024; print "topology 1024n-4096cpu"; print "smt none"; print "numactl:";
        print "available: " n " nodes (0-" n-1 ")";
        for (i = 0; i < n; i++) printf "node %d cpus: %d %d %d %d\n", i, 4*i, 4*i+1, 4*i+2, 4*i+3;
        print "node distances:"; line = "node"; for (j = 0; j < n; j++) line = line " " j; print line;
        for (i = 0; i < n; i++) {
            line = i ":";
            for (j = 0; j < n; j++) line = line " " (i == j ? 10 : int(i/4) == int(j/4) ? 12 : int(i/64) == int(j/64) ? 20 : 30);
            print line;
        } }' > "$f"
    echo "$f"
}

# 8192 CPUs: 64 nodes of 128 CPUs, SMT 2 adjacent, 4 nodes a socket; distances 10/12/32.
machine_8192() {
    local f="$dir/64n-8192cpu.topo"
    [[ -s "$f" ]] || awk 'BEGIN {
        n = 64; print "topology 64n-8192cpu"; print "smt 2 adjacent"; print "numactl:";
        print "available: " n " nodes (0-" n-1 ")";
        for (i = 0; i < n; i++) printf "node %d cpus: %d-%d\n", i, 128*i, 128*i+127;
        print "node distances:"; line = "node"; for (j = 0; j < n; j++) line = line " " j; print line;
        for (i = 0; i < n; i++) {
            line = i ":";
            for (j = 0; j < n; j++) line = line " " (i == j ? 10 : int(i/4) == int(j/4) ? 12 : 32);
            print line;
        } }' > "$f"
    echo "$f"
}

# One figure: RUNS runs of the command, the median wall, CPU (user+sys) and RSS, and the load
# averages (1 minute) seen before the runs, min-max.
measure() {
    local label="$1"; shift
    local walls=() cpus=() rss=() loads=()
    # One run first, not counted: the launcher records the command's class-data archive on its
    # first run, and the files come into the page cache.
    "$@" > /dev/null 2>&1 || true
    for ((r = 0; r < runs; r++)); do
        loads+=("$(cut -d' ' -f1 /proc/loadavg)")
        /usr/bin/time -o "$dir/time" -f "%e %U %S %M" "$@" > /dev/null 2>&1 || true
        read -r e u s m < <(tail -1 "$dir/time")
        walls+=("$e"); cpus+=("$(echo "$u + $s" | bc)"); rss+=("$m")
    done
    printf '| %s | %s | %s | %s MB | %s |\n' "$label" \
        "$(printf '%s\n' "${walls[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}') s" \
        "$(printf '%s\n' "${cpus[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}') s" \
        "$(printf '%s\n' "${rss[@]}" | sort -g | awk '{a[NR]=$1} END {printf "%d", a[int((NR+1)/2)]/1024}')" \
        "$(printf '%s\n' "${loads[@]}" | sort -g | awk 'NR==1 {lo=$1} {hi=$1} END {print lo "-" hi}')"
}

what="${1:-all}"
[[ -f "$root/cli/target/numaspread.jar" ]] || { echo "build the jar first: mvn -B -q -DskipTests -pl cli -am package" >&2; exit 2; }
echo "| command | wall (median of $runs) | CPU user+sys | peak RSS | load average 1 min |"
echo "|---|---|---|---|---|"
big="$(machine_1024n)"; huge="$(machine_8192)"
if [[ $what == all || $what == plan ]]; then
    measure "plan kunpeng920-4node local-spread 6.12, 96 queues" "$ns" plan --topology "$root/fixtures/topologies/kunpeng920-4node.topo" --routine local-spread --kernel 6.12 --node 2 --count 96
    measure "plan 1024 nodes x 4 local-spread 6.12, 4096 queues" "$ns" plan --topology "$big" --routine local-spread --kernel 6.12 --node 0 --count 4096
    measure "plan 1024 nodes x 4 group-cpus 6.12, 1024 groups" "$ns" plan --topology "$big" --routine group-cpus --kernel 6.12 --count 1024
fi
if [[ $what == all || $what == check ]]; then
    measure "check-topology 1024 nodes x 4" "$ns" check-topology "$big"
    measure "check-topology 8192 CPUs, 64 nodes" "$ns" check-topology "$huge"
fi
if [[ $what == all || $what == hwloc ]]; then
    measure "plan 8192 CPUs group-cpus 6.12, 8192 groups" "$ns" plan --topology "$huge" --routine group-cpus --kernel 6.12 --count 8192
    measure "plan 8192 CPUs local-spread 6.12, 8192 queues" "$ns" plan --topology "$huge" --routine local-spread --kernel 6.12 --node 0 --count 8192
    if command -v hwloc-distrib > /dev/null; then
        measure "hwloc-distrib 8192 items on 8192 PUs (64 NUMA x 64 cores x 2)" hwloc-distrib --input "numa:64 core:64 pu:2" 8192
        measure "hwloc-distrib 96 items on Kunpeng 920 (4 NUMA x 24 cores)" hwloc-distrib --input "numa:4 core:24 pu:1" 96
    else
        echo "| hwloc-distrib | not installed (apt-get install hwloc) | | | |"
    fi
fi
if [[ $what == all || $what == certify ]]; then
    measure "certify (the bundled example, every claim)" "$ns" certify --report "$dir/report"
fi
