# Lab self-test: a guest test with one failing check, which leaves a
# process behind (the run must go on without waiting for it).
sleep 1000 &
echo "1..2"
echo "ok 1 - a passing check"
echo "not ok 2 - a failing check the lab must report"
