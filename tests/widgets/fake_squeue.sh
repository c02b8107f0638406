#!/bin/sh
# A stand-in for Slurm's squeue in the measurement panel's test (no scheduler there): every array task of the job
# fake_sbatch.sh submitted runs on one node. The real scheduler is exercised by tests/measure/tst_measure_cluster.
printf '4242_0|RUNNING|gpu-node-7|None\n'
