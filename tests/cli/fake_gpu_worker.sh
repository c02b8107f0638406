#!/bin/sh
# A gpuf-measure stand-in that describes one GPU (hello and device_info, as docs/measure-protocol.md shapes them) and
# measures nothing: `gpuf forecast --hardware local` reads the local GPU through it on machines without one.
while IFS= read -r line; do
    id=$(printf '%s\n' "$line" | sed -n 's/.*"id":\("[^"]*"\|[0-9]*\).*/\1/p')
    case "$line" in
    *'"hello"'*)
        printf '{"id":%s,"type":"hello","status":"ok","protocol":"gpuf-measure/1","worker_version":"fake-gpu",' "$id"
        printf '"nvrtc_version":"13.0","gpu_available":true,"devices":[{"ordinal":0,"name":"Test GPU 9000",'
        printf '"uuid":"GPU-0000","compute_capability":"9.0","arch":"sm_90"}]}\n'
        ;;
    *'"device_info"'*)
        printf '{"id":%s,"type":"device_info","status":"ok","device":{"ordinal":0,"name":"Test GPU 9000",' "$id"
        printf '"uuid":"GPU-0000","compute_capability":"9.0","arch":"sm_90","sm_count":132,'
        printf '"total_memory_bytes":150109880320,"l2_bytes":62914560,"max_threads_per_sm":2048,'
        printf '"max_shared_per_block_optin":232448,"memory_bus_width_bits":6016,"memory_clock_khz":3201000,'
        printf '"sm_clock_khz":1980000,"peak_bandwidth_gbs":4814.3,"driver_version":"580.0",'
        printf '"clocks":{"available":false,"reason":"fake"}}}\n'
        ;;
    *'"shutdown"'*)
        printf '{"id":%s,"type":"shutdown","status":"ok"}\n' "$id"
        exit 0
        ;;
    *)
        printf '{"id":%s,"status":"infrastructure_failure","message":"fake worker"}\n' "$id"
        ;;
    esac
done
