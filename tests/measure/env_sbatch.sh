#!/bin/sh
# A stand-in for Slurm's sbatch that records the environment it was given (sbatch hands it on to the job) in the file
# GPUF_TEST_SBATCH_ENV names, then answers as --parsable does.
env >"$GPUF_TEST_SBATCH_ENV"
printf '4242\n'
