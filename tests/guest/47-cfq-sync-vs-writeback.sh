# Sync before writeback, at the kernel's defaults, on the fairness
# null_blk: a reader (direct, sequential, one request at a time) that
# competes with a task dirtying the page cache of the same disk keeps at
# least 80 % of the bytes it reads against an equal direct reader, under
# cfq (lib.sh's writeback_case).  Its 99th-percentile completion latency
# beside the writer is reported for cfq, bfq and mq-deadline, as is what
# it reads under each.  48 does the same on the virtio disk.
. "$LAB_GUEST_LIB"
tap_plan 2

cfq_available || tap_skip_rest "the kernel offers no cfq scheduler"

disk=t47
tap_cfq_nullb $disk
writeback_case "null_blk" /dev/$disk
nullb_remove $disk
