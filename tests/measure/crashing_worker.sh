#!/bin/sh
# A gpuf-measure stand-in for the cluster job script's test: answers hello (no GPU) and device_info (no GPU), and
# ends without a word on any compile request, as a worker killed by its kernel would.
while IFS= read -r line; do
    id=$(printf '%s\n' "$line" | sed -n 's/.*"id":\("[^"]*"\|[0-9]*\).*/\1/p')
    case "$line" in
    *'"compile"'*) exit 1 ;;
    *'"hello"'*)
        printf '{"id":%s,"type":"hello","status":"ok","protocol":"gpuf-measure/1","worker_version":"stand-in",' "$id"
        printf '"gpu_available":false,"gpu_unavailable_reason":"no GPU here","devices":[]}\n'
        ;;
    *)
        printf '{"id":%s,"type":"device_info","status":"infrastructure_failure","message":"no GPU here"}\n' "$id"
        ;;
    esac
done
