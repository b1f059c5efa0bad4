# Lab self-test: a guest test with one failing check.
echo "1..2"
echo "ok 1 - a passing check"
echo "not ok 2 - a failing check the lab must report"
