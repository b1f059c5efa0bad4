# Lab self-test: checks that pass, but no plan says how many there were
# meant to be (a test cut short before its plan would look the same).
echo "ok 1 - a passing check"
