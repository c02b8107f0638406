#!/bin/sh
# A gpuf-measure stand-in that hangs: it answers hello like a worker without a GPU, then never answers the next
# request (as a worker stuck in a driver call would). Used by the queue's process-watchdog and cancellation tests.
while IFS= read -r line; do
    case "$line" in
    *'"hello"'*)
        id=$(printf '%s\n' "$line" | sed -n 's/.*"id":\("[^"]*"\|[0-9]*\).*/\1/p')
        printf '{"id":%s,"type":"hello","status":"ok","protocol":"gpuf-measure/1","worker_version":"hung-test",' "$id"
        printf '"nvrtc_version":"none","gpu_available":false,"gpu_unavailable_reason":"test worker that never answers","devices":[]}\n'
        ;;
    *'"shutdown"'*)
        exit 0
        ;;
    *)
        exec sleep 3600
        ;;
    esac
done
