#!/bin/sh
# A throw-away single-node Slurm cluster for the cluster backend's integration test (tests/measure/tst_measure_cluster.cpp): munged with a
# generated key, slurmctld and slurmd with a generated slurm.conf naming this host (CPUs=2, no GPU), all inside DIR
# and on ports of their own, so several runs on one machine do not meet.
#   slurm_cluster.sh start DIR   starts it and prints SLURM_CONF=DIR/slurm.conf once the node is idle
#   slurm_cluster.sh stop DIR    stops the daemons it started
#   slurm_cluster.sh reboot DIR  kills slurmd and every job step on the node with all their processes at once (SIGKILL,
#                                as a node that loses power), then starts slurmd again: what slurmctld sees of a reboot
# Exits 77 (skip) with the reason when Slurm or munge is not installed or this is not root.
set -u
cmd="${1:-}"
dir="${2:-}"
[ -n "$cmd" ] && [ -n "$dir" ] || { echo "usage: $0 start|stop|reboot DIR" >&2; exit 2; }

# Ends the daemons this script started (by the pids they wrote) and waits, briefly, until they are gone, so the
# caller can remove DIR.
stop() {
    for name in slurmd slurmctld munged; do
        pidfile="$dir/$name.pid"
        [ -f "$pidfile" ] || continue
        pid=$(cat "$pidfile")
        if [ -n "$pid" ] && kill "$pid" 2>/dev/null; then
            tries=0
            while kill -0 "$pid" 2>/dev/null && [ "$tries" -lt 50 ]; do
                tries=$((tries + 1))
                sleep 0.1
            done
        fi
        rm -f "$pidfile"
    done
    chmod -R u+w "$dir" 2>/dev/null
    return 0
}

# The pids of this cluster's job steps (slurmstepd inherits slurmd's SLURM_CONF) and of all their descendants.
steps() {
    roots=""
    for env in /proc/[0-9]*/environ; do
        pid=${env#/proc/}
        pid=${pid%/environ}
        case "$(cat "/proc/$pid/comm" 2>/dev/null)" in slurmstepd) ;; *) continue ;; esac
        tr '\0' '\n' <"$env" 2>/dev/null | grep -qxF "SLURM_CONF=$dir/slurm.conf" && roots="$roots $pid"
    done
    [ -n "$roots" ] || return 0
    ps -e -o pid=,ppid= | awk -v roots="$roots" '
        { parent[$1] = $2 }
        END {
            n = split(roots, r, " "); for (i = 1; i <= n; i++) keep[r[i]] = 1
            do { grown = 0; for (p in parent) if (!(p in keep) && (parent[p] in keep)) { keep[p] = 1; grown = 1 } } while (grown)
            for (p in keep) print p
        }'
}

if [ "$cmd" = stop ]; then
    stop
    exit 0
fi
if [ "$cmd" = reboot ]; then
    PATH="$PATH:/usr/sbin:/sbin"
    slurmd_pid=$(cat "$dir/slurmd.pid" 2>/dev/null)
    [ -n "$slurmd_pid" ] || { echo "error: no slurmd.pid in $dir" >&2; exit 1; }
    # Stopped first, so nothing forks between the listing and the kill.
    kill -STOP "$slurmd_pid" $(steps) 2>/dev/null
    kill -KILL "$slurmd_pid" $(steps) 2>/dev/null
    tries=0
    while kill -0 "$slurmd_pid" 2>/dev/null && [ "$tries" -lt 50 ]; do
        tries=$((tries + 1))
        sleep 0.1
    done
    rm -f "$dir/slurmd.pid"
    SLURM_CONF="$dir/slurm.conf" slurmd -f "$dir/slurm.conf" -N "$(hostname -s)" \
        || { echo "error: slurmd did not start again (see $dir/slurmd.log)" >&2; exit 1; }
    echo "rebooted"
    exit 0
fi
[ "$cmd" = start ] || { echo "usage: $0 start|stop|reboot DIR" >&2; exit 2; }

PATH="$PATH:/usr/sbin:/sbin"
for tool in munged mungekey slurmctld slurmd sbatch squeue sinfo scancel; do
    command -v "$tool" >/dev/null 2>&1 || { echo "skip: $tool is not installed (Debian: slurm-wlm, munge)"; exit 77; }
done
[ "$(id -u)" -eq 0 ] || { echo "skip: slurmd must run as root to start jobs"; exit 77; }

mkdir -p "$dir/state" "$dir/spool" "$dir/munge" || exit 1
chmod 0700 "$dir" "$dir/munge"
host=$(hostname -s)
# Ports from the directory's name, so parallel runs differ; 20000-29999 stays clear of the usual ones.
base=$((20000 + $(printf '%s' "$dir" | cksum | cut -d' ' -f1) % 4999 * 2))

mungekey --create --keyfile="$dir/munge/munge.key" --force >/dev/null 2>&1 \
    || dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 0400 "$dir/munge/munge.key"
munged --force --socket="$dir/munge/socket" --key-file="$dir/munge/munge.key" --pid-file="$dir/munged.pid" \
    --log-file="$dir/munged.log" --seed-file="$dir/munge/seed" || { echo "error: munged did not start" >&2; exit 1; }

cat >"$dir/slurm.conf" <<CONF
ClusterName=gpuftest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$base
SlurmdPort=$((base + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
# Slurm 23.11 and later load a cgroup plugin in slurmd whatever the task and proctrack plugins; a test node in a
# container or chroot has no cgroup file system to give it, and needs none.
# (22.05 refuses the setting and needs no cgroup.conf with these plugins.)
version=$(slurmd -V 2>/dev/null | awk '{ print $2 }')
[ "${version%%.*}" -ge 23 ] 2>/dev/null && printf 'CgroupPlugin=disabled\n' >"$dir/cgroup.conf"
export SLURM_CONF="$dir/slurm.conf"
slurmctld -i -f "$SLURM_CONF" || { echo "error: slurmctld did not start (see $dir/slurmctld.log)" >&2; stop; exit 1; }
slurmd -f "$SLURM_CONF" -N "$host" || { echo "error: slurmd did not start (see $dir/slurmd.log)" >&2; stop; exit 1; }

# The node registers within a few seconds; a minute without it is a broken set-up, said with the logs' tail.
tries=0
until [ "$(sinfo -h -N -o %T 2>/dev/null | head -n 1)" = idle ]; do
    tries=$((tries + 1))
    if [ "$tries" -gt 120 ]; then
        echo "error: the node did not become idle; slurmctld.log ends:" >&2
        tail -n 5 "$dir/slurmctld.log" "$dir/slurmd.log" >&2
        stop
        exit 1
    fi
    sleep 0.5
done
echo "SLURM_CONF=$SLURM_CONF"
