# Lab self-test: every check passes, but the test exits non-zero.
echo "1..1"
echo "ok 1 - a passing check"
exit 3
