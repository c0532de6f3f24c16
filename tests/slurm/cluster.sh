#!/usr/bin/env bash
# A single-node Slurm cluster on loopback for the tests, in a private state
# directory: munged, slurmctld and slurmd (as root, as Slurm needs), and
# slurmrestd as an unprivileged user with JWT auth.
#   tests/slurm/cluster.sh start DIR   prints SLURM_CONF=... SLURM_JWT=... SLURM_URL=...
#   tests/slurm/cluster.sh stop DIR    stops what start started, by PID
# Exits 77 when this host cannot run one (not root, or Slurm not installed).
set -u
cmd=$1 S=$(realpath -m "$2")
stop() {
	for f in "$S"/run/slurmrestd.pid "$S"/run/slurmd-*.pid "$S"/run/slurmctld.pid "$S"/munge/munged.pid; do
		[ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
	done
	sleep 0.3
	for f in "$S"/run/slurmrestd.pid "$S"/run/slurmd-*.pid "$S"/run/slurmctld.pid "$S"/munge/munged.pid; do
		[ -f "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null
		rm -f "$f"
	done
	return 0
}
if [ "$cmd" = stop ]; then
	stop
	exit 0
fi
for t in munged slurmctld slurmd slurmrestd scontrol; do
	command -v $t > /dev/null || [ -x /usr/sbin/$t ] || { echo "slurm: $t is not installed (apt-get install slurm-wlm slurmrestd slurm-wlm-jwt-plugin munge)" >&2; exit 77; }
done
[ "$(id -u)" = 0 ] || { echo "slurm: starting slurmd and munged needs root" >&2; exit 77; }
export PATH=$PATH:/usr/sbin
host=$(hostname -s)
port=$((30000 + RANDOM % 2700)) # its own range, below the ephemeral ports: the agent tests listen below 30000
mkdir -p "$S"/{etc,state,spool,run,log,munge,jobs}
chmod 755 "$S" "$S"/munge "$S"/jobs
chown munge: "$S"/munge
head -c 1024 /dev/urandom > "$S/etc/munge.key"
chown munge: "$S/etc/munge.key"; chmod 400 "$S/etc/munge.key"
head -c 32 /dev/urandom > "$S/etc/jwt_hs256.key"
chown slurm: "$S/etc/jwt_hs256.key"; chmod 600 "$S/etc/jwt_hs256.key"
chown slurm: "$S/state" "$S/log" "$S/run"
chmod 777 "$S/jobs" "$S/log" "$S/run"
mem=$(slurmd -C | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p')
cpus=$(nproc)
cat > "$S/etc/slurm.conf" <<CONF
ClusterName=tunetest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=slurm
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$S/munge/munge.socket.2
CredType=cred/munge
AuthAltTypes=auth/jwt
AuthAltParameters=jwt_key=$S/etc/jwt_hs256.key
SlurmctldPort=$port
SlurmdPort=$((port + 1))
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool/slurmd-%n
SlurmctldPidFile=$S/run/slurmctld.pid
SlurmdPidFile=$S/run/slurmd-%n.pid
SlurmctldLogFile=$S/log/slurmctld.log
SlurmdLogFile=$S/log/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
MpiDefault=none
ReturnToService=2
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus Boards=1 SocketsPerBoard=1 CoresPerSocket=$cpus ThreadsPerCore=1 RealMemory=$((mem - 100)) State=UNKNOWN
PartitionName=bench Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
PartitionName=short Nodes=ALL MaxTime=1 State=UP OverSubscribe=NO
CONF
export SLURM_CONF=$S/etc/slurm.conf
runuser -u munge -- munged -S "$S/munge/munge.socket.2" --key-file="$S/etc/munge.key" \
	--log-file="$S/munge/munged.log" --pid-file="$S/munge/munged.pid" --seed-file="$S/munge/munged.seed" || exit 1
slurmctld || { stop; exit 1; }
slurmd || { stop; exit 1; }
setsid setpriv --reuid=nobody --regid=nogroup --clear-groups env SLURM_CONF="$SLURM_CONF" SLURM_JWT=daemon \
	slurmrestd -a rest_auth/jwt -s openapi/v0.0.38 127.0.0.1:$((port + 2)) > "$S/log/slurmrestd.log" 2>&1 < /dev/null &
echo $! > "$S/run/slurmrestd.pid"
for _ in $(seq 100); do
	sinfo -h -o %t 2>/dev/null | grep -q idle && break
	sleep 0.1
done
token=$(scontrol token lifespan=86400 | sed -n 's/^SLURM_JWT=//p')
for _ in $(seq 50); do
	curl -s -o /dev/null -H "X-SLURM-USER-NAME: root" -H "X-SLURM-USER-TOKEN: $token" \
		"http://127.0.0.1:$((port + 2))/slurm/v0.0.38/ping" && break
	sleep 0.1
done
echo "SLURM_CONF=$SLURM_CONF"
echo "SLURM_JWT=$token"
echo "SLURM_URL=http://127.0.0.1:$((port + 2))"
echo "SLURM_NODE=$host"
