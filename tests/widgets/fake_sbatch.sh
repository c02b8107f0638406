#!/bin/sh
# A stand-in for Slurm's sbatch in the measurement panel's test: accepts the array and answers as --parsable does.
printf '4242\n'
