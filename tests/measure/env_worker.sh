#!/bin/sh
# A gpuf-measure stand-in that tells what its environment holds: its hello says "no GPU" with the names of the
# variables it was given, whether OPENAI_API_KEY reached it and the arguments it was started with.
names=$(env | sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\)=.*/\1/p' | sort | tr '\n' ' ')
while IFS= read -r line; do
    id=$(printf '%s\n' "$line" | sed -n 's/.*"id":\("[^"]*"\|[0-9]*\).*/\1/p')
    printf '{"id":%s,"type":"hello","status":"ok","protocol":"gpuf-measure/1","worker_version":"stand-in",' "$id"
    printf '"gpu_available":false,"gpu_unavailable_reason":"key=%s; names: %s; args: %s","devices":[]}\n' \
        "${OPENAI_API_KEY:-unset}" "$names" "$*"
done
