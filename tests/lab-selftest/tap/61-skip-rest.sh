# Lab self-test: the guest tests' own whole-test skip (lib.sh's
# tap_skip_rest: plan the checks, skip every one), which must not fail
# the run.
. "$LAB_GUEST_LIB"
tap_plan 3
tap_skip_rest "the lab's self-test of tap_skip_rest"
